// The frame's three server calls (docs/wallet.md "Server endpoints"), same-origin only.

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
}

export interface CreateWalletBody {
  address: string;
  wallet_index: number;
  auth_share?: string;
  recovery_share?: string;
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
  createWallet(token: string, body: CreateWalletBody): Promise<CreatedWallet>;
  keyMaterial(token: string, address: string): Promise<KeyMaterial>;
  replaceShares(token: string, address: string, shares: { auth: string; recovery: string }): Promise<void>;
}

/** A failed call, with the server's own message (`{error, code}` body) when it sent one. */
export class ApiCallError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | null,
  ) {
    super(message);
    this.name = "ApiCallError";
  }
}

const CHAIN_TYPE = "ethereum";

export function createApi(options: ApiOptions = {}): Api {
  async function post<T>(token: string, path: string, body: unknown): Promise<T> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
    };
    if (options.appId) headers["privy-app-id"] = options.appId;
    if (options.clientId) headers["privy-client-id"] = options.clientId;
    const doFetch = options.fetch ?? globalThis.fetch;
    const response = await doFetch(`/api/v1/embedded_wallets${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
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
      throw new ApiCallError(
        typeof error === "string" ? error : `Request failed with status ${response.status}`,
        response.status,
        typeof code === "string" ? code : null,
      );
    }
    return parsed as T;
  }

  return {
    createWallet: (token, body) =>
      post<CreatedWallet>(token, "", { chain_type: CHAIN_TYPE, recovery_method: "privy", ...body }),
    keyMaterial: (token, address) =>
      post<KeyMaterial>(token, `/${encodeURIComponent(address)}/recovery/key_material`, {
        chain_type: CHAIN_TYPE,
      }),
    replaceShares: async (token, address, shares) => {
      await post<unknown>(token, `/${encodeURIComponent(address)}/shares`, {
        chain_type: CHAIN_TYPE,
        auth_share: shares.auth,
        recovery_share: shares.recovery,
      });
    },
  };
}
