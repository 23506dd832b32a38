import { lazy } from "react";
import type { LoginScreenContext } from "../screenContext";
import type { FlowScreens } from "../screenEntry";
import type { FarcasterSignerScreenState } from "./createFarcasterSignerFlow";

// With the QR code library: loaded only when a signer is requested.
const FarcasterSignerScreen = lazy(() => import("../FarcasterSignerScreen"));

const FARCASTER_SIGNER_SCREENS: FlowScreens<FarcasterSignerScreenState, LoginScreenContext> = {
  "farcaster-signer": {
    render: (screen, context) => (
      <FarcasterSignerScreen
        client={context.client}
        actions={context.flows.signer}
        publicKey={screen.signerPublicKey}
        titleId={context.titleId}
        onClose={context.close}
      />
    ),
  },
};
export default FARCASTER_SIGNER_SCREENS;
