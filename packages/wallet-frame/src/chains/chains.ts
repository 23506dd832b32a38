// The chains the frame signs for. A new chain (Solana) is one module beside `ethereum.ts` and one
// entry here; requests name a chain by `chainType` or by their entropy's `entropyIdVerifier`.
import type { ChainSigner } from "./ChainSigner.ts";
import { ethereum } from "./ethereum.ts";

/** Every supported chain by `chainType`. */
export const CHAINS: ReadonlyMap<string, ChainSigner> = new Map([[ethereum.chainType, ethereum]]);

/** The chain a request's absent `chainType` means (the published protocol's default). */
export const DEFAULT_CHAIN = ethereum;
