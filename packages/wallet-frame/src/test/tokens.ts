// Access tokens shaped like the server's (the frame only decodes `sub`; the server verifies).

const base64url = (text: string) => Buffer.from(text).toString("base64url");

export function accessToken(sub: string): string {
  return `${base64url('{"alg":"ES256","typ":"JWT"}')}.${base64url(JSON.stringify({ sub, aud: "app" }))}.c2ln`;
}
