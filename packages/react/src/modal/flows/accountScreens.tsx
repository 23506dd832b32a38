import { lazy } from "react";
import type { LoginScreenContext } from "../screenContext";
import type { FlowScreens } from "../screenEntry";
import type { TermsScreenState } from "./createAccountFlow";

// Its own chunk: a login into an app without required terms never loads it.
const TermsScreen = lazy(() => import("../TermsScreen"));

const ACCOUNT_SCREENS: FlowScreens<TermsScreenState, LoginScreenContext> = {
  terms: {
    render: (_screen, context) => (
      <TermsScreen
        client={context.client}
        actions={context.actions.account}
        appName={context.appName}
        termsUrl={context.appConfig?.terms_and_conditions_url ?? null}
        privacyUrl={context.appConfig?.privacy_policy_url ?? null}
        titleId={context.titleId}
        onDecline={context.close}
      />
    ),
  },
};
export default ACCOUNT_SCREENS;
