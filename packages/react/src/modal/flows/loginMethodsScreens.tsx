import { WalletListScreen } from "../lazyScreens";
import { MethodsScreen } from "../MethodsScreen";
import { MoreScreen } from "../MoreScreen";
import { accountFlowOf, type LoginScreenContext, walletsOnly } from "../screenContext";
import type { FlowScreens } from "../screenEntry";
import type { LoginMethodsScreenState } from "./createLoginMethodsFlow";

const LOGIN_METHODS_SCREENS: FlowScreens<LoginMethodsScreenState, LoginScreenContext> = {
  methods: {
    render: (screen, context) =>
      walletsOnly(context) ? (
        <WalletListScreen
          client={context.client}
          actions={context.actions.wallets}
          purpose={
            screen.flow === "connect-or-create"
              ? "connect"
              : accountFlowOf(screen.flow) === "link"
                ? "link"
                : "login"
          }
          appName={context.appName}
          titleId={context.titleId}
        />
      ) : (
        <MethodsScreen
          client={context.client}
          actions={context.actions.methods}
          methods={context.methods}
          appName={context.appName}
          disablePlusEmails={context.appConfig?.disable_plus_emails ?? false}
          initialEmail={screen.email ?? ""}
          initialNumber={screen.phoneNumber ?? ""}
          header={context.appearance.landingHeader}
          message={context.appearance.loginMessage}
          focusTitle={context.cameBack}
        />
      ),
    // Compact for the email-only login screen, as before; full where more is shown.
    compact: ({ methods }) => methods.primary.join() === "email" && methods.overflow.length === 0,
  },
  more: {
    render: (_screen, { actions, methods }) => (
      <MoreScreen actions={actions.methods} methods={methods.overflow} />
    ),
  },
};
export default LOGIN_METHODS_SCREENS;
