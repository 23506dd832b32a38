// The one import of the wasm glue (built by crates/wallet-core/scripts/build-wasm.sh), so the
// path to crates/wallet-core/pkg is written once.
export type { WalletShares } from "../../../crates/wallet-core/pkg/symbolon_wallet_core.js";
export {
  decryptShare,
  default as initWalletCore,
  Wallet,
} from "../../../crates/wallet-core/pkg/symbolon_wallet_core.js";
