// Spec §3 `walletClientType`: the names the server stores for known wallets; unknown EIP-6963 wallets
// get a name derived from their rdns so two unknown wallets never share one.

const BY_RDNS: Record<string, string> = {
  "io.metamask": "metamask",
  "io.metamask.flask": "metamask",
  "io.rabby": "rabby_wallet",
  "com.coinbase.wallet": "coinbase_wallet",
  "app.phantom": "phantom",
  "me.rainbow": "rainbow",
  "com.trustwallet.app": "trust",
  "com.okex.wallet": "okx_wallet",
  "com.brave.wallet": "brave_wallet",
  "io.zerion.wallet": "zerion",
  "com.exodus.web3-wallet": "exodus",
  "app.backpack": "backpack",
  "com.solflare": "solflare",
  "dev.symbolon.testwallet": "symbolon_test_wallet",
};

const BY_NAME: Record<string, string> = {
  metamask: "metamask",
  rabby: "rabby_wallet",
  "rabby wallet": "rabby_wallet",
  "coinbase wallet": "coinbase_wallet",
  phantom: "phantom",
  solflare: "solflare",
  backpack: "backpack",
  rainbow: "rainbow",
  "symbolon test wallet": "symbolon_test_wallet",
  "symbolon test solana wallet": "symbolon_test_solana_wallet",
};

/** The `walletClientType` of an EIP-6963 wallet (`rdns`) or a named wallet. */
export function walletClientTypeOf(wallet: { rdns?: string; name: string }): string {
  if (wallet.rdns) {
    const known = BY_RDNS[wallet.rdns.toLowerCase()];
    if (known) return known;
  }
  const named = BY_NAME[wallet.name.trim().toLowerCase()];
  if (named) return named;
  if (wallet.rdns) return wallet.rdns.toLowerCase().replace(/[^a-z0-9]+/g, "_");
  return (
    wallet.name
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_") || "unknown"
  );
}

/** The `walletClientType` of a legacy `window.ethereum` by its flags (several wallets set isMetaMask too). */
export function injectedClientType(provider: Record<string, unknown>): { type: string; name: string } {
  if (provider.isRabby) return { type: "rabby_wallet", name: "Rabby Wallet" };
  if (provider.isCoinbaseWallet) return { type: "coinbase_wallet", name: "Coinbase Wallet" };
  if (provider.isPhantom) return { type: "phantom", name: "Phantom" };
  if (provider.isBraveWallet) return { type: "brave_wallet", name: "Brave Wallet" };
  if (provider.isMetaMask) return { type: "metamask", name: "MetaMask" };
  return { type: "unknown", name: "Browser wallet" };
}
