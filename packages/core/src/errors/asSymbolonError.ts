import { SymbolonError } from "./SymbolonError.ts";

/** Keeps our errors as they are and wraps anything else, so UI state always holds a SymbolonError. */
export function asSymbolonError(e: unknown): SymbolonError {
  return e instanceof SymbolonError ? e : new SymbolonError("unknown_error", String(e), { cause: e });
}
