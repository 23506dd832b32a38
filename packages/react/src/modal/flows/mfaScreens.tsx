import { lazy } from "react";
import type { LoginScreenContext } from "../screenContext";
import type { FlowScreens } from "../screenEntry";
import type { MfaScreenState } from "./followMfa";

const MfaEnrollScreen = lazy(() => import("../mfa/MfaEnrollScreen"));

// The verification alone (`mfa-verify`) has no entry: both modals show it as a layer over no screen.
const MFA_SCREENS: FlowScreens<MfaScreenState, LoginScreenContext, "mfa-verify"> = {
  "mfa-enroll": {
    render: (_screen, context) => (
      <MfaEnrollScreen
        client={context.client}
        appName={context.appName}
        titleId={context.titleId}
        onClose={context.close}
      />
    ),
  },
};
export default MFA_SCREENS;
