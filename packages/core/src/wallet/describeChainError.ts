/**
 * Node and wallet messages ("insufficient funds for gas * price + value", "nonce too low", …) in
 * words a person understands, most specific first. Each entry: what the node says, what we show.
 */
const CHAIN_MESSAGES: ReadonlyArray<readonly [RegExp, (symbol: string) => string]> = [
  [
    /insufficient funds|insufficient balance|exceeds balance|lack of funds|funds for transfer/i,
    (symbol) => `Not enough ${symbol} to pay for this transaction and its network fee.`,
  ],
  [
    /nonce too low|nonce.*already.*used|replacement transaction underpriced|already known/i,
    () => "Another transaction from this wallet went through first. Try again.",
  ],
  [
    /max fee per gas less than block base fee|fee cap less than block base fee|underpriced/i,
    () => "The network fee went up while you were confirming. Try again.",
  ],
  [
    /intrinsic gas too low|out of gas|gas required exceeds allowance/i,
    () => "The network fee limit is too low for this transaction.",
  ],
  [
    /execution reverted|revert/i,
    () => "The transaction would fail: the contract refused it. Nothing was sent.",
  ],
  [/exceeds block gas limit/i, () => "This transaction is too large for the network."],
];

/**
 * Words a person understands for an error message from the chain (or the wallet's RPC), or null
 * when the message is not one we know. `symbol` is the chain's currency (STT, ETH…).
 */
export function describeChainError(message: string, symbol: string): string | null {
  for (const [pattern, words] of CHAIN_MESSAGES) if (pattern.test(message)) return words(symbol);
  return null;
}
