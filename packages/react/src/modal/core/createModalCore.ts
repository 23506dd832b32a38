import { FLOW_CLEAR_DELAY_MS, MODAL_OPEN_DELAY_MS } from "@symbolon/core";
import type { ModalScreen } from "./ModalScreen";

/** No flow on the modal (before the first one, and once a closed one is cleared). */
export interface NoScreen {
  flow: null;
  screen: null;
}

/** The modal, kept outside React: whether it is open, and the screen of the flow on it. */
export type ModalState = ModalLayer & (ModalScreen | NoScreen);

/** What the modal shows whatever the flow. */
export interface ModalLayer {
  /** The modal's code should load (set by the first request to open it). */
  requested: boolean;
  open: boolean;
  /** MFA verification is shown over the screen (spec §4); alone, it is the `mfa` flow. */
  verifying: boolean;
}

/** One opening of a flow: its first screen, and how it settles whoever asked for it. */
export interface FlowSession {
  screen: ModalScreen;
  /** Opens with the MFA verification over the screen. */
  verifying?: boolean;
  /** The modal closed on this flow: settle the caller (its outcome, its promise). */
  closed?: () => void;
  /**
   * The closed flow's screen went (FLOW_CLEAR_DELAY_MS after closing, unless another flow opened):
   * reset what the flow left in core's store.
   */
  cleared?: () => void;
}

/**
 * What a request to open does while another flow is open or opening: `ignore` drops it (a second
 * `login()`), `wait` opens it once that flow has closed (queued confirmations, MFA enrolment).
 */
export type WhenBusy = "ignore" | "wait";

/** Opens and closes the modal's flows; framework-free so it is testable with fake timers. */
export interface ModalCore {
  getState(): ModalState;
  /** The screen on the modal, without the layer flags (also while closing). */
  current(): ModalScreen | null;
  subscribe(listener: () => void): () => void;
  /**
   * Opens a flow MODAL_OPEN_DELAY_MS from now (spec §9), loading the modal's code at once. `start`
   * runs when the flow opens and returns null when it no longer wants to. False when dropped.
   */
  open(start: () => FlowSession | null, whenBusy?: WhenBusy): boolean;
  /** The open flow moves to `screen`; ignored once closed. */
  show(screen: ModalScreen): void;
  /** Shows or hides the MFA verification over the screen. */
  setVerifying(verifying: boolean): void;
  /** Closes the flow on screen: it settles its caller, then the close listeners run. */
  close(): void;
  /** Runs `listener` after every close, whatever the flow. */
  onClose(listener: () => void): () => void;
  /** Runs `run` after `ms`, unless the core is destroyed first. */
  later(ms: number, run: () => void): void;
  /** Runs `cleanup` when the core is destroyed. */
  onDestroy(cleanup: () => void): void;
  destroy(): void;
}

const NO_SCREEN: NoScreen = { flow: null, screen: null };

/** Creates the modal core: open, close, each flow's outcome, and the queue of flows waiting their turn. */
export function createModalCore(): ModalCore {
  let state: ModalState = { requested: false, open: false, verifying: false, ...NO_SCREEN };
  let screen: ModalScreen | null = null;
  let session: FlowSession | null = null;
  let opening = false;
  const waiting: Array<() => FlowSession | null> = [];
  const listeners = new Set<() => void>();
  const closeListeners = new Set<() => void>();
  const cleanups: Array<() => void> = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();

  const set = (next: ModalState) => {
    state = next;
    for (const listener of listeners) listener();
  };
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };
  const openNextWaiting = () => {
    const start = waiting.shift();
    if (start) open(start, "wait");
  };
  const open = (start: () => FlowSession | null, whenBusy: WhenBusy = "ignore") => {
    if (state.open || opening) {
      if (whenBusy === "wait") waiting.push(start);
      return whenBusy === "wait";
    }
    opening = true;
    // Start loading the modal chunk now so it is there when the open delay ends.
    if (!state.requested) set({ ...state, requested: true });
    later(MODAL_OPEN_DELAY_MS, () => {
      opening = false;
      const next = start();
      if (next === null) {
        openNextWaiting();
        return;
      }
      session = next;
      screen = next.screen;
      set({ requested: true, open: true, verifying: next.verifying ?? false, ...next.screen });
    });
    return true;
  };

  return {
    getState: () => state,
    current: () => screen,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    open,
    show(next) {
      if (!state.open) return;
      screen = next;
      set({ requested: state.requested, open: true, verifying: state.verifying, ...next });
    },
    setVerifying(verifying) {
      set({ ...state, verifying });
    },
    close() {
      if (!state.open || session === null) return;
      const closing = session;
      session = null;
      set({ ...state, open: false });
      closing.closed?.();
      for (const listener of closeListeners) listener();
      later(FLOW_CLEAR_DELAY_MS, () => {
        if (state.open) return;
        screen = null;
        set({ requested: state.requested, open: false, verifying: false, ...NO_SCREEN });
        closing.cleared?.();
      });
      openNextWaiting();
    },
    onClose(listener) {
      closeListeners.add(listener);
      return () => closeListeners.delete(listener);
    },
    later,
    onDestroy(cleanup) {
      cleanups.push(cleanup);
    },
    destroy() {
      for (const cleanup of cleanups) cleanup();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      waiting.length = 0;
      listeners.clear();
      closeListeners.clear();
    },
  };
}
