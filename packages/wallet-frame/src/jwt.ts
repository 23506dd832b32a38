/** What the frame reads from an access token, unverified (the server verifies every call). */
export interface TokenSession {
  /** `sub`: the user id, which keys the frame's storage and memory. */
  userId: string;
  /** `sid`: the session; unlocked wallets belong to one session. */
  sessionId: string | null;
  /** `exp` in unix seconds, when present. */
  expiresAt: number | null;
}

/**
 * The session claims of an access token, read without verifying it: the frame only needs
 * them to key its storage and memory and to drop unlocked keys when the session ends.
 */
export function sessionOf(token: string): TokenSession | null {
  const part = token.split(".")[1];
  if (part === undefined || part === "") return null;
  try {
    const base64 = part
      .replace(/-/g, "+")
      .replace(/_/g, "/")
      .padEnd(Math.ceil(part.length / 4) * 4, "=");
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as {
      sub?: unknown;
      sid?: unknown;
      exp?: unknown;
    } | null;
    const sub = claims?.sub;
    if (typeof sub !== "string" || sub === "") return null;
    const sid = claims?.sid;
    const exp = claims?.exp;
    return {
      userId: sub,
      sessionId: typeof sid === "string" && sid !== "" ? sid : null,
      expiresAt: typeof exp === "number" && Number.isFinite(exp) ? exp : null,
    };
  } catch {
    return null;
  }
}

/** The `sub` (user id) of an access token, unverified; see {@link sessionOf}. */
export function userIdOf(token: string): string | null {
  return sessionOf(token)?.userId ?? null;
}
