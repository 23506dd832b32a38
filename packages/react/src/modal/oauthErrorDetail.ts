/** What the OAuth failure screen says under 'Authentication failed', and whether it offers Retry. */
export interface OAuthErrorDetail {
  detail: string;
  retryable: boolean;
  /** Our server's rate limit: Retry is offered once this many seconds (its `Retry-After`) have passed. */
  retryAfterSeconds?: number;
  /** The person stopped the login (denied at the provider, closed its window): not a failure. */
  cancelled?: boolean;
}

/** Spec §8 "OAuth screen handling": the detail lines, word for word. */
export const OAUTH_ERROR_TEXTS = {
  linkedToAnotherUser: "This account has already been linked to another user.",
  invalidCredentials: "Something went wrong. Try again.",
  userDenied: (scope: string) => `Retry and check ${scope} to finish connecting your account.`,
  tooManyRequests: "Too many requests. Please wait before trying again.",
  providerRateLimit: (provider: string) =>
    `Request limit reached for ${provider}. Please wait a moment and try again.`,
  suspended: (provider: string) => `Your ${provider} account is suspended. Please try another login method.`,
  cannotLinkMore: "You cannot authorize more than one account for this user.",
  unexpected: "Something went wrong. Please try again.",
} as const;

/** What the user must allow for the login to work: the permissions the app asked for. */
const DENIED_SCOPE = "the requested permissions";

const fields = (error: unknown): { code: string | null; message: string; retryAfterSeconds?: number } => {
  if (typeof error !== "object" || error === null) return { code: null, message: "" };
  const { code, message, retryAfterSeconds } = error as {
    code?: unknown;
    message?: unknown;
    retryAfterSeconds?: unknown;
  };
  return {
    code: typeof code === "string" ? code : null,
    message: typeof message === "string" ? message : "",
    ...(typeof retryAfterSeconds === "number" && Number.isFinite(retryAfterSeconds) && retryAfterSeconds >= 0
      ? { retryAfterSeconds: Math.ceil(retryAfterSeconds) }
      : {}),
  };
};

/**
 * The failure screen's line for an OAuth error (spec §8). The refusals with screens of their own
 * (allowlist, user limit, unknown user, transfer) never get here. Errors the client raised with a
 * message meant for the user (the phishing check, the origin check, wallet creation) keep it.
 */
export function oauthErrorDetail(error: unknown, provider: string): OAuthErrorDetail {
  const { code, message, retryAfterSeconds } = fields(error);
  switch (code) {
    case "linked_to_another_user":
      return { detail: OAUTH_ERROR_TEXTS.linkedToAnotherUser, retryable: false };
    case "invalid_credentials":
      return { detail: OAUTH_ERROR_TEXTS.invalidCredentials, retryable: true };
    case "oauth_user_denied":
      return { detail: OAUTH_ERROR_TEXTS.userDenied(DENIED_SCOPE), retryable: true, cancelled: true };
    case "too_many_requests": {
      // "If a provider rate limit is mentioned": the server names the provider in its message.
      const providerLimit = message.toLowerCase().includes(provider.toLowerCase());
      if (providerLimit) return { detail: OAUTH_ERROR_TEXTS.providerRateLimit(provider), retryable: false };
      // Our own limit says how long to wait (Retry-After): the screen counts down, then offers Retry.
      if (retryAfterSeconds !== undefined)
        return { detail: OAUTH_ERROR_TEXTS.tooManyRequests, retryable: true, retryAfterSeconds };
      return { detail: OAUTH_ERROR_TEXTS.tooManyRequests, retryable: false };
    }
    case "oauth_account_suspended":
      return { detail: OAUTH_ERROR_TEXTS.suspended(provider), retryable: false };
    case "cannot_link_more_of_type":
      return { detail: OAUTH_ERROR_TEXTS.cannotLinkMore, retryable: false };
    case "oauth_popup_closed":
      return { detail: "The login window was closed before finishing.", retryable: true, cancelled: true };
    case "pkce_state_code_mismatch":
    case "invalid_origin":
    case "embedded_wallet_creation_error":
      return { detail: message, retryable: false };
    default:
      return { detail: OAUTH_ERROR_TEXTS.unexpected, retryable: false };
  }
}
