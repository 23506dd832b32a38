import { describe, expect, it } from "vitest";
import { oauthErrorDetail } from "./oauthErrorDetail";

const error = (code: string, message = "") => Object.assign(new Error(message), { code });

describe("oauthErrorDetail (spec §8 OAuth screen handling)", () => {
  it.each([
    ["linked_to_another_user", "This account has already been linked to another user.", false],
    ["invalid_credentials", "Something went wrong. Try again.", true],
    [
      "oauth_user_denied",
      "Retry and check the requested permissions to finish connecting your account.",
      true,
    ],
    ["too_many_requests", "Too many requests. Please wait before trying again.", false],
    ["oauth_account_suspended", "Your Google account is suspended. Please try another login method.", false],
    ["cannot_link_more_of_type", "You cannot authorize more than one account for this user.", false],
    ["invalid_data", "Something went wrong. Please try again.", false],
    ["oauth_unexpected", "Something went wrong. Please try again.", false],
  ])("%s → %j (retryable: %s)", (code, detail, retryable) => {
    const cancelled = code === "oauth_user_denied" ? { cancelled: true } : {};
    expect(oauthErrorDetail(error(code, "refused"), "Google")).toEqual({ detail, retryable, ...cancelled });
  });

  it("a closed provider window is a cancel too, not a failure", () => {
    expect(oauthErrorDetail(error("oauth_popup_closed"), "Google")).toMatchObject({
      retryable: true,
      cancelled: true,
    });
  });

  it("our server's limit with Retry-After is retryable once the wait is over", () => {
    const limited = Object.assign(error("too_many_requests", "Too many requests"), { retryAfterSeconds: 12 });
    expect(oauthErrorDetail(limited, "Google")).toEqual({
      detail: "Too many requests. Please wait before trying again.",
      retryable: true,
      retryAfterSeconds: 12,
    });
  });

  it("names the provider when its rate limit was hit", () => {
    expect(oauthErrorDetail(error("too_many_requests", "Google rate limit reached"), "Google").detail).toBe(
      "Request limit reached for Google. Please wait a moment and try again.",
    );
  });

  it("keeps the client's own sentences: the phishing and origin checks", () => {
    const phishing = error(
      "pkce_state_code_mismatch",
      "Unexpected auth flow. This may be a phishing attempt.",
    );
    expect(oauthErrorDetail(phishing, "Google")).toEqual({
      detail: "Unexpected auth flow. This may be a phishing attempt.",
      retryable: false,
    });
    const origin = error("invalid_origin", "Origins between parent and child windows do not match.");
    expect(oauthErrorDetail(origin, "Google").detail).toBe(
      "Origins between parent and child windows do not match.",
    );
  });

  it("anything without a code is unexpected", () => {
    expect(oauthErrorDetail(new Error("boom"), "GitHub").detail).toBe(
      "Something went wrong. Please try again.",
    );
    expect(oauthErrorDetail(null, "GitHub").retryable).toBe(false);
  });
});
