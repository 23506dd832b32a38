/** The built-in OAuth providers of spec §3, in the order the spec lists their account types. */
export const OAUTH_PROVIDERS = [
  "google",
  "twitter",
  "twitch",
  "discord",
  "github",
  "spotify",
  "instagram",
  "tiktok",
  "line",
  "linkedin",
  "apple",
] as const;

/** A built-in OAuth provider. */
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

/** Whether `name` is a built-in OAuth provider. */
export function isOAuthProvider(name: string): name is OAuthProvider {
  return (OAUTH_PROVIDERS as readonly string[]).includes(name);
}

/** The linked-account type a provider's accounts have: `google_oauth`, …; `cross_app` for `privy:{appId}`. */
export function oauthAccountType(provider: string): string {
  return provider.startsWith("privy:") ? "cross_app" : `${provider}_oauth`;
}
