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
    /** Image URL or element shown at the top of the modal, beside the app's name. */
    logo?: string | ReactElement;
    /** Title of the first login screen (default "Log in or sign up"). */
    landingHeader?: string;
    /** Line under that title (default "Enter your email to continue to {app name}."). */
    loginMessage?: string;
  };
  loginMethods?: readonly ("email" | "sms")[];
  /** Sign-in with the host's own JWT: the provider keeps the session in step with it (spec §4 custom token sync). */
  customAuth?: CustomAuthConfig;
  embeddedWallets?: {
    /** When to create the user's embedded Ethereum wallet on login (default: off). */
    ethereum?: { createOnLogin?: "off" | "users-without-wallets" | "all-users" };
    /** False signs and sends without the confirmation screen (headless); default true. */
    showWalletUIs?: boolean;
  };
  /** Chains the wallet may use; each needs `rpcUrls.default.http[0]`. */
  supportedChains?: readonly SupportedChain[];
  /** The chain the wallet starts on; one of `supportedChains` (default: the first). */
  defaultChain?: SupportedChain;
  /** WalletConnect Cloud project id (spec §3); default: the app config's. */
  walletConnectCloudProjectId?: string;
  /** External wallets: where WalletConnect and its wallet directory live (defaults: the public ones). */
  externalWallets?: {
    walletConnect?: { relayUrl?: string; verify?: boolean };
    /** Wallet directory host of spec §7 (`GET {host}/v3/wallets`). */
    explorerUrl?: string;
  };
  /** MFA (spec §3 `mfa`): `noPromptOnMfaRequired` keeps the modal's MFA screen shut (use `useRegisterMfaListener`). */
  mfa?: { noPromptOnMfaRequired?: boolean };
  /** Passkeys (spec §3 `passkeys`): unlinking and MFA unenrolment go together unless turned off (defaults true). */
  passkeys?: { shouldUnenrollMfaOnUnlink?: boolean; shouldUnlinkOnUnenrollMfa?: boolean };
}

/** `config.customAuth` of the provider (spec §3 app config `customAuth`). */
export interface CustomAuthConfig {
  /** Default true when `getCustomAccessToken` is given. */
  enabled?: boolean;
  /** The host's JWT, or undefined when its user is signed out. */
  getCustomAccessToken: () => Promise<string | null | undefined>;
  /** True while the host is still finding out whether its user is signed in. */
  isLoading: boolean;
}
