import { formatUser, type OAuthTokensGrant } from "@symbolon/core";
import { useEffect, useRef } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";

/** Provider tokens as the spec client hands them to `onOAuthTokenGrant`. */
export interface OAuthTokens {
  provider: string;
  accessToken: string;
  accessTokenExpiresInSeconds: number | null;
  refreshToken: string | null;
  refreshTokenExpiresInSeconds: number | null;
  scopes: string[] | null;
}

/** Options of {@link useOAuthTokens}. */
export interface UseOAuthTokensOptions {
  /** Runs after each OAuth login that returned the provider's tokens (spec §3 `oauth_tokens`). */
  onOAuthTokenGrant?: (params: { oAuthTokens: OAuthTokens; user: ReturnType<typeof formatUser> }) => void;
}

function toClientForm(grant: OAuthTokensGrant): OAuthTokens {
  return {
    provider: grant.provider,
    accessToken: grant.access_token,
    accessTokenExpiresInSeconds: grant.access_token_expires_in_seconds,
    refreshToken: grant.refresh_token,
    refreshTokenExpiresInSeconds: grant.refresh_token_expires_in_seconds,
    scopes: grant.scopes,
  };
}

/**
 * Hands the provider's tokens to the app after each OAuth login that returned them (spec client
 * `useOAuthTokens`). The tokens live in memory only and are forgotten on logout.
 */
export function useOAuthTokens(options: UseOAuthTokensOptions = {}): Record<string, never> {
  const { client } = usePrivyContext("useOAuthTokens");
  const callbacks = useRef(options);
  callbacks.current = options;
  useEffect(
    () =>
      client?.store.subscribe((state, previous) => {
        if (state.oauthTokens === previous.oauthTokens || state.user === null) return;
        for (const [provider, grant] of Object.entries(state.oauthTokens)) {
          if (previous.oauthTokens[provider] === grant) continue;
          callbacks.current.onOAuthTokenGrant?.({
            oAuthTokens: toClientForm(grant),
            user: formatUser(state.user),
          });
        }
      }),
    [client],
  );
  return {};
}
