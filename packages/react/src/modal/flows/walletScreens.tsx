import { lazy } from "react";
import { WalletListScreen } from "../lazyScreens";
import { type LoginScreenContext, walletsOnly } from "../screenContext";
import type { FlowScreens } from "../screenEntry";
import type { WalletScreenState } from "./createWalletFlow";

// External wallets: connecting (with the WalletConnect QR code) and signing, each on demand.
const WalletConnectScreen = lazy(() => import("../WalletConnectScreen"));
const WalletSignScreen = lazy(() => import("../WalletSignScreen"));

const WALLET_SCREENS: FlowScreens<WalletScreenState, LoginScreenContext> = {
  wallets: {
    render: (screen, context) => (
      <WalletListScreen
        client={context.client}
        actions={context.actions.wallets}
        purpose={
          screen.flow === "connect" || screen.flow === "connect-or-create"
            ? "connect"
            : screen.flow === "link"
              ? "link"
              : "login"
        }
        appName={context.appName}
        titleId={context.titleId}
        onBack={
          (screen.flow === "login" || screen.flow === "connect-or-create") && !walletsOnly(context)
            ? context.actions.methods.back
            : undefined
        }
      />
    ),
  },
  "wallet-connect": {
    render: (screen, context) => (
      <WalletConnectScreen
        client={context.client}
        actions={context.actions.wallets}
        walletId={screen.walletId}
        pending={screen.walletPending}
        loadError={screen.loadError}
        titleId={context.titleId}
        onCancel={context.close}
      />
    ),
  },
  "wallet-sign": {
    render: (screen, context) => (
      <WalletSignScreen
        client={context.client}
        actions={context.actions.wallets}
        purpose={screen.flow === "link" ? "link" : "login"}
        walletId={screen.walletId}
        address={screen.walletAddress}
        pending={screen.walletPending}
        loadError={screen.loadError}
        titleId={context.titleId}
      />
    ),
  },
};
export default WALLET_SCREENS;
