import { type Client, exportWallet } from "@symbolon/core";
import { ConfirmScreen } from "./ConfirmScreen";
import type { ModalScreen, ScreenState } from "./core/ModalScreen";
import { ExportScreen } from "./ExportScreen";
import type { ScreenActions } from "./screenActions";
import type { ScreenRegistry } from "./screenEntry";

/** What the wallet modal hands every screen entry. */
export interface WalletScreenContext {
  client: Client;
  actions: ScreenActions;
  close: () => void;
  titleId: string;
}

/** The screens of the wallet modal: a lazy chunk of its own, so pages that only log in never load it. */
export type WalletScreenName = "confirm" | "export";

/** Each screen of the wallet modal, and the component that shows it. */
export const WALLET_SCREENS: ScreenRegistry<WalletScreenName, WalletScreenContext> = {
  confirm: {
    render: (screen, { actions, titleId }) => (
      <ConfirmScreen
        request={screen.confirmation}
        titleId={titleId}
        onConfirm={() => actions.confirm.resolveConfirmation(true)}
        onCancel={() => actions.confirm.resolveConfirmation(false)}
      />
    ),
  },
  export: {
    render: ({ exportAddress }, { client, close, titleId }) => (
      <ExportScreen
        address={exportAddress}
        titleId={titleId}
        mount={(container) =>
          // Escape inside the wallet page closes the dialog as Escape anywhere else in it does.
          exportWallet(client, { address: exportAddress, container, onEscape: close })
        }
        onDone={close}
      />
    ),
  },
};

/** Whether the wallet modal has a screen for `screen`. */
export const isWalletScreen = (screen: ModalScreen): screen is ScreenState<WalletScreenName> =>
  screen.screen in WALLET_SCREENS;
