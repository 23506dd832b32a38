import { type Client, type ConnectedExternalWallet, UNABLE_TO_CONNECT_MESSAGE } from "@symbolon/core";
import type { ModalCore } from "../core/createModalCore";
import type { AccountActions } from "./createAccountActions";
import type { AccountFlow } from "./createAccountFlow";
import type { WalletAttempt, WalletFlow, WalletScreenState } from "./createWalletFlow";
import { showSuccess } from "./showSuccess";
import { isSignInOrConnect } from "./signInTypes";

// The external-wallet actions (connect, SIWE/SIWS) load on the first wallet chosen: a lazy chunk, so
// the modal's chunk stays without them (and viem).
const loadWalletActions = () => import("@symbolon/core/externalWallets");
type ExternalWalletActions = Awaited<ReturnType<typeof loadWalletActions>>;

/** What the wallet screens call. */
export interface WalletScreenActions {
  /** Wallet list: connect the wallet `walletId`, then (login, link) sign in with it. */
  chooseWallet(walletId: string): void;
  /**
   * "Try again": connect again after a failed connection (core `retryConnectWallet`), or ask for the
   * signature again after a failed SIWE/SIWS.
   */
  retryWallet(): void;
  /** Back to the wallet list; what is under way is ignored from now on. */
  showWallets(): void;
}

/** Creates the wallet screens' steps (spec §4 wallet connection and SIWE flow) over one modal core. */
export function createWalletActions(
  core: ModalCore,
  client: Client,
  { memory }: WalletFlow,
  account: AccountFlow,
  finish: AccountActions,
  refuse: (error: unknown) => boolean,
): WalletScreenActions {
  /** The wallet screen on show gets `patch` (its attempt's actions loaded, or could not). */
  const patchAttempt = (patch: Partial<WalletAttempt>) => {
    const current = core.current();
    if (current?.screen === "wallet-connect" || current?.screen === "wallet-sign")
      core.show({ ...current, ...patch });
  };

  /**
   * Runs `start` with the wallet actions once loaded; `walletPending` covers the load. When their chunk
   * cannot load, the wallet screen shows 'Unable to connect to wallet.' with Try again.
   */
  const withActions = <T>(start: (actions: ExternalWalletActions) => Promise<T>): Promise<T> =>
    loadWalletActions().then(
      (actions) => {
        const running = start(actions);
        // The action set its state synchronously: the store now describes this attempt.
        patchAttempt({ walletPending: false });
        return running;
      },
      (error: unknown) => {
        patchAttempt({ walletPending: false, loadError: UNABLE_TO_CONNECT_MESSAGE });
        throw error;
      },
    );

  /** Signs in (login) or links (link) with the connected `wallet`: SIWE for Ethereum, SIWS for Solana. */
  const signWith = (wallet: ConnectedExternalWallet, walletId: string) => {
    const mine = ++memory.run;
    const current = () => core.getState().open && mine === memory.run;
    const params = { address: wallet.address };
    const solana = wallet.chainType === "solana";
    const { flow } = account.session();
    if (flow === "link") finish.adding("wallet");
    core.show({
      flow,
      screen: "wallet-sign",
      walletId,
      walletAddress: wallet.address,
      walletPending: true,
      loadError: null,
    });
    withActions((a) =>
      flow === "link"
        ? (solana ? a.linkWithSiws : a.linkWithSiwe)(client, params).then(({ user }) => {
            if (current()) finish.saved(user);
          })
        : (solana ? a.loginWithSiws : a.loginWithSiwe)(client, params).then((result) => {
            if (current()) finish.succeed(result);
          }),
    ).catch((error: unknown) => {
      // Refusals with a screen of their own go there; the rest stay on the signing screen, which
      // shows `externalWallets.siwe.error` with Try again.
      if (current()) refuse(error);
    });
  };

  /** Follows a wallet connection: connect flows end there; login and link go on to the signature. */
  const follow = (walletId: string, connecting: Promise<ConnectedExternalWallet>) => {
    const mine = ++memory.run;
    connecting.then(
      (wallet) => {
        const flow = core.current()?.flow;
        if (!core.getState().open || mine !== memory.run) return;
        if (flow === "connect" || flow === "connect-or-create") {
          memory.connected = wallet;
          showSuccess(core, { flow, screen: "success", title: "Wallet connected" });
        } else signWith(wallet, walletId);
      },
      // The connecting screen shows `externalWallets.connection.error` with Try again.
      (error: unknown) => {
        if (mine === memory.run) memory.failure = error;
      },
    );
  };
  const connecting = (flow: WalletScreenState["flow"], walletId: string): WalletScreenState => ({
    flow,
    screen: "wallet-connect",
    walletId,
    walletPending: true,
    loadError: null,
  });

  return {
    chooseWallet(walletId) {
      const flow = core.current()?.flow;
      if (!isSignInOrConnect(flow)) return;
      memory.failure = null;
      core.show(connecting(flow, walletId));
      follow(
        walletId,
        withActions((a) => a.connectWallet(client, { walletId })),
      );
    },
    retryWallet() {
      const current = core.current();
      if (current?.screen !== "wallet-connect" && current?.screen !== "wallet-sign") return;
      const { walletId } = current;
      if (current.screen === "wallet-sign") {
        const wallet = client.store
          .getState()
          .externalWallets.connected.find((w) => w.address === current.walletAddress);
        if (wallet) {
          signWith(wallet, walletId);
          return;
        }
      }
      memory.failure = null;
      core.show(connecting(current.flow, walletId));
      follow(
        walletId,
        withActions((a) =>
          // Core's retry connects its last wallet; if the actions never loaded, connect this one.
          client.store.getState().externalWallets.connection.walletId === walletId
            ? a.retryConnectWallet(client)
            : a.connectWallet(client, { walletId }),
        ),
      );
    },
    showWallets() {
      memory.run++;
      const flow = core.current()?.flow;
      if (isSignInOrConnect(flow)) core.show({ flow, screen: "wallets" });
    },
  };
}
