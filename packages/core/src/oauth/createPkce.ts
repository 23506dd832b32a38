import { OAUTH_RANDOM_BYTES } from "../generated/protocol.ts";

/** A state code and a PKCE pair for one OAuth flow (spec §9: 36 random bytes each, S256). */
export interface Pkce {
  stateCode: string;
  codeVerifier: string;
  codeChallenge: string;
}

/** Base64url without padding (RFC 4648 §5), as RFC 7636 wants for the verifier and challenge. */
export function base64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** RFC 7636 §4.2: `BASE64URL(SHA256(ASCII(code_verifier)))`, through Web Crypto. */
export async function s256Challenge(codeVerifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(codeVerifier));
  return base64Url(new Uint8Array(digest));
}

/** Fresh random state and verifier (CSPRNG) and the verifier's S256 challenge. */
export async function createPkce(): Promise<Pkce> {
  const random = () => base64Url(crypto.getRandomValues(new Uint8Array(OAUTH_RANDOM_BYTES)));
  const stateCode = random();
  const codeVerifier = random();
  return { stateCode, codeVerifier, codeChallenge: await s256Challenge(codeVerifier) };
}
