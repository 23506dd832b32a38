import { lazy } from "react";
import { backOf, type LoginScreenContext } from "../screenContext";
import type { FlowScreens } from "../screenEntry";
import type { PasskeyScreenState } from "./passkeyLogin";

const PasskeyScreen = lazy(() => import("../passkeys/PasskeyScreen"));

/** The passkey login's screens: the login method's own, listed with it (`OWN_METHODS`). */
export const PASSKEY_LOGIN_SCREENS: FlowScreens<PasskeyScreenState, LoginScreenContext> = {
  passkey: {
    render: (screen, context) => (
      <PasskeyScreen
        client={context.client}
        actions={context.actions.passkey}
        titleId={context.titleId}
        onBack={backOf(screen.flow, context)}
      />
    ),
  },
};
