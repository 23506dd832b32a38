/** Called after every change with the new and the previous state. */
export type Listener<T> = (state: T, previous: T) => void;

/** A tiny external store (usable with React's `useSyncExternalStore`). */
export interface Store<T> {
  getState(): T;
  /** Shallow-merges `partial` into the state and notifies listeners when something changed. */
  setState(partial: Partial<T>): void;
  /** Returns a function that unsubscribes. */
  subscribe(listener: Listener<T>): () => void;
}

/** Creates a {@link Store} holding `initial`. */
export function createStore<T extends object>(initial: T): Store<T> {
  let state = initial;
  const listeners = new Set<Listener<T>>();
  return {
    getState: () => state,
    setState(partial) {
      const changed = Object.entries(partial).some(([k, v]) => !Object.is(state[k as keyof T], v));
      if (!changed) return;
      const previous = state;
      state = { ...state, ...partial };
      for (const listener of listeners) listener(state, previous);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
