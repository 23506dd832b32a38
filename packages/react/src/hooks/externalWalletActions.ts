// The external-wallet actions. Hooks load this module with import() on first use, so pages that never
// touch an external wallet do not download them.
export {
  connectWallet,
  disconnectWallet,
  generateSiweMessage,
  generateSiwsMessage,
  linkWithSiwe,
  linkWithSiws,
  loginWithSiwe,
  loginWithSiws,
  setActiveWallet,
  unlinkWallet,
} from "@symbolon/core/externalWallets";
