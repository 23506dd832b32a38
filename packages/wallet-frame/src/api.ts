// The frame's server calls (docs/wallet.md "Server endpoints"), same-origin only: the four
// share endpoints here, the MFA ones in mfa/mfaApi.ts, both over one `post`.
import type { ChainType, KeyMaterialIntent } from "../../core/src/generated/protocol.ts";

/** The server's answer to a create or add: the user and the new linked account. */
export interface CreatedWallet {
  user: unknown;
  wallet: unknown;
}

/** The root shares released for one of the user's wallets. */
export interface KeyMaterial {
  address: string;
  wallet_index: number;
  recovery_method: string;
  auth_share: string;
  recovery_share: string | null;
  /** The key is for one operation only (transaction protection); absent from older servers. */
  single_use?: boolean;
}

/** What the key is for, and the frame's MFA token when it holds one (docs/wallet.md "MFA"). */
export interface KeyMaterialMfa {
  intent: KeyMaterialIntent;
  mfaToken: string | null;
}

export interface CreateWalletBody {
  address: string;
  wallet_index: number;
  auth_share?: string;
  recovery_share?: string;
  device_public_key?: string;
  nonce: string;
  signature: string;
  root_signature?: string;
}

/** What a challenge nonce is for (the server refuses it for anything else). */
export type ChallengePurpose = "key_material" | "create" | "replace_shares";

/** How key material is asked for: signed by this device's key, or a recovery (new device). */
export type KeyMaterialProof = { nonce: string; device_signature: string } | { recovery: true };

export interface ReplaceSharesBody {
  auth_share: string;
  recovery_share: string;
  device_public_key: string;
  nonce: string;
  signature: string;
}

export interface ApiOptions {
  /** Default: the page's own `fetch` (resolved at call time). Tests pass an in-test server. */
  fetch?: typeof fetch;
  /** Sent as `privy-app-id` when known (the frame's URL is /apps/{appId}/embedded-wallets). */
  appId?: string | null;
  /** Sent as `privy-client-id` when known (the frame's `client_id` query parameter). */
  clientId?: string | null;
}

export interface Api {
  /** The app these calls are for: `privy-app-id` when known, else the token's audience. */
  appId(token: string): string;
  // Each call is for the wallets of one chain (`chain_type` in the body).
  challenge(token: string, chainType: ChainType, purpose: ChallengePurpose): Promise<string>;
  createWallet(token: string, chainType: ChainType, body: CreateWalletBody): Promise<CreatedWallet>;
  keyMaterial(
    token: string,
    chainType: ChainType,
    address: string,
    proof: KeyMaterialProof,
    mfa?: KeyMaterialMfa,
  ): Promise<KeyMaterial>;
  replaceShares(token: string, chainType: ChainType, address: string, body: ReplaceSharesBody): Promise<void>;
}

/** A failed call, with the server's own message (`{error, code}` body) when it sent one. */
export class ApiCallError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | null,
    /** Seconds the server asked to wait (`Retry-After` in delta-seconds), when it said. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = "ApiCallError";
  }
}

/** The token's `aud`, unverified ("" when absent); the server checks it. */
function audienceOf(token: string): string {
  try {
    const part = token.split(".")[1] ?? "";
    const json = atob(
      part
        .replace(/-/g, "+")
        .replace(/_/g, "/")
        .padEnd(Math.ceil(part.length / 4) * 4, "="),
    );
    const aud = (JSON.parse(json) as { aud?: unknown }).aud;
    return typeof aud === "string" ? aud : "";
  } catch {
    return "";
  }
}

/** POSTs `body` as JSON to `/api/v1{path}` with the bearer token; the parsed answer or an ApiCallError. */
export type Post = <T>(token: string, path: string, body: unknown) => Promise<T>;

/** GETs `/api/v1{path}` with the bearer token; the parsed answer or an ApiCallError. */
export type Get = <T>(token: string, path: string) => Promise<T>;

export function createPost(options: ApiOptions = {}): Post {
  return (token, path, body) => call(options, token, path, { method: "POST", body: JSON.stringify(body) });
}

export function createGet(options: ApiOptions = {}): Get {
  return (token, path) => call(options, token, path, { method: "GET" });
}

async function call<T>(
  options: ApiOptions,
  token: string,
  path: string,
  init: { method: "GET" | "POST"; body?: string },
): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  if (options.appId) headers["privy-app-id"] = options.appId;
  if (options.clientId) headers["privy-client-id"] = options.clientId;
  const doFetch = options.fetch ?? globalThis.fetch;
  const response = await doFetch(`/api/v1${path}`, {
    ...init,
    headers,
    // The page has `Referrer-Policy: no-referrer`, under which the Fetch standard sends a
    // same-origin POST with `Origin: null` (Chromium sends the origin anyway); the share
    // endpoints require the frame's own origin, so ask for it explicitly.
    referrerPolicy: "strict-origin",
    credentials: "omit",
  });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text === "" ? null : JSON.parse(text);
  } catch {
    // A non-JSON body (proxy error page): reported by status below.
  }
  if (!response.ok) {
    const { error, code } = (parsed ?? {}) as { error?: unknown; code?: unknown };
    const retryAfter = response.headers.get("retry-after")?.trim() ?? "";
    throw new ApiCallError(
      typeof error === "string" ? error : `Request failed with status ${response.status}`,
      response.status,
      typeof code === "string" ? code : null,
      /^\d+$/.test(retryAfter) ? Number(retryAfter) : null,
    );
  }
  return parsed as T;
}

export function createApi(options: ApiOptions = {}): Api {
  const send = createPost(options);
  const post = <T>(token: string, path: string, body: unknown) =>
    send<T>(token, `/embedded_wallets${path}`, body);
  return {
    appId: (token) => options.appId || audienceOf(token),
    challenge: async (token, chain_type, purpose) =>
      (await post<{ nonce: string }>(token, "/challenge", { chain_type, purpose })).nonce,
    createWallet: (token, chain_type, body) =>
      post<CreatedWallet>(token, "", { chain_type, recovery_method: "privy", ...body }),
    keyMaterial: (token, chain_type, address, proof, mfa) =>
      post<KeyMaterial>(token, `/${encodeURIComponent(address)}/recovery/key_material`, {
        chain_type,
        ...proof,
        // `sign` is the server's default: sent only when it is something else.
        ...(mfa && mfa.intent !== "sign" ? { intent: mfa.intent } : {}),
        ...(mfa?.mfaToken ? { mfa_token: mfa.mfaToken } : {}),
      }),
    replaceShares: async (token, chain_type, address, body) => {
      await post<unknown>(token, `/${encodeURIComponent(address)}/shares`, {
        chain_type,
        ...body,
      });
    },
  };
}
