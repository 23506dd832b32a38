// The entry of the one-file browser bundle (bundle.mjs): a test's init script sets
// `window.__symbolonTestWallets = {ethereum?: {privateKey, chainId?, chains?}, solana?: {secretKey}}` first.
// Only the top page gets wallets (not the wallet frame or other iframes), as with a browser extension's provider.
import { installTestWallets, type TestWalletsConfig } from "./index.ts";

const config = (window as { __symbolonTestWallets?: TestWalletsConfig }).__symbolonTestWallets;
if (config && window.top === window) installTestWallets(config);
