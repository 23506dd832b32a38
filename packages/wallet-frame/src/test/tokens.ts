// Access tokens shaped like the server's (the frame only decodes `sub`; the server verifies).

const base64url = (text: string) => Buffer.from(text).toString("base64url");

export function accessToken(sub: string, claims: { sid?: string; exp?: number } = {}): string {
  const payload = { sub, aud: "app", sid: "session-1", exp: Math.floor(Date.now() / 1000) + 3600, ...claims };
  return `${base64url('{"alg":"ES256","typ":"JWT"}')}.${base64url(JSON.stringify(payload))}.c2ln`;
}
