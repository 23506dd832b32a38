// The external-wallet actions as `@symbolon/core` exports them: each loads the implementation (the
// `@symbolon/core/externalWallets` entry) on first call. Bundlers put a module every page can reach
// through the main entry into the initial bundle, so the main entry only holds these wrappers.
import type * as Actions from "../externalWallets.ts";
import { lazyExport } from "../utils/lazyExport.ts";

type Module = typeof Actions;
const load = (): Promise<Module> => import("../externalWallets.ts");

/** A function of the entry, loaded on first call. */
const lazy = <K extends keyof Module>(name: K): Module[K] => lazyExport(load, name);

export const connectWallet = lazy("connectWallet");
export const retryConnectWallet = lazy("retryConnectWallet");
export const disconnectWallet = lazy("disconnectWallet");
export const discoverWallets = lazy("discoverWallets");
export const fetchWalletDirectory = lazy("fetchWalletDirectory");
export const restoreWalletConnections = lazy("restoreWalletConnections");
export const handleWalletDeepLink = lazy("handleWalletDeepLink");
export const generateSiweMessage = lazy("generateSiweMessage");
export const generateSiwsMessage = lazy("generateSiwsMessage");
export const loginWithSiwe = lazy("loginWithSiwe");
export const linkWithSiwe = lazy("linkWithSiwe");
export const loginWithSiws = lazy("loginWithSiws");
export const linkWithSiws = lazy("linkWithSiws");
export const unlinkWallet = lazy("unlinkWallet");
