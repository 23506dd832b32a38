import { lazy } from "react";
import { accountFlowOf, always, type LoginScreenContext } from "../screenContext";
import type { FlowScreens } from "../screenEntry";
import type { RefusalScreenState } from "./createRefusalFlow";

// Chunks of their own: a login that goes through never loads them.
const RefusalScreen = lazy(() => import("../RefusalScreen"));
const TransferScreen = lazy(() => import("../TransferScreen"));

const REFUSAL_SCREENS: FlowScreens<RefusalScreenState, LoginScreenContext> = {
  refusal: {
    render: (screen, context) =>
      screen.refusal.code !== "account_transfer_required" && (
        <RefusalScreen
          code={screen.refusal.code}
          flow={accountFlowOf(screen.flow)}
          appName={context.appName}
          subject={screen.subject}
          titleId={context.titleId}
          onBack={context.actions.methods.back}
          onClose={context.close}
        />
      ),
    compact: always,
  },
  transfer: {
    render: (screen, context) => (
      <TransferScreen
        client={context.client}
        actions={context.actions.transfer}
        offer={screen.refusal.transfer}
        appName={context.appName}
        titleId={context.titleId}
        onCancel={context.close}
      />
    ),
  },
};
export default REFUSAL_SCREENS;
