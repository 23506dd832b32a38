import type { Client } from "../client/createClient.ts";
import { asSymbolonError } from "../errors/asSymbolonError.ts";
import type { SymbolonError } from "../errors/SymbolonError.ts";
import type { OAuthTokens } from "../generated/protocol.ts";
import type { LoginResult } from "../session/loginWithSession.ts";

/** Spec §4 OAuth flow status. */
export type OAuthFlowStatus = "initial" | "loading" | "done" | "error";

/** Where the OAuth flow is: its provider, whether it signs in or links, and how it ended. */
export interface OAuthFlowState {
  status: OAuthFlowStatus;
  provider: string | null;
  intent: "login" | "link" | null;
  /** Who started it (e.g. "modal"), carried over a full-page redirect. */
  ui: string | null;
  /** `done` only: the login (after a link, the user as it is now, `wasAlreadyAuthenticated`). */
  result: LoginResult | null;
  error: SymbolonError | null;
}

/** Provider tokens of the last grant per provider (spec §3 `oauth_tokens`), with when they expire. */
export interface OAuthTokensGrant extends OAuthTokens {
  /** Epoch ms after which the access token is expired, when the provider said. */
  accessTokenExpiresAt: number | null;
  /** Epoch ms of the grant (tells one grant from the next). */
  grantedAt: number;
}

/** The OAuth flow before anything happened (also after logout). */
export const initialOAuthFlow: OAuthFlowState = {
  status: "initial",
  provider: null,
  intent: null,
  ui: null,
  result: null,
  error: null,
};

/** Moves the OAuth flow (spec §4: initial → loading → done | error). */
export function setOAuthFlow(
  client: Client,
  patch: Partial<Omit<OAuthFlowState, "error">> & { error?: unknown },
): void {
  const { error, ...rest } = patch;
  const kept = error === undefined || error === null ? null : asSymbolonError(error);
  const current = client.store.getState().oauthFlow;
  client.store.setState({ oauthFlow: { ...current, result: null, ...rest, error: kept } });
}

/** Keeps provider tokens in memory only (never in storage); cleared on logout. */
export function rememberOAuthTokens(client: Client, tokens: OAuthTokens): OAuthTokensGrant {
  const now = Date.now();
  const seconds = tokens.access_token_expires_in_seconds;
  const grant: OAuthTokensGrant = {
    ...tokens,
    accessTokenExpiresAt: typeof seconds === "number" ? now + seconds * 1000 : null,
    grantedAt: now,
  };
  const all = client.store.getState().oauthTokens;
  client.store.setState({ oauthTokens: { ...all, [tokens.provider]: grant } });
  return grant;
}
