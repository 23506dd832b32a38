/** Loads the external-wallet actions (a lazy chunk of their own). */
export const loadExternalWallets = () => import("./externalWalletActions");
