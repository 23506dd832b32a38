// An in-test stand-in for the three share endpoints of docs/wallet.md, injected as the frame's
// `fetch` in unit tests. It keeps what it is given so tests can look at it and tamper with it;
// the real server is exercised by the e2e suite.
import { userIdOf } from "../jwt.ts";

export interface StoredUser {
  wallets: { address: string; index: number }[];
  authShare: string | null;
  recoveryShare: string | null;
  recoveryMethod: string;
}

export interface RecordedCall {
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  init: RequestInit;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

function error(status: number, code: string, message: string): Response {
  return json(status, { error: message, code });
}

export function createFakeServer() {
  const users = new Map<string, StoredUser>();
  const calls: RecordedCall[] = [];
  let nextFailure: Response | null = null;

  const userView = (sub: string) => ({
    id: sub,
    linked_accounts: (users.get(sub)?.wallets ?? []).map((w) => ({
      type: "wallet",
      address: w.address,
      chain_type: "ethereum",
      wallet_client_type: "privy",
      connector_type: "embedded",
      wallet_index: w.index,
      recovery_method: "privy",
    })),
  });

  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const path = String(input);
    const headers = { ...(init.headers as Record<string, string>) };
    const body = JSON.parse(String(init.body)) as Record<string, unknown>;
    calls.push({ path, headers, body, init });
    if (nextFailure) {
      const failure = nextFailure;
      nextFailure = null;
      return failure;
    }
    const sub = userIdOf(headers.authorization?.replace(/^Bearer /, "") ?? "");
    if (!sub) return error(401, "missing_or_invalid_token", "Missing or invalid token");
    const user = users.get(sub);
    const owned = (address: string) =>
      user?.wallets.find((w) => w.address.toLowerCase() === decodeURIComponent(address).toLowerCase());

    if (path === "/api/v1/embedded_wallets") {
      const index = body.wallet_index as number;
      const address = body.address as string;
      if (index === 0) {
        if (user) return error(400, "resource_already_exists", "The user already has an embedded wallet");
        users.set(sub, {
          wallets: [{ address, index }],
          authShare: body.auth_share as string,
          recoveryShare: body.recovery_share as string,
          recoveryMethod: "privy",
        });
      } else {
        if (!user || index !== user.wallets.length) return error(400, "invalid_data", "Wrong wallet index");
        user.wallets.push({ address, index });
      }
      return json(200, { user: userView(sub), wallet: { address, wallet_index: index } });
    }
    const material = /^\/api\/v1\/embedded_wallets\/([^/]+)\/recovery\/key_material$/.exec(path);
    if (material?.[1]) {
      const wallet = owned(material[1]);
      if (!user || !wallet) return error(404, "linked_account_not_found", "Linked account not found");
      return json(200, {
        address: wallet.address,
        chain_type: "ethereum",
        wallet_index: wallet.index,
        recovery_method: user.recoveryMethod,
        auth_share: user.authShare,
        recovery_share: user.recoveryMethod === "privy" ? user.recoveryShare : null,
      });
    }
    const shares = /^\/api\/v1\/embedded_wallets\/([^/]+)\/shares$/.exec(path);
    if (shares?.[1]) {
      const wallet = owned(shares[1]);
      if (!user || !wallet) return error(404, "linked_account_not_found", "Linked account not found");
      user.authShare = body.auth_share as string;
      user.recoveryShare = body.recovery_share as string;
      return json(200, { address: wallet.address });
    }
    return error(404, "not_found", "Not found");
  };

  return {
    fetch: fetch as typeof globalThis.fetch,
    users,
    calls,
    /** The next call answers this instead. */
    failNext(status: number, code: string, message: string) {
      nextFailure = error(status, code, message);
    },
  };
}

export type FakeServer = ReturnType<typeof createFakeServer>;
