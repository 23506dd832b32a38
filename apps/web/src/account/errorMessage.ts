import { describeChainError, describeWalletError, isProviderRpcError, SymbolonError } from "@symbolon/core";

/** The currency of the app's chain (spec §9), for the messages about funds. */
const SYMBOL = "STT";

/**
 * The words to show for a failed wallet call: the chain's own errors ("insufficient funds for gas *
 * price + value", "nonce too low"…) and the client's in a person's words (core's
 * describeWalletError); any other error's own message (the app's reads of the chain).
 */
export function errorMessage(error: unknown): string {
  if (isProviderRpcError(error) || error instanceof SymbolonError) {
    return describeWalletError(error, { symbol: SYMBOL });
  }
  if (error instanceof Error && error.message)
    return describeChainError(error.message, SYMBOL) ?? error.message;
  return "Something went wrong. Please try again.";
}
