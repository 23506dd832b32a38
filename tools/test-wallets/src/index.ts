// Test wallets for browsers (see README.md): the tests' init script and the dev web app install them.
import { type EthereumTestWalletOptions, installEthereumTestWallet } from "./ethereum.ts";
import { installSolanaTestWallet, type SolanaTestWalletOptions } from "./solana.ts";

export { CONTROL_KEY, controlOn, type TestWalletControl } from "./control.ts";
export { ProviderRpcError, RpcErrorCode } from "./errors.ts";
export {
  createTestEthereumProvider,
  type EthereumTestWalletOptions,
  installEthereumTestWallet,
  TEST_WALLET_NAME,
  TEST_WALLET_RDNS,
  type TestEthereumProvider,
} from "./ethereum.ts";
export { DEV_ETHEREUM_KEY, DEV_ETHEREUM_KEY_2, DEV_SOLANA_KEY } from "./keys.ts";
export {
  createTestSolanaWallet,
  installSolanaTestWallet,
  SOLANA_CHAINS,
  type SolanaTestWalletOptions,
  TEST_SOLANA_WALLET_NAME,
  type TestSolanaWallet,
} from "./solana.ts";

/** What a page gets: either wallet or both. */
export interface TestWalletsConfig {
  ethereum?: EthereumTestWalletOptions;
  solana?: SolanaTestWalletOptions;
}

/** Installs the configured wallets in `target` (the page's window). */
export function installTestWallets(config: TestWalletsConfig, target: Window & typeof globalThis = window) {
  return {
    ethereum: config.ethereum ? installEthereumTestWallet(config.ethereum, target) : null,
    solana: config.solana ? installSolanaTestWallet(config.solana, target) : null,
  };
}
