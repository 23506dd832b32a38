import { ClientError } from "../errors/ClientError.ts";
import {
  type ClientErrorCode,
  IFRAME_OPERATION_TIMEOUT_MS,
  IFRAME_READY_POLL_MS,
} from "../generated/protocol.ts";
import { randomUuid } from "../utils/randomUuid.ts";
import type { FrameHost, FrameMessage, FrameWindow, MountedFrame } from "./FrameHost.ts";
import type { FrameAnswer, FrameEvent } from "./types.ts";

/** How to reach one wallet frame page. */
export interface FrameConnectionOptions {
  host: FrameHost;
  /** The frame page's full URL; its origin is the only one answers are accepted from. */
  src: string;
  title: string;
  visible: boolean;
  container?: HTMLElement;
  /** Default: IFRAME_OPERATION_TIMEOUT_MS (spec §9: 15 s). */
  readyTimeoutMs?: number;
  /** Default: IFRAME_READY_POLL_MS (spec §9: 150 ms). */
  pollMs?: number;
  /**
   * A message the frame sends on its own (no id): its `event` name. Same checks as answers: the
   * frame's origin and window only. The export page says `privy:export:escape` when Escape is
   * pressed inside it (keys typed in a frame never reach the host page).
   */
  onEvent?: (event: string) => void;
}

/** Options of one frame request. */
export interface FrameRequestOptions {
  /** Default: IFRAME_OPERATION_TIMEOUT_MS. */
  timeoutMs?: number;
}

/** A request/answer channel to one iframe, mounted on first use. */
export interface FrameConnection {
  /** Mounts the frame if needed and resolves once it answered `privy:iframe:ready`. */
  ready(): Promise<void>;
  /** Whether the frame answered ready (and was not torn down since). */
  isReady(): boolean;
  request<T>(event: FrameEvent, data: unknown, options?: FrameRequestOptions): Promise<T>;
  /** Removes the frame and fails every request in flight. */
  destroy(): void;
}

interface Pending {
  resolve(data: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/** Spec §8: what a frame that never gets ready (or fails to load) fails with. */
export const FRAME_NOT_READY_MESSAGE = "Wallet proxy not initialized.";

const notReady = () => new ClientError("embedded_wallet_request_error", FRAME_NOT_READY_MESSAGE);

/**
 * Talks to a wallet frame over postMessage (docs/wallet.md): polls `privy:iframe:ready` until the
 * frame answers, then matches answers to requests by id. Only messages from the frame's own origin
 * and window count, so another frame or the page itself cannot forge an answer.
 */
export function createFrameConnection(options: FrameConnectionOptions): FrameConnection {
  const origin = new URL(options.src).origin;
  const readyTimeoutMs = options.readyTimeoutMs ?? IFRAME_OPERATION_TIMEOUT_MS;
  const pollMs = options.pollMs ?? IFRAME_READY_POLL_MS;
  const pending = new Map<string, Pending>();
  const readyIds = new Set<string>();
  let frame: MountedFrame | null = null;
  let unlisten: (() => void) | null = null;
  let readiness: Promise<void> | null = null;
  let settleReadiness: ((error: Error | null, log: boolean) => void) | null = null;
  let isReady = false;
  let destroyed = false;

  const teardown = () => {
    unlisten?.();
    unlisten = null;
    frame?.remove();
    frame = null;
    readiness = null;
    isReady = false;
  };

  const onMessage = (message: FrameMessage) => {
    if (frame === null || message.origin !== origin) return;
    if (message.source == null || message.source !== frame.contentWindow) return;
    const answer = message.data as (Partial<FrameAnswer> & { event?: unknown }) | null;
    if (typeof answer !== "object" || answer === null) return;
    if (answer.id === undefined && typeof answer.event === "string") {
      options.onEvent?.(answer.event);
      return;
    }
    if (typeof answer.id !== "string") return;
    if (readyIds.has(answer.id)) {
      settleReadiness?.(null, false);
      return;
    }
    const waiting = pending.get(answer.id);
    if (!waiting) return;
    pending.delete(answer.id);
    clearTimeout(waiting.timer);
    if (answer.error !== undefined && answer.error !== null) waiting.reject(toClientError(answer.error));
    else waiting.resolve(answer.data);
  };

  const ready = (): Promise<void> => {
    if (destroyed) return Promise.reject(notReady());
    readiness ??= new Promise<void>((resolve, reject) => {
      let poll: ReturnType<typeof setInterval> | undefined;
      let deadline: ReturnType<typeof setTimeout> | undefined;
      settleReadiness = (error, log) => {
        clearInterval(poll);
        clearTimeout(deadline);
        settleReadiness = null;
        readyIds.clear();
        if (error === null) {
          isReady = true;
          resolve();
          return;
        }
        // Spec §8: a wallet frame load failure is logged. The next request mounts a fresh frame.
        if (log) console.error(`Symbolon: the wallet frame at ${options.src} did not get ready.`, error);
        teardown();
        reject(error);
      };
      unlisten = options.host.listen(onMessage);
      frame = options.host.mount(options.src, {
        title: options.title,
        visible: options.visible,
        ...(options.container ? { container: options.container } : {}),
        onError: () => settleReadiness?.(notReady(), true),
      });
      const ping = () => {
        const target = frame?.contentWindow;
        if (!target || stillBlank(target)) return;
        const id = randomUuid();
        readyIds.add(id);
        target.postMessage({ id, event: "privy:iframe:ready", data: {} }, origin);
      };
      poll = setInterval(ping, pollMs);
      deadline = setTimeout(() => settleReadiness?.(notReady(), true), readyTimeoutMs);
      ping();
    });
    return readiness;
  };

  const request = async <T>(event: FrameEvent, data: unknown, requestOptions: FrameRequestOptions = {}) => {
    await ready();
    const timeoutMs = requestOptions.timeoutMs ?? IFRAME_OPERATION_TIMEOUT_MS;
    return new Promise<T>((resolve, reject) => {
      const target = frame?.contentWindow;
      if (!target) {
        reject(notReady());
        return;
      }
      const id = randomUuid();
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(
          new ClientError(
            "embedded_wallet_request_error",
            `The wallet did not answer ${event} within ${timeoutMs / 1000} s.`,
          ),
        );
      }, timeoutMs);
      pending.set(id, { resolve: resolve as (data: unknown) => void, reject, timer });
      target.postMessage({ id, event, data }, origin);
    });
  };

  return {
    ready,
    isReady: () => isReady,
    request,
    destroy() {
      destroyed = true;
      settleReadiness?.(notReady(), false);
      for (const waiting of pending.values()) {
        clearTimeout(waiting.timer);
        waiting.reject(notReady());
      }
      pending.clear();
      teardown();
    },
  };
}

function toClientError(error: unknown): ClientError {
  const { type, message, retryAfterSeconds } = (error ?? {}) as {
    type?: unknown;
    message?: unknown;
    retryAfterSeconds?: unknown;
  };
  const code = (typeof type === "string" ? type : "embedded_wallet_request_error") as ClientErrorCode;
  const wait =
    typeof retryAfterSeconds === "number" && Number.isFinite(retryAfterSeconds) && retryAfterSeconds >= 0
      ? { retryAfterSeconds: Math.ceil(retryAfterSeconds) }
      : {};
  return new ClientError(code, typeof message === "string" ? message : undefined, wait);
}

/**
 * True while the iframe still holds its first, same-origin `about:blank` document: a message posted
 * to the wallet origin then is dropped with a console error, so polling waits for the navigation.
 * Once the frame shows the wallet origin, reading its location throws.
 */
function stillBlank(target: FrameWindow): boolean {
  try {
    return target.location?.href === "about:blank";
  } catch {
    return false;
  }
}
