import type { Client, ConnectedExternalWallet, LoginResult } from "@symbolon/core";
import { PrivyErrorCode } from "../../errors/PrivyErrorCode";
import type { ModalCore } from "../core/createModalCore";
import { defineFlow, loginModalScreens } from "../core/defineFlow";
import { ACCOUNT_FLOW, type AccountFlow, isSignedIn } from "./createAccountFlow";
import type { SignInFlowKind } from "./signInTypes";

/** The flows that connect a wallet without signing in with it: `connect`, and connect-or-create's wallet. */
export type WalletFlowKind = "connect" | "connect-or-create";
/** The flows that show the wallet list. */
export type WalletListFlowKind = SignInFlowKind | "connect";

/** A wallet screen's attempt: `walletPending` while its actions load, `loadError` when they could not. */
export interface WalletAttempt {
  /** The `WalletOption.id` chosen. */
  walletId: string;
  /**
   * The connection or signature is starting (its actions are loading): the store's `externalWallets`
   * slices still describe the previous attempt, so the screen shows it as under way.
   */
  walletPending: boolean;
  /** The wallet code could not load ('Unable to connect to wallet.'). */
  loadError: string | null;
}

/**
 * The wallet screens (spec §4 wallet connection and SIWE flow): the external wallets to pick from,
 * connecting one (waiting, switching chain, WalletConnect QR code, failure), and Sign-In With
 * Ethereum / Solana with the connected address (or its failure).
 */
export type WalletScreenState =
  | { flow: WalletListFlowKind; screen: "wallets" }
  | ({ flow: WalletListFlowKind; screen: "wallet-connect" } & WalletAttempt)
  | ({ flow: SignInFlowKind; screen: "wallet-sign"; walletAddress: string } & WalletAttempt);

/**
 * What closing a `connect` or `connect-or-create` flow reports: the connected wallet (connect-or-create
 * through another method: the login result, no wallet), or the spec §8 code (GENERIC_CONNECT_WALLET_ERROR
 * when closed without one, UNKNOWN_CONNECT_WALLET_ERROR after an unexplained failure, USER_EXITED_AUTH_FLOW
 * for connect-or-create).
 */
export type WalletOutcome =
  | {
      type: "complete";
      flow: WalletFlowKind;
      wallet: ConnectedExternalWallet | null;
      result: LoginResult | null;
    }
  | { type: "error"; flow: WalletFlowKind; code: string };

/** The modal's external-wallet flows. */
export interface WalletFlow {
  /** Open the link flow for an external wallet (the wallet list, then SIWE/SIWS); needs a signed-in user. */
  openLinkWallet(): void;
  /** Open the wallet list to connect a wallet without signing in with it (`connectWallet()`). */
  openConnectWallet(): void;
  /**
   * Open the connect-or-create flow (spec §4): the login screen, where a wallet only connects (no SIWE)
   * and the other methods log in (creating the embedded wallet as configured). Needs a signed-out user.
   */
  openConnectOrCreate(): void;
  /** Listen for what closing a `connect` / `connect-or-create` flow reports. */
  onWalletOutcome(listener: (outcome: WalletOutcome) => void): () => void;
  memory: WalletMemory;
}

/** What the wallet screens' steps leave for the outcome; forgotten when the modal closes. */
export interface WalletMemory {
  /** The wallet a connect flow connected. */
  connected: ConnectedExternalWallet | null;
  /** The last connection failure. */
  failure: unknown;
  /** Counts attempts, so the answers of superseded connections and signatures are ignored. */
  run: number;
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

/** Creates the wallet flows over one modal core; their screens' steps are `createWalletActions`. */
export function createWalletFlow(core: ModalCore, client: Client, account: AccountFlow): WalletFlow {
  const listeners = new Set<(outcome: WalletOutcome) => void>();
  const memory: WalletMemory = { connected: null, failure: null, run: 0 };
  core.onDestroy(() => listeners.clear());
  // Answers of a connection or signature under way are ignored once the modal closed.
  core.onClose(() => {
    memory.run++;
    memory.connected = null;
    memory.failure = null;
  });

  const report = (flow: WalletFlowKind, result: LoginResult | null) => {
    const { connected, failure } = memory;
    const outcome: WalletOutcome =
      connected || result
        ? { type: "complete", flow, wallet: connected, result }
        : { type: "error", flow, code: walletExitCode(flow, failure) };
    for (const listener of listeners) listener(outcome);
  };

  return {
    openLinkWallet() {
      if (!isSignedIn(client)) return;
      account.open({ flow: "link", first: () => ({ flow: "link", screen: "wallets" }) });
    },
    openConnectWallet() {
      core.open(() => ({
        screen: { flow: "connect", screen: "wallets" },
        closed: () => report("connect", null),
      }));
    },
    openConnectOrCreate() {
      const { ready, authenticated, user } = client.store.getState();
      // Spec §5: connect-or-create requires being unauthenticated (a guest counts as logged out).
      if (!ready || (authenticated && !user?.is_guest)) {
        console.warn("connectOrCreateWallet() needs a signed-out user; ignored.");
        return;
      }
      account.open({
        flow: "connect-or-create",
        first: () => ({ flow: "connect-or-create", screen: "methods", email: null, phoneNumber: null }),
        closed: (result) => report("connect-or-create", result),
      });
    },
    onWalletOutcome(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    memory,
  };
}

export const WALLET_FLOW = defineFlow({
  create: ({ core, client, use }) => createWalletFlow(core, client, use(ACCOUNT_FLOW)),
  exposes: ["openLinkWallet", "openConnectWallet", "openConnectOrCreate", "onWalletOutcome"],
  screens: loginModalScreens<WalletScreenState>(() => import("./walletScreens")),
});
