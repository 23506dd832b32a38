import type { ClientState } from "@symbolon/core";
import { useCallback, useSyncExternalStore } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";

const noop = () => {};

/**
 * Reads a slice of the core client's state. Before the client exists (SSR, first render) it
 * returns `fallback`, so server and client markup agree. `select` must return stable values.
 */
export function useClientState<T>(hookName: string, select: (state: ClientState) => T, fallback: T): T {
  const { client } = usePrivyContext(hookName);
  const subscribe = useCallback(
    (listener: () => void) => (client ? client.store.subscribe(listener) : noop),
    [client],
  );
  return useSyncExternalStore(
    subscribe,
    () => (client ? select(client.store.getState()) : fallback),
    () => fallback,
  );
}
