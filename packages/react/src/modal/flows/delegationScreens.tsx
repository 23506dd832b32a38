import { DelegationConsentScreen } from "../DelegationConsentScreen";
import { DelegationRevokeScreen } from "../DelegationRevokeScreen";
import type { ScreenContext } from "../screenContext";
import type { FlowScreens } from "../screenEntry";
import type { DelegationScreenState } from "./createDelegationFlow";

/** The app's name as the user knows it. */
const appNameOf = ({ client }: ScreenContext) => client.store.getState().appConfig?.name ?? "this app";

const DELEGATION_SCREENS: FlowScreens<DelegationScreenState, ScreenContext> = {
  "delegation-consent": {
    render: ({ address, terms, allow, done }, context) => (
      <DelegationConsentScreen
        appName={appNameOf(context)}
        address={address}
        loadTerms={terms}
        allow={allow}
        titleId={context.titleId}
        onDone={done}
        onDecline={context.close}
      />
    ),
  },
  "delegation-revoke": {
    render: ({ wallets, revoke, done }, context) => (
      <DelegationRevokeScreen
        appName={appNameOf(context)}
        wallets={wallets}
        revoke={revoke}
        titleId={context.titleId}
        onDone={done}
        onCancel={context.close}
      />
    ),
  },
};
export default DELEGATION_SCREENS;
