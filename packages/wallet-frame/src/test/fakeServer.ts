// An in-test stand-in for the share endpoints of docs/wallet.md, injected as the frame's
// `fetch` in unit tests. It checks challenges, device signatures and wallet proofs as the server
// does (Web Crypto and viem as the oracles) and keeps what it is given so tests can look at it
// and tamper with it; the real server is exercised by its own tests and the e2e suite.
import { type Hex, recoverMessageAddress } from "viem";
import {
  type ConsentedSigner,
  DELEGATION_HPKE_SUITE,
  type DelegateWalletRequest,
  type DelegationTerms,
} from "../../../core/src/generated/protocol.ts";
import { fromBase64 } from "../base64.ts";
import { sessionOf } from "../jwt.ts";
import { sharesDigest, unlockMessage, walletProofMessage } from "../proofs.ts";
import { createFakeMfa } from "./fakeMfa.ts";

export interface StoredUser {
  wallets: { address: string; index: number }[];
  authShare: string | null;
  recoveryShare: string | null;
  recoveryMethod: string;
  devicePublicKey: string | null;
}

/** Whether `signature` (raw r‖s) is the device key `publicKey`'s over `message`. */
export async function deviceSigned(publicKey: string, message: string, signature: string): Promise<boolean> {
  const key = await crypto.subtle.importKey(
    "raw",
    new Uint8Array(fromBase64(publicKey)),
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["verify"],
  );
  return crypto.subtle.verify(
    { name: "ECDSA", hash: "SHA-256" },
    key,
    new Uint8Array(fromBase64(signature)),
    new TextEncoder().encode(message),
  );
}

async function signedBy(message: string, signature: unknown, address: string): Promise<boolean> {
  if (typeof signature !== "string") return false;
  const signer = await recoverMessageAddress({ message, signature: signature as Hex });
  return signer.toLowerCase() === address.toLowerCase();
}

export interface RecordedCall {
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  init: RequestInit;
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

function error(status: number, code: string, message: string): Response {
  return json(status, { error: message, code });
}

export function createFakeServer() {
  const users = new Map<string, StoredUser>();
  const calls: RecordedCall[] = [];
  let nextFailure: Response | null = null;
  /** nonce → `${sub} ${purpose}`; deleted on first use. */
  const challenges = new Map<string, string>();
  let counter = 0;
  let recoveryAllowed = true;
  const mfa = createFakeMfa();
  /**
   * The delegation routes: the terms answer `signers` and the signer's key (none: the app has no
   * delegation), with a fresh consent id each; what was posted to `/delegated_actions` is kept.
   */
  const delegation = {
    signerPublicKey: null as string | null,
    hpkeSuite: DELEGATION_HPKE_SUITE,
    signers: [] as ConsentedSigner[],
    consents: 0,
    delegated: [] as DelegateWalletRequest[],
  };
  const refused = (message: string) => error(403, "invalid_credentials", message);
  const consume = (nonce: unknown, sub: string, purpose: string) => {
    const owner = typeof nonce === "string" ? challenges.get(nonce) : undefined;
    if (typeof nonce === "string") challenges.delete(nonce);
    return owner === `${sub} ${purpose}`;
  };

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
    mfa_methods: mfa.mfaMethods(sub),
  });

  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const path = String(input);
    const headers = { ...(init.headers as Record<string, string>) };
    const body = (init.body === undefined ? {} : JSON.parse(String(init.body))) as Record<string, unknown>;
    calls.push({ path, headers, body, init });
    if (nextFailure) {
      const failure = nextFailure;
      nextFailure = null;
      return failure;
    }
    const session = sessionOf(headers.authorization?.replace(/^Bearer /, "") ?? "");
    if (!session) return error(401, "missing_or_invalid_token", "Missing or invalid token");
    const sub = session.userId;
    const mfaReply = mfa.route(path, sub, session.sessionId, body, userView);
    if (mfaReply) return json(mfaReply.status, mfaReply.body, mfaReply.headers);
    if (path === "/api/v1/users/me" && init.method === "GET") {
      return json(200, { user: userView(sub), identity_token: null });
    }
    if (path === "/api/v1/embedded_wallets/delegation/terms") {
      if (delegation.signerPublicKey === null) {
        return error(400, "feature_not_enabled", "Delegated actions are not enabled for this app");
      }
      delegation.consents += 1;
      return json(200, {
        signer_public_key: delegation.signerPublicKey,
        hpke_suite: delegation.hpkeSuite,
        consent_id: `consent-${delegation.consents}`,
        wallet_id: typeof body.address === "string" ? `wallet-${body.address.toLowerCase()}` : null,
        signers: delegation.signers,
      } satisfies DelegationTerms);
    }
    if (path === "/api/v1/delegated_actions") {
      delegation.delegated.push(body as unknown as DelegateWalletRequest);
      return json(200, {
        address: body.address,
        delegated: true,
        signer_ids: delegation.signers.map((signer) => signer.signer_id),
      });
    }
    const user = users.get(sub);
    const owned = (address: string) =>
      user?.wallets.find((w) => w.address.toLowerCase() === decodeURIComponent(address).toLowerCase());

    if (path === "/api/v1/embedded_wallets/challenge") {
      counter += 1;
      const nonce = `nonce-${counter}`;
      challenges.set(nonce, `${sub} ${body.purpose as string}`);
      return json(200, { nonce, expires_at: 0 });
    }
    if (path === "/api/v1/embedded_wallets") {
      const index = body.wallet_index as number;
      const address = body.address as string;
      if (index === 0 && user)
        return error(400, "resource_already_exists", "The user already has an embedded wallet");
      if (index !== 0 && (!user || index !== user.wallets.length)) {
        return error(400, "invalid_data", "Wrong wallet index");
      }
      if (!consume(body.nonce, sub, "create")) return refused("The challenge expired or was already used");
      const digest =
        index === 0
          ? await sharesDigest(
              fromBase64(body.auth_share as string),
              fromBase64(body.recovery_share as string),
            )
          : null;
      const message = walletProofMessage({
        purpose: "create",
        appId: "app",
        userId: sub,
        address,
        walletIndex: index,
        shares: digest,
        devicePublicKey: (body.device_public_key as string | undefined) ?? null,
        nonce: body.nonce as string,
      });
      const root = user?.wallets[0]?.address;
      if (
        !(await signedBy(message, body.signature, address)) ||
        (index > 0 && !(root && (await signedBy(message, body.root_signature, root))))
      ) {
        return refused("The wallet proof is not signed by this wallet's key");
      }
      if (index === 0) {
        users.set(sub, {
          wallets: [{ address, index }],
          authShare: body.auth_share as string,
          recoveryShare: body.recovery_share as string,
          recoveryMethod: "privy",
          devicePublicKey: body.device_public_key as string,
        });
      } else {
        user?.wallets.push({ address, index });
      }
      return json(200, { user: userView(sub), wallet: { address, wallet_index: index } });
    }
    const material = /^\/api\/v1\/embedded_wallets\/([^/]+)\/recovery\/key_material$/.exec(path);
    if (material?.[1]) {
      const wallet = owned(material[1]);
      if (!user || !wallet) return error(404, "linked_account_not_found", "Linked account not found");
      const recovery = body.recovery === true;
      const guard = mfa.guard(
        sub,
        session.sessionId,
        recovery ? "recovery" : body.intent === "export" ? "export" : "sign",
        body.mfa_token,
      );
      if ("status" in guard) return json(guard.status, guard.body);
      if (recovery && !recoveryAllowed) {
        return error(403, "invalid_credentials", "Sign in again to recover your wallet on this device");
      }
      if (!recovery) {
        if (!consume(body.nonce, sub, "key_material"))
          return refused("The challenge expired or was already used");
        const message = unlockMessage("app", sub, decodeURIComponent(material[1]), body.nonce as string);
        const signed =
          user.devicePublicKey !== null &&
          typeof body.device_signature === "string" &&
          (await deviceSigned(user.devicePublicKey, message, body.device_signature));
        if (!signed) return refused("This device is not registered for the wallet; recover it");
      }
      const spent = guard.consume();
      if (spent) return json(spent.status, spent.body);
      return json(200, {
        address: wallet.address,
        chain_type: "ethereum",
        wallet_index: wallet.index,
        recovery_method: user.recoveryMethod,
        auth_share: user.authShare,
        recovery_share: recovery && user.recoveryMethod === "privy" ? user.recoveryShare : null,
        single_use: guard.singleUse,
      });
    }
    const shares = /^\/api\/v1\/embedded_wallets\/([^/]+)\/shares$/.exec(path);
    if (shares?.[1]) {
      const wallet = owned(shares[1]);
      if (!user || !wallet) return error(404, "linked_account_not_found", "Linked account not found");
      if (!consume(body.nonce, sub, "replace_shares"))
        return refused("The challenge expired or was already used");
      const message = walletProofMessage({
        purpose: "replace_shares",
        appId: "app",
        userId: sub,
        address: user.wallets[0]?.address ?? "",
        walletIndex: 0,
        shares: await sharesDigest(
          fromBase64(body.auth_share as string),
          fromBase64(body.recovery_share as string),
        ),
        devicePublicKey: body.device_public_key as string,
        nonce: body.nonce as string,
      });
      if (!(await signedBy(message, body.signature, user.wallets[0]?.address ?? ""))) {
        return refused("The wallet proof is not signed by this wallet's key");
      }
      user.authShare = body.auth_share as string;
      user.recoveryShare = body.recovery_share as string;
      user.devicePublicKey = body.device_public_key as string;
      return json(200, { address: wallet.address });
    }
    return error(404, "not_found", "Not found");
  };

  return {
    fetch: fetch as typeof globalThis.fetch,
    users,
    calls,
    /** The MFA state: enrolments, live tokens, transaction protection. */
    mfa,
    /** The delegated-actions routes' terms and what they were given. */
    delegation,
    /** Whether `recovery: true` is granted (the real server: a sign-in under 10 minutes old). */
    allowRecovery(allowed: boolean) {
      recoveryAllowed = allowed;
    },
    /** The next call answers this instead. */
    failNext(status: number, code: string, message: string, headers: Record<string, string> = {}) {
      nextFailure = json(status, { error: message, code }, headers);
    },
  };
}

export type FakeServer = ReturnType<typeof createFakeServer>;
