import { describeError } from "../errors/describeError.ts";
import { SymbolonError } from "../errors/SymbolonError.ts";
import { describeChainError } from "./describeChainError.ts";
import { isProviderRpcError, RPC_ERROR } from "./ProviderRpcError.ts";

/** Options of {@link describeWalletError}. */
export interface DescribeWalletErrorOptions {
  /** The chain's currency symbol for the messages about funds (default "ETH"). */
  symbol?: string;
}

/**
 * Words a person understands for a failed wallet call: a refusal in the confirmation, the chain's
 * own errors (insufficient funds, nonce, fees, reverts; looked for along `cause`), then the
 * client's errors ({@link describeError}). The error itself keeps the API's message and code.
 */
export function describeWalletError(e: unknown, options: DescribeWalletErrorOptions = {}): string {
  if (isProviderRpcError(e) && e.code === RPC_ERROR.userRejected) return "You cancelled the request.";
  for (let at: unknown = e, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth += 1) {
    const words = describeChainError(at.message, options.symbol ?? "ETH");
    if (words !== null) return words;
  }
  if (e instanceof SymbolonError) return describeError(e);
  // Provider errors (unknown chain, invalid parameters, an unreachable RPC) are written as sentences.
  if (isProviderRpcError(e)) return e.message;
  return describeError(e);
}
