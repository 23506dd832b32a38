import { lazy } from "react";
import { accountFlowOf, backOf, type LoginScreenContext } from "../screenContext";
import type { FlowScreens } from "../screenEntry";
import type { FarcasterScreenState } from "./createFarcasterFlow";

// With the QR code library: loaded only when Farcaster is chosen.
const FarcasterScreen = lazy(() => import("../FarcasterScreen"));

const FARCASTER_SCREENS: FlowScreens<FarcasterScreenState, LoginScreenContext> = {
  farcaster: {
    render: (screen, context) => (
      <FarcasterScreen
        client={context.client}
        actions={context.actions.farcaster}
        flow={accountFlowOf(screen.flow) === "link" ? "link" : "login"}
        titleId={context.titleId}
        onBack={backOf(screen.flow, context)}
      />
    ),
  },
};
export default FARCASTER_SCREENS;
