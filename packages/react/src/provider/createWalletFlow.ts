import {
  type Client,
  type ConnectedExternalWallet,
  type LoginResult,
  UNABLE_TO_CONNECT_MESSAGE,
  type User,
} from "@symbolon/core";
import { PrivyErrorCode } from "../errors/PrivyErrorCode";
import type { FlowKind, ModalState, WalletFlowKind, WalletOutcome } from "./createModalController";

// The external-wallet actions (connect, SIWE/SIWS) load on the first wallet chosen: a lazy chunk, so
// the provider's initial bundle stays without them (and viem).
const loadWalletActions = () => import("@symbolon/core/externalWallets");
type WalletActions = Awaited<ReturnType<typeof loadWalletActions>>;

/** The flows that connect a wallet without signing in with it. */
export const isWalletFlow = (flow: FlowKind | null): flow is WalletFlowKind =>
  flow === "connect" || flow === "connect-or-create";

/** What the wallet screens need of the modal controller. */
export interface WalletFlowHost {
  client: Client;
  getState(): ModalState;
  set(patch: Partial<ModalState>): void;
  /** A connect flow connected its wallet: show success, then close. */
  connected(address: string): void;
  /** The SIWE/SIWS login went through (terms and success follow, like every login). */
  succeed(result: LoginResult): void;
  /** The SIWE/SIWS link went through. */
  accountSaved(user: User): void;
  /** Routes a refusal with a screen of its own (allowlist, linked to another user, …). */
  refuse(error: unknown): boolean;
}

/** The modal's external-wallet steps (spec §4 wallet connection and SIWE flow), for the controller. */
export interface WalletFlow {
  /** Wallet list: connect the wallet `walletId`, then (login, link) sign in with it. */
  choose(walletId: string): void;
  /** "Try again": connect again (core `retryConnectWallet`), or ask for the signature again. */
  retry(): void;
  /** Back to the wallet list; what is under way is ignored from now on. */
  showList(): void;
  onOutcome(listener: (outcome: WalletOutcome) => void): () => void;
  /**
   * The modal closed on `flow`: a connect flow reports its wallet (or `result`, connect-or-create through
   * another method) or its spec §8 code; answers still under way are ignored from now on.
   */
  closed(flow: FlowKind | null, result: LoginResult | null): void;
  destroy(): void;
}

/**
 * Spec §8 callback code of a wallet flow closed without a wallet: UNKNOWN_CONNECT_WALLET_ERROR after a
 * failure the wallet gave no code for, GENERIC_CONNECT_WALLET_ERROR after any other (or none, for
 * `connect`); connect-or-create is a login, so a plain close is USER_EXITED_AUTH_FLOW.
 */
function walletExitCode(flow: WalletFlowKind, failure: unknown): string {
  if (failure !== null) {
    const { code, rpcCode } = failure as { code?: unknown; rpcCode?: unknown };
    return code === "generic_connect_wallet_error" && rpcCode == null
      ? PrivyErrorCode.UNKNOWN_CONNECT_WALLET_ERROR
      : PrivyErrorCode.GENERIC_CONNECT_WALLET_ERROR;
  }
  return flow === "connect-or-create"
    ? PrivyErrorCode.USER_EXITED_AUTH_FLOW
    : PrivyErrorCode.GENERIC_CONNECT_WALLET_ERROR;
}

/** Creates the wallet steps of one modal controller. */
export function createWalletFlow(host: WalletFlowHost): WalletFlow {
  const { client, set } = host;
  const listeners = new Set<(outcome: WalletOutcome) => void>();
  // This opening: the wallet a connect flow connected, the last connection failure, and a counter that
  // makes the answers of superseded connections and signatures be ignored.
  let connectedWallet: ConnectedExternalWallet | null = null;
  let failure: unknown = null;
  let run = 0;

  /**
   * Runs `start` with the wallet actions once loaded; `walletPending` covers the load. When their chunk
   * cannot load, the wallet screen shows 'Unable to connect to wallet.' (in `methodError`) with Try again.
   */
  const withActions = <T>(start: (actions: WalletActions) => Promise<T>): Promise<T> =>
    loadWalletActions().then(
      (actions) => {
        const running = start(actions);
        // The action set its state synchronously: the store now describes this attempt.
        set({ walletPending: false });
        return running;
      },
      (error: unknown) => {
        set({ walletPending: false, methodError: UNABLE_TO_CONNECT_MESSAGE });
        throw error;
      },
    );

  /** Signs in (login) or links (link) with the connected `wallet`: SIWE for Ethereum, SIWS for Solana. */
  const signWith = (wallet: ConnectedExternalWallet) => {
    const mine = ++run;
    const current = () => host.getState().open && mine === run;
    const params = { address: wallet.address };
    const solana = wallet.chainType === "solana";
    const link = host.getState().flow === "link";
    set({
      screen: "wallet-sign",
      walletAddress: wallet.address,
      refusal: null,
      walletPending: true,
      methodError: null,
    });
    withActions((a) =>
      link
        ? (solana ? a.linkWithSiws : a.linkWithSiwe)(client, params).then(({ user }) => {
            if (current()) host.accountSaved(user);
          })
        : (solana ? a.loginWithSiws : a.loginWithSiwe)(client, params).then((result) => {
            if (current()) host.succeed(result);
          }),
    ).catch((error: unknown) => {
      // Refusals with a screen of their own go there; the rest stay on the signing screen, which
      // shows `externalWallets.siwe.error` with Try again.
      if (current()) host.refuse(error);
    });
  };

  /** Follows a wallet connection: connect flows end there; login and link go on to the signature. */
  const follow = (connecting: Promise<ConnectedExternalWallet>) => {
    const mine = ++run;
    connecting.then(
      (wallet) => {
        const state = host.getState();
        if (!state.open || mine !== run) return;
        if (isWalletFlow(state.flow)) {
          connectedWallet = wallet;
          host.connected(wallet.address);
        } else signWith(wallet);
      },
      // The connecting screen shows `externalWallets.connection.error` with Try again.
      (error: unknown) => {
        if (mine === run) failure = error;
      },
    );
  };

  return {
    choose(walletId) {
      failure = null;
      set({
        screen: "wallet-connect",
        walletId,
        walletAddress: null,
        refusal: null,
        walletPending: true,
        methodError: null,
      });
      follow(withActions((a) => a.connectWallet(client, { walletId })));
    },
    retry() {
      const { screen, walletAddress, walletId } = host.getState();
      const wallet = client.store
        .getState()
        .externalWallets.connected.find((w) => walletAddress != null && w.address === walletAddress);
      if (screen === "wallet-sign" && wallet) {
        signWith(wallet);
        return;
      }
      failure = null;
      set({ screen: "wallet-connect", walletAddress: null, walletPending: true, methodError: null });
      follow(
        withActions((a) =>
          // Core's retry connects its last wallet; if the actions never loaded, connect this one.
          !walletId || client.store.getState().externalWallets.connection.walletId === walletId
            ? a.retryConnectWallet(client)
            : a.connectWallet(client, { walletId }),
        ),
      );
    },
    showList() {
      run++;
      set({ screen: "wallets", walletId: null, walletAddress: null, refusal: null });
    },
    onOutcome(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    closed(flow, result) {
      if (isWalletFlow(flow)) {
        const outcome: WalletOutcome =
          connectedWallet || result
            ? { type: "complete", flow, wallet: connectedWallet, result }
            : { type: "error", flow, code: walletExitCode(flow, failure) };
        for (const listener of listeners) listener(outcome);
      }
      run++;
      connectedWallet = null;
      failure = null;
    },
    destroy() {
      listeners.clear();
    },
  };
}
