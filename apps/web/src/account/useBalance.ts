import { useCallback, useEffect, useRef, useState } from "react";
import { errorMessage } from "./errorMessage";
import type { RpcRequest } from "./waitForReceipt";

/** How often the balance refreshes while the page is visible. */
export const BALANCE_REFRESH_MS = 10_000;

/** What {@link useBalance} returns. */
export interface BalanceState {
  /** In wei; null until the first answer. */
  balance: bigint | null;
  error: string | null;
  refresh: () => void;
}

/**
 * The native balance of `address`, read now, every 10 s while the page is visible, when the tab or
 * window gets focus back, and on `refresh()`.
 */
export function useBalance(request: RpcRequest, address: string): BalanceState {
  const [balance, setBalance] = useState<bigint | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Answers can overtake each other; only the latest request may set the balance.
  const latest = useRef(0);

  const refresh = useCallback(() => {
    const ticket = ++latest.current;
    request("eth_getBalance", [address, "latest"]).then(
      (hex) => {
        if (ticket !== latest.current) return;
        setBalance(BigInt(String(hex)));
        setError(null);
      },
      (failure: unknown) => {
        if (ticket === latest.current) setError(errorMessage(failure));
      },
    );
  }, [request, address]);

  useEffect(() => {
    refresh();
    const visible = () => document.visibilityState !== "hidden";
    const timer = setInterval(() => visible() && refresh(), BALANCE_REFRESH_MS);
    const onVisibility = () => visible() && refresh();
    document.addEventListener("visibilitychange", onVisibility);
    // Coming back to the window (another app was in front) refreshes too.
    window.addEventListener("focus", refresh);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("focus", refresh);
      latest.current++;
    };
  }, [refresh]);

  return { balance, error, refresh };
}
