// Types for the part of @symbolon/stack (plain .mjs, no declarations) the web app's tests use.
declare module "@symbolon/stack" {
  /** anvil (chain id 50312) with Multicall3; `funder` is anvil's unlocked dev account 0. */
  export function startChain(options?: { chainId?: number; port?: number; quiet?: boolean }): Promise<{
    rpcUrl: string;
    chainId: number;
    funder: { address: `0x${string}`; privateKey: `0x${string}` };
    stop(): Promise<void>;
  }>;
}
