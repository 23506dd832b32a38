import {
  type Client,
  type ConnectedExternalWallet,
  cancelOAuth,
  closeMfaModal,
  type FarcasterSignerResponse,
  FLOW_CLEAR_DELAY_MS,
  handleOAuthReturn,
  isOAuthError,
  type LoginResult,
  linkOAuth,
  loginWithOAuth,
  logout,
  type MfaState,
  MODAL_OPEN_DELAY_MS,
  resetEmailFlow,
  resetOAuthFlow,
  resetPasskeyFlow,
  resetSmsFlow,
  type User,
  type WalletConfirmationRequest,
} from "@symbolon/core";
import { PrivyErrorCode } from "../errors/PrivyErrorCode";
import { createWalletFlow } from "./createWalletFlow";
import { type Refusal, toRefusal } from "./toRefusal";

export type { Refusal, RefusalCode, TransferOffer } from "./toRefusal";

// Spec §9 timings: the modal opens MODAL_OPEN_DELAY_MS after login(); the flow is cleared
// FLOW_CLEAR_DELAY_MS after it closes.
export { FLOW_CLEAR_DELAY_MS, MODAL_OPEN_DELAY_MS };

/** How long the success screen stays before the modal closes itself. */
export const SUCCESS_CLOSE_DELAY_MS = 900;
/** Spec §4 "after OAuth success, each step after a short delay": how long "Successfully connected" stays. */
export const OAUTH_STEP_DELAY_MS = 1200;
/**
 * How long a sent code stays waiting for the person after they close the modal: reopening within
 * this time shows the code screen again instead of asking for the address (and another message).
 */
export const PENDING_CODE_KEEP_MS = 5 * 60_000;

/**
 * The kind of flow the modal runs: log in, link an account, update one, connect-or-create (spec §4
 * flow kind), connect an external wallet without signing in (`connect`), or a wallet screen (confirm a
 * signature or transaction, export the key). For login, link and update it decides which exit code
 * closing reports; `connect` and `connect-or-create` report through `onWalletOutcome`.
 */
export type FlowKind =
  | "login"
  | "link"
  | "update"
  | "connect"
  | "connect-or-create"
  | "confirm"
  | "export"
  | "signer"
  | "mfa"
  | "mfa-enroll"
  | "passkeys";
/** The flows that report through `onWalletOutcome`. */
export type WalletFlowKind = "connect" | "connect-or-create";
/** The flows whose closing reports an outcome. */
export type AccountFlowKind = "login" | "link" | "update";
/** Which account a link or update flow is about. */
export type AccountKind = "email" | "phone";
/** Where a code went: an email or a text message. */
export type CodeChannel = "email" | "sms";
/** A login method of the login screen: a code channel, or one that signs in on its own screen. */
export type MethodChoice = CodeChannel | "telegram" | "farcaster" | "wallet" | "passkey";
/**
 * Which screen is shown: `methods` (the login screen listing the app's methods), `more` (the
 * overflow methods), `email` / `phone` (an address or number to send a code to), `code`,
 * `success`, `refusal` (the server refused the login or link), `transfer` (the account belongs to
 * another user and can be moved), `terms` (the app's terms must be accepted first), `oauth` (an
 * OAuth provider's connection status, spec §2), `in-app-browser` (the provider refuses this browser),
 * `telegram` / `farcaster` (that method's sign-in is under way), `wallets` (the external wallets
 * to pick from), `wallet-connect` (connecting one: waiting, switching chain, WalletConnect QR code,
 * failure), `wallet-sign` (Sign-In With Ethereum / Solana under way, or its failure), `passkey` (log in or
 * sign up with a passkey), `mfa-enroll` (MFA enrolment, spec §2), `passkeys` (passkey management). MFA
 * verification is not a screen but a layer over any of them (`verifying`).
 */
export type ModalScreen =
  | "methods"
  | "more"
  | "email"
  | "phone"
  | "code"
  | "success"
  | "refusal"
  | "transfer"
  | "terms"
  | "oauth"
  | "in-app-browser"
  | "telegram"
  | "farcaster"
  | "farcaster-signer"
  | "wallets"
  | "wallet-connect"
  | "wallet-sign"
  | "passkey"
  | "mfa-enroll"
  | "passkeys";

/** State of the modal, kept outside React. */
export interface ModalState {
  /** The modal code should be loaded (set on the first `login()`). */
  requested: boolean;
  open: boolean;
  flow: FlowKind | null;
  screen: ModalScreen;
  /** Link and update flows: which account (email or phone). */
  kind?: AccountKind | null;
  /** Where the code was sent, once sent. */
  channel?: CodeChannel | null;
  /** The address the code was sent to, once sent. */
  email: string | null;
  /** The number (E.164) the code was sent to, once sent. */
  phoneNumber?: string | null;
  /** The screen "Change email" / "Change number" goes back to. */
  entry?: ModalScreen | null;
  /** Set when the flow succeeded; closing then reports success. */
  result: LoginResult | null;
  /** `refusal` and `transfer` screens: what the server refused and why. */
  refusal?: Refusal | null;
  /** `confirm` flow: what the user is asked to approve. */
  confirmation?: WalletConfirmationRequest | null;
  /** `oauth` and `in-app-browser` screens: the provider (`google`, `custom:<name>`, …). */
  provider?: string | null;
  /** `farcaster-signer` flow: the Ed25519 key to have approved. */
  signerPublicKey?: string | null;
  /**
   * `telegram` / `farcaster` screens: why the sign-in failed (the screen offers a retry); wallet screens:
   * the wallet code could not load.
   */
  methodError?: string | null;
  /** `wallet-connect` / `wallet-sign` screens: the `WalletOption.id` chosen. */
  walletId?: string | null;
  /** `wallet-sign` screen: the connected address that signs. */
  walletAddress?: string | null;
  /**
   * A wallet connection or signature is starting (its actions are loading): the store's
   * `externalWallets` slices still describe the previous attempt, so the screens show it as under way.
   */
  walletPending?: boolean;
  /** `export` flow: the wallet whose key the export frame shows. */
  exportAddress?: string | null;
  /**
   * When a new code may be asked for `to` (an address or a number) again (epoch ms): the resend
   * wait. Kept across a close and reopen so reopening does not skip it.
   */
  resendWait?: { to: string; until: number } | null;
  /**
   * MFA verification (core `mfaState.modal === "verify"`) is shown over the flow's screen, which stays
   * mounted underneath (the export frame); alone it is the `mfa` flow.
   */
  verifying?: boolean;
}

/**
 * What closing the modal reports: success (with the login result; after a link or update, the
 * user as it is now) or the user-exit code of the flow kind (spec §4, §8).
 */
export type ModalOutcome =
  | { type: "complete"; flow: AccountFlowKind; result: LoginResult; kind?: AccountKind }
  | { type: "error"; flow: AccountFlowKind; code: string; kind?: AccountKind };

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

/** Opens, steps and closes the modal; framework-free so it is testable with fake timers. */
export interface ModalController {
  getState(): ModalState;
  subscribe(listener: () => void): () => void;
  /**
   * Listen for the outcome reported when the modal closes. By default only login outcomes (what
   * `useLogin` wants); pass `"link"`, `"update"` or `"all"` for the others.
   */
  onOutcome(listener: (outcome: ModalOutcome) => void, flow?: AccountFlowKind | "all"): () => void;
  /** Listen for what closing a `connect` / `connect-or-create` flow reports. */
  onWalletOutcome(listener: (outcome: WalletOutcome) => void): () => void;
  /** Open the login flow; ignored with a warning when already signed in (spec §5). */
  login(): void;
  /** Open the link flow for an email or a phone; needs a signed-in user (spec §5). */
  openLink(kind: AccountKind): void;
  /** Open the update flow for the user's email or phone. */
  openUpdate(kind: AccountKind): void;
  /** Open the link flow for an external wallet (the wallet list, then SIWE/SIWS); needs a signed-in user. */
  openLinkWallet(): void;
  /** Open the wallet list to connect a wallet without signing in with it (`connectWallet()`). */
  openConnectWallet(): void;
  /**
   * Open the connect-or-create flow (spec §4): the login screen, where a wallet only connects (no SIWE)
   * and the other methods log in (creating the embedded wallet as configured). Needs a signed-out user.
   */
  openConnectOrCreate(): void;
  /** Wallet list: connect the wallet `walletId`, then (login, link) sign in with it. */
  chooseWallet(walletId: string): void;
  /**
   * The wallet screens' "Try again": connect again after a failed connection (core
   * `retryConnectWallet`), or ask for the signature again after a failed SIWE/SIWS.
   */
  retryWallet(): void;
  /** Back to the wallet list (from a wallet's connecting or failure screen). */
  showWallets(): void;
  /** Open the link flow for a Farcaster account (its QR code screen); needs a signed-in user. */
  openLinkFarcaster(): void;
  /**
   * A link made without the modal (Telegram) was refused: open the link flow on the refusal's
   * screen (the transfer offer, or why not). False when `error` has no screen.
   */
  offerRefusal(error: unknown): boolean;
  /**
   * Shows the Farcaster signer request (QR code or link) for `publicKey`; settles when the screen
   * does (approved, 'Request rejected', 'Connect failed') or rejects when the modal is closed.
   */
  requestFarcasterSigner(publicKey: string): Promise<FarcasterSignerResponse>;
  /** The signer screen's outcome (called by the screen). */
  settleFarcasterSigner(outcome: { signer: FarcasterSignerResponse } | { error: unknown }): void;
  /** Login screen: show the screen of one method (email, sms, telegram, farcaster, wallet). */
  chooseMethod(method: MethodChoice): void;
  /** The sign-in on the `telegram` / `farcaster` screen failed: show `message` there. */
  methodFailed(message: string): void;
  /** Login screen: show the overflow methods ("More options"). */
  showMore(): void;
  /**
   * Login screen (or a link flow): start the provider's OAuth flow now — call it within the click,
   * the popup opens synchronously — and show its status screen.
   */
  startOAuth(provider: string): void;
  /** Open the link flow for an OAuth provider and start it (within the click, like `startOAuth`). */
  openLinkOAuth(provider: string): void;
  /** The status screen's Retry: the same provider again. */
  retryOAuth(): void;
  /**
   * On page load: completes an OAuth return (core `handleOAuthReturn`); one the modal started
   * before a full-page redirect reopens the modal on its status screen.
   */
  handleOAuthReturn(): void;
  /** Back to the login screen (from "More options" or a method's entry screen). */
  back(): void;
  /** The code was sent to `to` (an address, or a number when `channel` is sms): show the code screen. */
  codeSent(to: string, channel?: CodeChannel): void;
  /** A new code may not be asked for `to` before `seconds` have passed (resend wait). */
  waitBeforeResend(to: string, seconds: number): void;
  /** Back from the code screen to where the address or number was typed (it stays filled in). */
  changeEmail(): void;
  /**
   * The code was accepted: show success, then close. A login into an app whose terms the user has
   * not accepted shows the terms screen first.
   */
  succeed(result: LoginResult): void;
  /** A link or update went through: show success, then close (reporting the user as it is now). */
  accountSaved(user: User): void;
  /** The terms were accepted (the user is now `user`): show success, then close. */
  termsAccepted(user: User): void;
  /**
   * Routes a refused login or link to its screen (allowlist, user limit, unknown user, sign-up
   * disabled, linked to another user, account transfer); false when `error` has no screen.
   */
  refuse(error: unknown): boolean;
  /**
   * Close the modal. Login, link and update report success or the user-exit code; an open
   * confirmation counts as refused (the wallet action fails with 4001). Closing the terms screen
   * logs the new session out (the terms were not accepted).
   */
  close(): void;
  /**
   * Shows the confirmation screen for a wallet action (core's confirmation handler); resolves true
   * when the user approves. Requests made while one is shown wait their turn.
   */
  confirm(request: WalletConfirmationRequest): Promise<boolean>;
  /** The confirmation screen's answer: approve (true) or refuse (false); closes the modal. */
  resolveConfirmation(approved: boolean): void;
  /** Shows the key export screen for `address`. */
  openExport(address: string): void;
  /** Open passkey management (list, add, unlink); needs a signed-in user. */
  openPasskeys(): void;
  /** Passkey management changed the user's passkeys: "Passkeys updated", then close. */
  passkeysSaved(user: User): void;
  destroy(): void;
}

const EXIT_CODES: Record<AccountFlowKind, string> = {
  login: PrivyErrorCode.USER_EXITED_AUTH_FLOW,
  link: PrivyErrorCode.USER_EXITED_LINK_FLOW,
  update: PrivyErrorCode.USER_EXITED_UPDATE_FLOW,
};

const isAccountFlow = (flow: FlowKind | null): flow is AccountFlowKind =>
  flow === "login" || flow === "link" || flow === "update";
/** Flows that log in (connect-or-create logs in through every method but a wallet). */
const isLogin = (flow: FlowKind | null) => flow === "login" || flow === "connect-or-create";

const CLEARED = {
  flow: null,
  screen: "methods",
  kind: null,
  channel: null,
  email: null,
  phoneNumber: null,
  entry: null,
  result: null,
  refusal: null,
  confirmation: null,
  methodError: null,
  signerPublicKey: null,
  exportAddress: null,
  provider: null,
  walletId: null,
  walletAddress: null,
  walletPending: false,
  verifying: false,
} as const;

/** Refusals of an OAuth login that go to their own screens (spec §8); the rest stay on the status screen. */
const OAUTH_ROUTED = new Set([
  "allowlist_rejected",
  "max_accounts_reached",
  "user_does_not_exist",
  "signup_disabled",
  "account_transfer_required",
]);

/** Creates the modal controller for one client. */
export function createModalController(client: Client): ModalController {
  let state: ModalState = { requested: false, open: false, ...CLEARED, resendWait: null };
  const listeners = new Set<() => void>();
  const outcomeListeners = new Map<(outcome: ModalOutcome) => void, AccountFlowKind | "all">();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  // The answer of the confirmation on screen, and the tail of the confirmations waiting their turn.
  let answer: ((approved: boolean) => void) | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  // Where a login code was last sent and when, so a reopen soon after a close resumes the flow.
  let pending: { to: string; channel: CodeChannel; entry: ModalScreen; at: number } | null = null;
  // A login waiting for the terms to be accepted.
  let awaitingTerms: LoginResult | null = null;
  // The caller of requestFarcasterSigner, waiting for the signer screen.
  let signerWaiter: { resolve: (s: FarcasterSignerResponse) => void; reject: (e: unknown) => void } | null =
    null;

  const set = (patch: Partial<ModalState>) => {
    state = { ...state, ...patch };
    for (const listener of listeners) listener();
  };
  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };
  const report = (outcome: ModalOutcome) => {
    for (const [listener, flow] of outcomeListeners)
      if (flow === "all" || flow === outcome.flow) listener(outcome);
  };
  const showSuccess = (result: LoginResult) => {
    set({ screen: "success", result });
    later(SUCCESS_CLOSE_DELAY_MS, () => controller.close());
  };
  /** Opens an account flow after the open delay; false when the modal is busy. */
  const open = (patch: Partial<ModalState> | (() => Partial<ModalState>)) => {
    if (state.open) return;
    // Start loading the modal chunk now so it is there when the open delay ends.
    set({ requested: true });
    later(MODAL_OPEN_DELAY_MS, () =>
      set({ ...CLEARED, open: true, ...(typeof patch === "function" ? patch() : patch) }),
    );
  };
  /** Spec §4 after OAuth success: terms if required and not accepted, else close as success. */
  const afterOAuth = (result: LoginResult) => {
    const terms = client.store.getState().appConfig?.require_users_accept_terms ?? false;
    if (isLogin(state.flow) && terms && !result.user.has_accepted_terms) {
      awaitingTerms = result;
      set({ screen: "terms", result: null });
      return;
    }
    set({ result });
    controller.close();
  };
  /** Follows an OAuth flow the modal started: the next step on success, the right screen on failure. */
  const followOAuth = (provider: string, run: Promise<LoginResult | null>) => {
    const current = () => state.open && state.screen === "oauth" && state.provider === provider;
    run.then(
      (result) => {
        // Null: the page is leaving for the provider (redirect); the return reopens the modal.
        if (result === null) return;
        later(OAUTH_STEP_DELAY_MS, () => {
          if (current()) afterOAuth(result);
        });
      },
      (error: unknown) => {
        if (isOAuthError(error) && error.code === "in_app_browser") {
          if (state.open) set({ screen: "in-app-browser", provider });
          return;
        }
        const code = (error as { code?: unknown } | null)?.code;
        if (typeof code === "string" && OAUTH_ROUTED.has(code)) {
          if (code === "max_accounts_reached") console.warn("Symbolon: the app's user limit is reached.");
          if (current()) controller.refuse(error);
        }
        // Anything else: the status screen shows the flow's error (state.oauthFlow).
      },
    );
  };
  const runOAuth = (provider: string, flow: "login" | "link") =>
    flow === "link"
      ? linkOAuth(client, { provider, ui: "modal" })
      : loginWithOAuth(client, { provider, ui: "modal" });

  const openSignedIn = (flow: "link" | "update", which: AccountKind | "farcaster") => {
    const { ready, authenticated } = client.store.getState();
    if (!ready || !authenticated) {
      // Spec §5: linking (and updating) requires authentication.
      console.warn("User must be authenticated before linking an account.");
      return;
    }
    if (which === "farcaster") {
      open({ flow, screen: "farcaster", entry: "farcaster" });
      return;
    }
    const screen = which === "email" ? "email" : "phone";
    open({ flow, kind: which, screen, entry: screen });
  };

  const wallets = createWalletFlow({
    client,
    getState: () => state,
    set,
    connected(address) {
      set({ screen: "success", walletAddress: address });
      later(SUCCESS_CLOSE_DELAY_MS, () => controller.close());
    },
    succeed: (result) => controller.succeed(result),
    accountSaved: (user) => controller.accountSaved(user),
    refuse: (error) => controller.refuse(error),
  });

  const controller: ModalController = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onOutcome(listener, flow = "login") {
      outcomeListeners.set(listener, flow);
      return () => outcomeListeners.delete(listener);
    },
    onWalletOutcome: (listener) => wallets.onOutcome(listener),
    login() {
      const { ready, authenticated, user } = client.store.getState();
      if (!ready) {
        console.warn("login() was called before the provider was ready; ignored.");
        return;
      }
      if (authenticated && !user?.is_guest) {
        console.warn("login() was called while the user is already logged in; ignored.");
        return;
      }
      open(() => {
        const resume = pending !== null && Date.now() - pending.at < PENDING_CODE_KEEP_MS ? pending : null;
        if (!resume) return { flow: "login" };
        return {
          flow: "login",
          screen: "code",
          channel: resume.channel,
          entry: resume.entry,
          ...(resume.channel === "email" ? { email: resume.to } : { phoneNumber: resume.to }),
        };
      });
    },
    openLink: (which) => openSignedIn("link", which),
    openUpdate: (which) => openSignedIn("update", which),
    openLinkFarcaster: () => openSignedIn("link", "farcaster"),
    openLinkWallet() {
      const { ready, authenticated } = client.store.getState();
      if (!ready || !authenticated) {
        console.warn("User must be authenticated before linking an account.");
        return;
      }
      open({ flow: "link", screen: "wallets", entry: "wallets" });
    },
    openConnectWallet: () => open({ flow: "connect", screen: "wallets", entry: "wallets" }),
    openConnectOrCreate() {
      const { ready, authenticated, user } = client.store.getState();
      // Spec §5: connect-or-create requires being unauthenticated (a guest counts as logged out).
      if (!ready || (authenticated && !user?.is_guest)) {
        console.warn("connectOrCreateWallet() needs a signed-out user; ignored.");
        return;
      }
      open({ flow: "connect-or-create" });
    },
    chooseWallet(walletId) {
      pending = null;
      wallets.choose(walletId);
    },
    retryWallet: () => wallets.retry(),
    showWallets: () => wallets.showList(),
    offerRefusal(error) {
      const refusal = toRefusal(error);
      if (refusal === null || state.open) return false;
      const screen = refusal.code === "account_transfer_required" ? "transfer" : "refusal";
      open({ flow: "link", screen, refusal });
      return true;
    },
    requestFarcasterSigner(publicKey) {
      if (state.open) return Promise.reject(new Error("The modal is busy with another flow."));
      signerWaiter?.reject(new Error("Superseded by another signer request."));
      const waiting = new Promise<FarcasterSignerResponse>((resolve, reject) => {
        signerWaiter = { resolve, reject };
      });
      open({ flow: "signer", screen: "farcaster-signer", signerPublicKey: publicKey });
      return waiting;
    },
    startOAuth(provider) {
      const flow = state.flow === "link" ? "link" : "login";
      pending = null;
      set({ screen: "oauth", provider, refusal: null });
      followOAuth(provider, runOAuth(provider, flow));
    },
    openLinkOAuth(provider) {
      const { ready, authenticated } = client.store.getState();
      if (!ready || !authenticated) {
        console.warn("User must be authenticated before linking an account.");
        return;
      }
      // Started before the modal opens: the popup must open within the click.
      const run = runOAuth(provider, "link");
      open({ flow: "link", screen: "oauth", provider });
      followOAuth(provider, run);
    },
    retryOAuth() {
      if (state.provider) controller.startOAuth(state.provider);
    },
    handleOAuthReturn() {
      const run = handleOAuthReturn(client);
      const { status, ui, intent, provider } = client.store.getState().oauthFlow;
      if (status !== "loading" || ui !== "modal" || provider === null) {
        // Not the modal's flow: headless hooks read the outcome from `state.oauthFlow`.
        run.catch(() => {});
        return;
      }
      open({ flow: intent === "link" ? "link" : "login", screen: "oauth", provider });
      followOAuth(
        provider,
        run.then((outcome) => (outcome.type === "completed" ? outcome.result : null)),
      );
    },
    settleFarcasterSigner(outcome) {
      const waiter = signerWaiter;
      signerWaiter = null;
      if ("signer" in outcome) {
        waiter?.resolve(outcome.signer);
        set({ screen: "success" });
        later(SUCCESS_CLOSE_DELAY_MS, () => controller.close());
      } else waiter?.reject(outcome.error);
    },
    chooseMethod(method) {
      const screen =
        method === "email" ? "email" : method === "sms" ? "phone" : method === "wallet" ? "wallets" : method;
      set({ screen, entry: screen, methodError: null });
    },
    methodFailed: (message) => set({ methodError: message }),
    showMore: () => set({ screen: "more" }),
    back: () => set({ screen: "methods", entry: null, refusal: null }),
    codeSent(to, channel = "email") {
      const entry = state.entry ?? "methods";
      if (state.flow === "login") pending = { to, channel, entry, at: Date.now() };
      set({
        screen: "code",
        channel,
        entry,
        ...(channel === "email" ? { email: to } : { phoneNumber: to }),
      });
    },
    waitBeforeResend: (to, seconds) => set({ resendWait: { to, until: Date.now() + seconds * 1000 } }),
    changeEmail() {
      pending = null;
      set({ screen: state.entry ?? "methods" });
    },
    succeed(result) {
      pending = null;
      const terms = client.store.getState().appConfig?.require_users_accept_terms ?? false;
      if (isLogin(state.flow) && terms && !result.user.has_accepted_terms) {
        // Spec §4: terms are required and not accepted: the terms screen before anything else.
        awaitingTerms = result;
        set({ screen: "terms" });
        return;
      }
      showSuccess(result);
    },
    accountSaved(user) {
      pending = null;
      showSuccess({ user, isNewUser: false, wasAlreadyAuthenticated: true });
    },
    termsAccepted(user) {
      const result = awaitingTerms ?? { user, isNewUser: false, wasAlreadyAuthenticated: false };
      awaitingTerms = null;
      showSuccess({ ...result, user });
    },
    refuse(error) {
      const refusal = toRefusal(error);
      if (refusal === null) return false;
      pending = null;
      set({ screen: refusal.code === "account_transfer_required" ? "transfer" : "refusal", refusal });
      return true;
    },
    close() {
      if (!state.open || state.flow === null) return;
      const flow = state.flow;
      if (state.verifying) {
        // Spec §4: closing before success fails the waiting operation with 'Canceled MFA verification.';
        // the screen under the verification (its operation failed) closes too.
        set({ verifying: false });
        closeMfaModal(client);
      }
      if (flow === "confirm") {
        controller.resolveConfirmation(false);
        return;
      }
      if (flow === "signer") {
        signerWaiter?.reject(new Error("The Farcaster signer request was closed."));
        signerWaiter = null;
      }
      const declinedTerms = state.screen === "terms" && awaitingTerms !== null;
      awaitingTerms = null;
      // Closed while the provider's popup is still open: the person gave up; no login follows.
      if (state.screen === "oauth" && !state.result) cancelOAuth(client);
      set({ open: false });
      // The MFA screens: core cancels a pending verification ('Canceled MFA verification.').
      if (flow === "mfa" || flow === "mfa-enroll") closeMfaModal(client);
      // Connect flows report; answers of a connection or signature under way are ignored from now on.
      wallets.closed(flow, state.result);
      if (isAccountFlow(flow)) {
        const which = state.kind ?? undefined;
        const extra = which ? { kind: which } : {};
        report(
          state.result
            ? { type: "complete", flow, result: state.result, ...extra }
            : { type: "error", flow, code: EXIT_CODES[flow], ...extra },
        );
      }
      // The terms were not accepted: the session the login made does not stay (spec §4).
      if (declinedTerms) void logout(client).catch(() => {});
      later(FLOW_CLEAR_DELAY_MS, () => {
        if (state.open) return;
        set(CLEARED);
        if (isAccountFlow(flow)) {
          resetEmailFlow(client);
          resetSmsFlow(client);
          resetOAuthFlow(client);
        }
        if (isAccountFlow(flow) || flow === "passkeys") resetPasskeyFlow(client);
      });
    },
    confirm(request) {
      const turn = queue.then(
        () =>
          new Promise<boolean>((resolve) => {
            answer = resolve;
            set({ requested: true });
            later(MODAL_OPEN_DELAY_MS, () =>
              set({ ...CLEARED, open: true, flow: "confirm", confirmation: request }),
            );
          }),
      );
      queue = turn;
      return turn;
    },
    resolveConfirmation(approved) {
      const resolve = answer;
      answer = null;
      if (state.flow === "confirm") {
        set({ open: false });
        later(FLOW_CLEAR_DELAY_MS, () => {
          if (!state.open) set(CLEARED);
        });
      }
      resolve?.(approved);
    },
    openExport(address) {
      open({ flow: "export", exportAddress: address });
    },
    openPasskeys() {
      const { ready, authenticated } = client.store.getState();
      if (!ready || !authenticated) {
        console.warn("User must be authenticated before linking an account.");
        return;
      }
      open({ flow: "passkeys", screen: "passkeys", entry: "passkeys" });
    },
    passkeysSaved: (user) => showSuccess({ user, isNewUser: false, wasAlreadyAuthenticated: true }),
    destroy() {
      stopFollowingMfa();
      answer?.(false);
      answer = null;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      listeners.clear();
      outcomeListeners.clear();
      wallets.destroy();
    },
  };
  /**
   * Spec §4 MFA: the modal shows what core's `mfaState.modal` asks for — the verification (alone, or over
   * the screen of the operation that needs it) or the enrolment — and ends the verification once core
   * says it is verified. A refused verification (max attempts, time limit) stays until closed.
   */
  const followMfa = (next: MfaState, previous: MfaState) => {
    if (next.modal === "verify" && previous.modal !== "verify") {
      if (!state.open) open({ flow: "mfa", verifying: true });
      else if (state.flow !== "mfa-enroll") set({ verifying: true });
      return;
    }
    if (next.modal === "enroll" && previous.modal !== "enroll") {
      openEnrollment();
      return;
    }
    if (!state.open || !state.verifying) return;
    const verified = next.verification.status === "verified" && previous.verification.status !== "verified";
    if (!verified && next.modal !== null) return;
    // Verified (or ended elsewhere): `modal` back to null, so the next verification opens it again.
    set({ verifying: false });
    if (next.modal !== null) closeMfaModal(client);
    if (state.flow !== "mfa") return;
    set({ open: false });
    later(FLOW_CLEAR_DELAY_MS, () => {
      if (!state.open) set(CLEARED);
    });
  };
  /** Opens the enrolment core asks for, once the flow on screen (a login's success screen) has closed. */
  const openEnrollment = () => {
    if (client.store.getState().mfaState?.modal !== "enroll" || (state.open && state.flow === "mfa-enroll"))
      return;
    if (state.open) later(FLOW_CLEAR_DELAY_MS, openEnrollment);
    else open({ flow: "mfa-enroll", screen: "mfa-enroll" });
  };
  const stopFollowingMfa = client.store.subscribe((next, previous) => {
    if (next.mfaState !== previous.mfaState && next.mfaState && previous.mfaState)
      followMfa(next.mfaState, previous.mfaState);
  });
  return controller;
}
