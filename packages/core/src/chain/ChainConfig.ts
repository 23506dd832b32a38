/** A chain the client can use: where its RPC is and what its native currency is. */
export interface ChainConfig {
  id: number;
  name: string;
  /** JSON-RPC endpoint; only the host's core talks to it (nonce, fees, balances, sending). */
  rpcUrl: string;
  nativeCurrency: { name: string; symbol: string; decimals: number };
  blockExplorerUrl?: string;
}
