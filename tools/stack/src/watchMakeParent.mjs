// `make dev` and Ctrl-C sent to make alone (`kill -INT <make pid>`, an IDE's stop button): GNU make
// forwards SIGTERM to its recipe but not SIGINT/SIGHUP/SIGQUIT, and then waits for the recipe
// forever, so the stack would never stop. While make runs its fatal-signal handler the signal is
// blocked in make's mask; this watches for that (Linux /proc) and for make going away.
import { readFileSync } from "node:fs";

/** SIGHUP, SIGINT, SIGQUIT, SIGTERM as bits of a /proc signal mask (bit n-1 for signal n). */
const STOP_SIGNALS = (1n << 0n) | (1n << 1n) | (1n << 2n) | (1n << 14n);
const POLL_MS = 250;

/**
 * Calls `onStop(reason)` once when the parent `make` is handling a stop signal or has exited. Does
 * nothing when the parent is not make or /proc is not there (the signal then reaches us directly).
 * Returns a function that stops watching.
 */
export function watchMakeParent(onStop) {
  const parent = process.ppid;
  const status = () => {
    try {
      return readFileSync(`/proc/${parent}/status`, "utf8");
    } catch {
      return null;
    }
  };
  const first = status();
  if (first === null || !/^Name:\s*g?make$/m.test(first)) return () => {};
  const timer = setInterval(() => {
    const now = process.ppid === parent ? status() : null;
    const blocked = now?.match(/^SigBlk:\s*([0-9a-f]+)$/m)?.[1];
    if (now === null) {
      clearInterval(timer);
      onStop("make exited");
    } else if (blocked && (BigInt(`0x${blocked}`) & STOP_SIGNALS) !== 0n) {
      clearInterval(timer);
      onStop("make was told to stop");
    }
  }, POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** Whether this process runs as a make recipe (its parent is make): `make dev`. */
export function underMake() {
  try {
    return /^Name:\s*g?make$/m.test(readFileSync(`/proc/${process.ppid}/status`, "utf8"));
  } catch {
    return false;
  }
}
