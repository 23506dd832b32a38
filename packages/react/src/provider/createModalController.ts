import {
  type Client,
  FLOW_CLEAR_DELAY_MS,
  type LoginResult,
  MODAL_OPEN_DELAY_MS,
  resetEmailFlow,
  type WalletConfirmationRequest,
} from "@symbolon/core";
import { PrivyErrorCode } from "../errors/PrivyErrorCode";

// Spec §9 timings: the modal opens MODAL_OPEN_DELAY_MS after login(); the flow is cleared
// FLOW_CLEAR_DELAY_MS after it closes.
export { FLOW_CLEAR_DELAY_MS, MODAL_OPEN_DELAY_MS };
/** How long the success screen stays before the modal closes itself. */
export const SUCCESS_CLOSE_DELAY_MS = 900;
/**
 * How long a sent code stays waiting for the person after they close the modal: reopening within
 * this time shows the code screen again instead of asking for the address (and another mail).
 */
export const PENDING_CODE_KEEP_MS = 5 * 60_000;

/**
 * The kind of flow the modal runs: the login screens, or a wallet screen (confirm a signature or
 * transaction, export the key). For login it decides which exit code closing reports (spec §4).
 */
export type FlowKind = "login" | "confirm" | "export";
/** Which screen of the email flow is shown. */
export type ModalScreen = "email" | "code" | "success";

/** State of the login modal, kept outside React. */
export interface ModalState {
  /** The modal code should be loaded (set on the first `login()`). */
  requested: boolean;
  open: boolean;
  flow: FlowKind | null;
  screen: ModalScreen;
  /** The address the code was sent to, once sent. */
  email: string | null;
  /** Set when the flow succeeded; closing then reports success. */
  result: LoginResult | null;
  /** `confirm` flow: what the user is asked to approve. */
  confirmation?: WalletConfirmationRequest | null;
  /** `export` flow: the wallet whose key the export frame shows. */
  exportAddress?: string | null;
  /**
   * When a new code may be asked for `email` again (epoch ms): the resend wait. Kept across a
   * close and reopen so reopening does not skip it.
   */
  resendWait?: { email: string; until: number } | null;
}

/** What closing the modal reports to `useLogin` listeners. */
export type ModalOutcome = { type: "complete"; result: LoginResult } | { type: "error"; code: string };

/** Opens, steps and closes the login modal; framework-free so it is testable with fake timers. */
export interface ModalController {
  getState(): ModalState;
  subscribe(listener: () => void): () => void;
  /** Listen for the outcome reported when the modal closes. */
  onOutcome(listener: (outcome: ModalOutcome) => void): () => void;
  /** Open the login flow; ignored with a warning when already signed in (spec §5). */
  login(): void;
  /** The code was sent to `email`: show the code screen. */
  codeSent(email: string): void;
  /** A new code may not be asked for `email` before `seconds` have passed (resend wait). */
  waitBeforeResend(email: string, seconds: number): void;
  /** Back from the code screen to the email screen (the address stays filled in). */
  changeEmail(): void;
  /** The code was accepted: show success, then close. */
  succeed(result: LoginResult): void;
  /**
   * Close the modal. Login reports success or the user-exit code; an open confirmation counts as
   * refused (the wallet action fails with 4001).
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
  destroy(): void;
}

const EXIT_CODES: Record<"login", string> = { login: PrivyErrorCode.USER_EXITED_AUTH_FLOW };

const CLEARED = {
  flow: null,
  screen: "email",
  email: null,
  result: null,
  confirmation: null,
  exportAddress: null,
} as const;

/** Creates the modal controller for one client. */
export function createModalController(client: Client): ModalController {
  let state: ModalState = { requested: false, open: false, ...CLEARED, resendWait: null };
  const listeners = new Set<() => void>();
  const outcomeListeners = new Set<(outcome: ModalOutcome) => void>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  // The answer of the confirmation on screen, and the tail of the confirmations waiting their turn.
  let answer: ((approved: boolean) => void) | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  // The address a code was last sent to and when, so a reopen soon after a close resumes the flow.
  let pending: { email: string; at: number } | null = null;

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

  const controller: ModalController = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onOutcome(listener) {
      outcomeListeners.add(listener);
      return () => outcomeListeners.delete(listener);
    },
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
      if (state.open) return;
      // Start loading the modal chunk now so it is there when the open delay ends.
      set({ requested: true });
      later(MODAL_OPEN_DELAY_MS, () => {
        const resume = pending !== null && Date.now() - pending.at < PENDING_CODE_KEEP_MS ? pending : null;
        set({
          ...CLEARED,
          open: true,
          flow: "login",
          ...(resume && { screen: "code", email: resume.email }),
        });
      });
    },
    codeSent(email) {
      pending = { email, at: Date.now() };
      set({ screen: "code", email });
    },
    waitBeforeResend: (email, seconds) => set({ resendWait: { email, until: Date.now() + seconds * 1000 } }),
    changeEmail() {
      pending = null;
      set({ screen: "email" });
    },
    succeed(result) {
      pending = null;
      set({ screen: "success", result });
      later(SUCCESS_CLOSE_DELAY_MS, () => controller.close());
    },
    close() {
      if (!state.open || state.flow === null) return;
      const flow = state.flow;
      if (flow === "confirm") {
        controller.resolveConfirmation(false);
        return;
      }
      set({ open: false });
      if (flow === "login") {
        const outcome: ModalOutcome = state.result
          ? { type: "complete", result: state.result }
          : { type: "error", code: EXIT_CODES.login };
        for (const listener of outcomeListeners) listener(outcome);
      }
      later(FLOW_CLEAR_DELAY_MS, () => {
        if (state.open) return;
        set(CLEARED);
        if (flow === "login") resetEmailFlow(client);
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
      if (state.open) return;
      set({ requested: true });
      later(MODAL_OPEN_DELAY_MS, () =>
        set({ ...CLEARED, open: true, flow: "export", exportAddress: address }),
      );
    },
    destroy() {
      answer?.(false);
      answer = null;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      listeners.clear();
      outcomeListeners.clear();
    },
  };
  return controller;
}
