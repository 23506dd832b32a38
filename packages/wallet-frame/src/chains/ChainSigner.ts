import type { ChainType, EntropyIdVerifier } from "../../../core/src/generated/protocol.ts";
import type { RpcRequest } from "../rpc.ts";
import type { Wallet, WalletShares } from "../walletCore.ts";
import type { Signer } from "../wallets.ts";

/**
 * What the frame knows of one chain: how the protocol names its entropy, its addresses, the
 * shares and proofs the server takes, and the RPC methods it signs. One module per chain
 * (`ethereum.ts`), listed once in `CHAINS`; the rest of the frame reaches a chain only through it.
 */
export interface ChainSigner {
  chainType: ChainType;
  /** The `entropyIdVerifier` naming this chain's entropies (by the address of index 0). */
  entropyIdVerifier: EntropyIdVerifier;
  /** Whether `text` is an address of this chain (what an `entropyId` must be). */
  isAddress(text: string): boolean;
  /** The one form of an address that its other spellings share (comparisons, map keys). */
  addressKey(address: string): string;
  /** The address of HD index `index` of `wallet`. */
  address(wallet: Wallet, index: number): string;
  /** Fresh shares; the device share encrypted under `deviceKey`, bound to index 0 and the user. */
  split(wallet: Wallet, deviceKey: Uint8Array, userId: string): WalletShares;
  /** The signature of index `index` over a proof message the server checks (docs/wallet.md). */
  signProof(wallet: Wallet, index: number, message: string): string;
  /** The RPC methods `signRpc` takes; others are refused before anything is unlocked. */
  methods: ReadonlySet<string>;
  /** Signs `request` (one of `methods`) with the signer's key. */
  signRpc(signer: Signer, request: RpcRequest): string;
  /** The private key of HD index `index` (the export page only; never posted to the host). */
  exportPrivateKey(wallet: Wallet, index: number): string;
}
