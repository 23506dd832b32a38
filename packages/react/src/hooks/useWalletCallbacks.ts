import { useRef } from "react";

/** Callbacks of the wallet action hooks. */
export interface WalletActionCallbacks<T> {
  onSuccess?: (result: T) => void;
  /** The error the action threw (a ClientError, or a ProviderRpcError with an EIP-1193 code). */
  onError?: (error: Error) => void;
}

/**
 * Keeps the latest callbacks and wraps an action: `onSuccess` with its result, or `onError` and a rethrow,
 * so callers can use either the callbacks or the returned promise.
 */
export function useWalletCallbacks<T>(options: WalletActionCallbacks<T>) {
  const callbacks = useRef(options);
  callbacks.current = options;
  const run = useRef(async (action: () => Promise<T>): Promise<T> => {
    try {
      const result = await action();
      callbacks.current.onSuccess?.(result);
      return result;
    } catch (error) {
      callbacks.current.onError?.(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
  });
  return run.current;
}
