import { OAuthError } from "../errors/OAuthError.ts";

/**
 * The error of a `privy_oauth_error` the provider sent back: `access_denied` (RFC 6749 §4.1.2.1)
 * is the user refusing; anything else is unexpected.
 */
export function providerError(error: string): OAuthError {
  if (error === "access_denied") return new OAuthError("oauth_user_denied", "The request was denied.");
  return new OAuthError("oauth_unexpected", `The provider answered with an error: ${error}`);
}
