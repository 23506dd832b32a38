/**
 * The `sub` (user id) of an access token, read without verifying it: the frame only needs it
 * to key its storage and memory; the server verifies the token on every call it takes.
 */
export function userIdOf(token: string): string | null {
  const part = token.split(".")[1];
  if (part === undefined || part === "") return null;
  try {
    const base64 = part
      .replace(/-/g, "+")
      .replace(/_/g, "/")
      .padEnd(Math.ceil(part.length / 4) * 4, "=");
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
    const sub = (claims as { sub?: unknown } | null)?.sub;
    return typeof sub === "string" && sub !== "" ? sub : null;
  } catch {
    return null;
  }
}
