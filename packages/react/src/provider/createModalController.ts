import {
  type Client,
  FLOW_CLEAR_DELAY_MS,
  type LoginResult,
  MODAL_OPEN_DELAY_MS,
  resetEmailFlow,
} from "@symbolon/core";
import { PrivyErrorCode } from "../errors/PrivyErrorCode";

// Spec §9 timings: the modal opens MODAL_OPEN_DELAY_MS after login(); the flow is cleared
// FLOW_CLEAR_DELAY_MS after it closes.
export { FLOW_CLEAR_DELAY_MS, MODAL_OPEN_DELAY_MS };
/** How long the success screen stays before the modal closes itself. */
export const SUCCESS_CLOSE_DELAY_MS = 900;

/** The kind of flow the modal runs; decides which exit code closing reports (spec §4). */
export type FlowKind = "login";
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
  /** The code was accepted: show success, then close. */
  succeed(result: LoginResult): void;
  /** Close the modal, reporting success or the user-exit code of the flow kind. */
  close(): void;
  destroy(): void;
}

const EXIT_CODES: Record<FlowKind, string> = { login: PrivyErrorCode.USER_EXITED_AUTH_FLOW };

const CLEARED = { flow: null, screen: "email", email: null, result: null } as const;

/** Creates the modal controller for one client. */
export function createModalController(client: Client): ModalController {
  let state: ModalState = { requested: false, open: false, ...CLEARED };
  const listeners = new Set<() => void>();
  const outcomeListeners = new Set<(outcome: ModalOutcome) => void>();
  const timers = new Set<ReturnType<typeof setTimeout>>();

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
      later(MODAL_OPEN_DELAY_MS, () => set({ ...CLEARED, open: true, flow: "login" }));
    },
    codeSent: (email) => set({ screen: "code", email }),
    succeed(result) {
      set({ screen: "success", result });
      later(SUCCESS_CLOSE_DELAY_MS, () => controller.close());
    },
    close() {
      if (!state.open || state.flow === null) return;
      const outcome: ModalOutcome = state.result
        ? { type: "complete", result: state.result }
        : { type: "error", code: EXIT_CODES[state.flow] };
      set({ open: false });
      for (const listener of outcomeListeners) listener(outcome);
      later(FLOW_CLEAR_DELAY_MS, () => {
        if (state.open) return;
        set(CLEARED);
        resetEmailFlow(client);
      });
    },
    destroy() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      listeners.clear();
      outcomeListeners.clear();
    },
  };
  return controller;
}
