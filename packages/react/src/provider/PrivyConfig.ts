import type { ReactElement } from "react";

/** Colour theme of the modal; `system` follows `prefers-color-scheme`. */
export type ThemePreference = "light" | "dark" | "system";

/** A chain the host supports (viem-shaped subset). */
export interface SupportedChain {
  id: number;
  name: string;
  nativeCurrency?: { name: string; symbol: string; decimals: number };
  rpcUrls?: Record<string, { http: readonly string[] }>;
  blockExplorers?: Record<string, { name: string; url: string; apiUrl?: string }>;
}

/** The provider's `config` prop, shaped like the spec client's. */
export interface PrivyConfig {
  appearance?: {
    theme?: ThemePreference;
    /** Any CSS colour; used for buttons and focus rings. */
    accentColor?: string;
    /** Image URL or element shown at the top of the modal. */
    logo?: string | ReactElement;
  };
  loginMethods?: readonly "email"[];
  embeddedWallets?: {
    ethereum?: { createOnLogin?: "off" | "users-without-wallets" | "all-users" };
  };
  supportedChains?: readonly SupportedChain[];
  defaultChain?: SupportedChain;
}
