import type { Client } from "../client/createClient.ts";
import type { SymbolonError } from "../errors/SymbolonError.ts";
import type { MfaListener, MfaState } from "./types.ts";

/** The verification in progress: the waiters settle when a submit succeeds or the wait ends. */
export interface MfaWait {
  attempt: number;
  readonly overallDeadline: number;
  promise: Promise<void>;
  resolve(): void;
  reject(error: SymbolonError): void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** Per-client MFA machinery that is not state the UI renders. */
export interface MfaRuntime {
  listener: MfaListener | null;
  wait: MfaWait | null;
}

const runtimes = new WeakMap<Client, MfaRuntime>();

/** The MFA machinery of `client`, created on first use. */
export function mfaRuntime(client: Client): MfaRuntime {
  let runtime = runtimes.get(client);
  if (runtime === undefined) {
    runtime = { listener: null, wait: null };
    runtimes.set(client, runtime);
  }
  return runtime;
}

/** Patches `mfaState`. */
export function setMfaState(client: Client, patch: Partial<MfaState>): void {
  client.store.setState({ mfaState: { ...client.store.getState().mfaState, ...patch } });
}
