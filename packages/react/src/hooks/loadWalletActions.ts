/** Loads the viem-backed wallet actions (a lazy chunk of their own). */
export const loadWalletActions = () => import("./walletActions");
