import type { AppConfigResponse } from "@symbolon/core";

/** How each built-in provider is named on buttons and screens. */
const PROVIDER_NAMES: Record<string, string> = {
  google: "Google",
  twitter: "Twitter",
  twitch: "Twitch",
  discord: "Discord",
  github: "GitHub",
  spotify: "Spotify",
  instagram: "Instagram",
  tiktok: "TikTok",
  line: "LINE",
  linkedin: "LinkedIn",
  apple: "Apple",
};

/**
 * A provider's display name: the built-in ones by name, an operator's `custom:<name>` by the
 * app config's `provider_display_name` (else its name), `privy:{appId}` as "another app".
 */
export function providerName(provider: string, config?: AppConfigResponse | null): string {
  const builtIn = PROVIDER_NAMES[provider];
  if (builtIn) return builtIn;
  if (provider.startsWith("custom:")) {
    const custom = config?.custom_oauth_providers?.find((p) => p.provider === provider);
    return custom?.provider_display_name ?? provider.slice("custom:".length);
  }
  if (provider.startsWith("privy:")) return "another app";
  return provider;
}
