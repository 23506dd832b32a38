// Dev only (`SYMBOLON_TEST_WALLET=1 make dev`): installs the test wallets of tools/test-wallets with anvil's dev
// account 2 and a fixed Solana key, so "Continue with a wallet" works without a browser extension. main.tsx loads
// this behind `import.meta.env.DEV`, so production builds never contain it.
import { DEV_ETHEREUM_KEY, DEV_SOLANA_KEY, installTestWallets } from "@symbolon/test-wallets";

export function installDevTestWallets(env: Record<string, unknown>) {
  const chainId = Number(env.VITE_CHAIN_ID ?? 50312);
  const rpcUrl = typeof env.VITE_CHAIN_RPC_URL === "string" ? env.VITE_CHAIN_RPC_URL : undefined;
  // Starts on mainnet like a fresh browser wallet, already knowing the local chain (switching needs no prompt).
  const { ethereum, solana } = installTestWallets({
    ethereum: { privateKey: DEV_ETHEREUM_KEY, chains: [{ id: chainId, ...(rpcUrl && { rpcUrl }) }] },
    solana: { secretKey: DEV_SOLANA_KEY },
  });
  console.info(
    "[symbolon] test wallets installed: window.symbolonTestWallet (set .reject = true to refuse prompts)",
    { ethereum: ethereum && window.symbolonTestWallet?.address, solana: solana?.address },
  );
}

declare global {
  interface Window {
    symbolonTestWallet?: import("@symbolon/test-wallets").TestWalletControl;
  }
}
