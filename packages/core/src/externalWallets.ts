/**
 * `@symbolon/core/externalWallets`: every external-wallet action, for lazy loading (`import()`), plus
 * the ones only page-load and headless code needs (restore, deep links, the active wallet), which stay
 * out of the main entry so they never land in an app's initial bundle. Types and the actions the modal
 * needs are also exported from `@symbolon/core`.
 */
export {
  connectWallet,
  disconnectWallet,
  retryConnectWallet,
} from "./externalWallets/connectWallet.ts";
export { discoverWallets } from "./externalWallets/discoverWallets.ts";
export { DEFAULT_WALLET_EXPLORER_URL, fetchWalletDirectory } from "./externalWallets/fetchWalletDirectory.ts";
export { buildWalletDeepLink, handleWalletDeepLink } from "./externalWallets/handleWalletDeepLink.ts";
export { walletConnectProjectId } from "./externalWallets/projectId.ts";
export { restoreWalletConnections } from "./externalWallets/restoreWalletConnections.ts";
export { setActiveWallet } from "./externalWallets/setActiveWallet.ts";
export {
  type GenerateSiweMessageParameters,
  type GenerateSiwsMessageParameters,
  generateSiweMessage,
  generateSiwsMessage,
} from "./externalWallets/signInMessage.ts";
export {
  linkWithSiwe,
  linkWithSiws,
  loginWithSiwe,
  loginWithSiws,
  unlinkWallet,
} from "./externalWallets/siwe.ts";
