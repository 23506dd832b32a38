/** Spec §2: the query parameters an OAuth return carries. */
export const OAUTH_RETURN_PARAMS = [
  "privy_oauth_code",
  "privy_oauth_state",
  "privy_oauth_provider",
  "privy_oauth_error",
] as const;

/** What the address of an OAuth return said. */
export interface OAuthReturnParams {
  code: string | null;
  state: string | null;
  provider: string | null;
  /** The provider's error (e.g. `access_denied`) instead of a code. */
  error: string | null;
}

/** This page's address without the OAuth return parameters (what the provider sends back to). */
export function returnAddress(href = window.location.href): string {
  const url = new URL(href);
  for (const name of OAUTH_RETURN_PARAMS) url.searchParams.delete(name);
  return url.toString();
}

/**
 * Reads the `privy_oauth_*` parameters of this page's address and removes them from it
 * (`history.replaceState`, so a reload or a shared link does not replay them). Null when the page
 * is no OAuth return.
 */
export function readOAuthReturn(): OAuthReturnParams | null {
  if (typeof window === "undefined") return null;
  const params = new URL(window.location.href).searchParams;
  const read = (name: string) => params.get(name);
  const found: OAuthReturnParams = {
    code: read("privy_oauth_code"),
    state: read("privy_oauth_state"),
    provider: read("privy_oauth_provider"),
    error: read("privy_oauth_error"),
  };
  if (found.code === null && found.error === null) return null;
  window.history.replaceState(window.history.state, "", returnAddress());
  return found;
}
