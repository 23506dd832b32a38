import { FARCASTER_POLL_MS, FARCASTER_TIMEOUT_MS } from "../generated/protocol.ts";
import { FARCASTER_TIMED_OUT_DETAIL, FarcasterError } from "./FarcasterError.ts";

/** Timing of a Farcaster poll (spec §9: every 2 s, for at most 300 s). */
export interface FarcasterPollOptions {
  /** Default FARCASTER_POLL_MS. */
  intervalMs?: number;
  /** Default FARCASTER_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Stops the poll (it rejects with the signal's reason). */
  signal?: AbortSignal;
}

/**
 * Calls `check` every `intervalMs` until it returns a value (not null); past `timeoutMs` it fails
 * with 'Connect failed' / 'The request timed out. Try again.'. A failing check fails the poll.
 */
export async function pollFarcaster<T>(
  check: () => Promise<T | null>,
  options: FarcasterPollOptions = {},
): Promise<T> {
  const intervalMs = options.intervalMs ?? FARCASTER_POLL_MS;
  const timeoutMs = options.timeoutMs ?? FARCASTER_TIMEOUT_MS;
  const { signal } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    signal?.throwIfAborted();
    const value = await check();
    if (value !== null) return value;
    if (Date.now() + intervalMs > deadline)
      throw new FarcasterError("farcaster_timeout", FARCASTER_TIMED_OUT_DETAIL);
    await wait(intervalMs, signal);
  }
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
