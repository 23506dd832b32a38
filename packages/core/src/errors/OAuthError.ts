import { SymbolonError, type SymbolonErrorOptions } from "./SymbolonError.ts";

/** Why an OAuth flow failed in the browser (server refusals stay `ApiError`s). */
export type OAuthErrorCode =
  /** Google refuses embedded webviews (spec §8). */
  | "in_app_browser"
  /** The popup was closed before it answered. */
  | "oauth_popup_closed"
  /** The popup could not be opened and the page could not be redirected. */
  | "oauth_popup_blocked"
  /** A popup message came from another origin (spec §5). */
  | "invalid_origin"
  /** The provider says the user refused (`access_denied`). */
  | "oauth_user_denied"
  /** Any other provider error. */
  | "oauth_unexpected";

/** Spec §8: the in-app-browser message. */
export const IN_APP_BROWSER_MESSAGE =
  "It looks like you're using an in-app browser. To log in, please try again using an external browser.";
/** Spec §5: a popup message from another origin. */
export const ORIGIN_MISMATCH_MESSAGE = "Origins between parent and child windows do not match.";

/** An OAuth flow failed in the browser: a stable `code` and a readable message. */
export class OAuthError extends SymbolonError {
  override code: OAuthErrorCode;

  constructor(code: OAuthErrorCode, message: string, options: SymbolonErrorOptions = {}) {
    super(code, message, options);
    this.name = "OAuthError";
    this.code = code;
  }
}

/** Whether `e` is an {@link OAuthError}. */
export function isOAuthError(e: unknown): e is OAuthError {
  return e instanceof OAuthError;
}
