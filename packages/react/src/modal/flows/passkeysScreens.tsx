import { lazy } from "react";
import type { LoginScreenContext } from "../screenContext";
import type { FlowScreens } from "../screenEntry";
import type { PasskeysScreenState } from "./createPasskeysFlow";

const PasskeysScreen = lazy(() => import("../passkeys/PasskeysScreen"));

const PASSKEYS_SCREENS: FlowScreens<PasskeysScreenState, LoginScreenContext> = {
  passkeys: {
    render: (_screen, context) => (
      <PasskeysScreen client={context.client} actions={context.flows.passkeys} titleId={context.titleId} />
    ),
  },
};
export default PASSKEYS_SCREENS;
