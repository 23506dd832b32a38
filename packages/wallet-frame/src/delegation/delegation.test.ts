import type { CipherSuite } from "@hpke/core";
import { privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type ConsentedSigner,
  DELEGATION_CONSENT_VERSION,
  type DelegationConsent,
} from "../../../core/src/generated/protocol.ts";
import { fromBase64, toBase64 } from "../base64.ts";
import { createFakeServer, type FakeServer } from "../test/fakeServer.ts";
import { createFrame, entropy } from "../test/frameHarness.ts";
import { loadWasm } from "../test/loadWasm.ts";
import { accessToken } from "../test/tokens.ts";
import { delegationAad, delegationInfo, delegationSuite } from "./sealConsent.ts";

beforeAll(loadWasm);

const ALICE = "did:privy:alice";
const alice = accessToken(ALICE);
const EVENT = "privy:delegated-actions:consent";

const SIGNER: ConsentedSigner = {
  signer_id: "quorum-1",
  display_name: "Acme back end",
  public_keys: ["MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE"],
  threshold: 1,
  aggregations: [],
  policies: [
    {
      id: "policy-1",
      version: "1.0",
      name: "Shop only",
      chain_type: "ethereum",
      created_at: 0,
      owner_id: null,
      rules: [
        {
          id: "rule-1",
          name: "pay the shop",
          method: "eth_sendTransaction",
          action: "ALLOW",
          conditions: [
            {
              field_source: "ethereum_transaction",
              field: "to",
              operator: "eq",
              value: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
            },
          ],
        },
      ],
    },
  ],
};

/** The signer's HPKE key pair (the recipient), as the server would hold it. */
let suite: CipherSuite;
let recipient: CryptoKeyPair;

beforeAll(async () => {
  suite = delegationSuite();
  recipient = await suite.kem.generateKeyPair();
});

/** A frame whose user has wallets 0 and 1 unlocked, and a server whose terms name SIGNER. */
async function setup() {
  const server = createFakeServer();
  server.delegation.signerPublicKey = toBase64(
    new Uint8Array(await suite.kem.serializePublicKey(recipient.publicKey)),
  );
  server.delegation.signers = [SIGNER];
  const frame = createFrame(server);
  const { address: root } = await frame.call<{ address: string }>("privy:wallet:create", {
    accessToken: alice,
    chainType: "ethereum",
  });
  const { address: second } = await frame.call<{ address: string }>("privy:wallets:add", {
    accessToken: alice,
    ...entropy(root),
    hdWalletIndex: 1,
  });
  server.calls.length = 0;
  return { server, frame, root, second };
}

/** The consent message the published client posts (no signers), for `wallets`. */
function consentData(root: string, wallets: { address: string; walletIndex: number; chainType?: string }[]) {
  return {
    accessToken: alice,
    rootWallet: { address: root, chainType: "ethereum", imported: false },
    delegatedWallets: wallets.map((wallet) => ({ chainType: "ethereum", ...wallet })),
  };
}

/** Opens the `n`th sealed consent the server got, with the recipient key and `aad`. */
async function open(server: FakeServer, n: number, aad: Uint8Array): Promise<DelegationConsent> {
  const sealed = server.delegation.delegated[n];
  if (!sealed) throw new Error(`no consent ${n}`);
  const plaintext = await suite.open(
    { recipientKey: recipient, enc: fromBase64(sealed.encapsulated_key), info: delegationInfo() },
    fromBase64(sealed.ciphertext),
    aad,
  );
  return JSON.parse(new TextDecoder().decode(plaintext)) as DelegationConsent;
}

const delegationCalls = (server: FakeServer) =>
  server.calls.filter(
    (call) =>
      call.path.startsWith("/api/v1/delegated_actions") ||
      call.path.startsWith("/api/v1/embedded_wallets/delegation"),
  );

describe("privy:delegated-actions:consent", () => {
  let logged: unknown[][];
  beforeEach(() => {
    logged = [];
    for (const level of ["log", "info", "debug", "warn", "error"] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        logged.push(args);
      });
    }
  });
  afterEach(() => vi.restoreAllMocks());

  it("seals the wallet's key and the terms to the signer; the consent opens with the right info and aad", async () => {
    const { server, frame, root, second } = await setup();
    const before = Date.now();
    const answer = await frame.call(EVENT, {
      ...consentData(root, [{ address: second, walletIndex: 1 }]),
      signers: [{ signerId: "quorum-1", policyIds: ["policy-1"] }],
    });
    expect(answer).toEqual({ delegated: [second] });

    // Terms, then the sealed consent, both same-origin with the user's token.
    expect(server.calls.map((call) => call.path)).toEqual([
      "/api/v1/embedded_wallets/delegation/terms",
      "/api/v1/delegated_actions",
    ]);
    const [terms, delegate] = server.calls;
    expect(terms?.body).toEqual({
      address: second,
      signers: [{ signer_id: "quorum-1", policy_ids: ["policy-1"] }],
    });
    for (const call of [terms, delegate]) {
      expect(call?.headers).toMatchObject({ authorization: `Bearer ${alice}`, "privy-app-id": "app" });
      expect(call?.init).toMatchObject({ credentials: "omit", referrerPolicy: "strict-origin" });
    }
    expect(delegate?.body).toEqual({
      address: second,
      chain_type: "ethereum",
      consent_id: "consent-1",
      encapsulated_key: expect.any(String),
      ciphertext: expect.any(String),
    });
    // DHKEM(P-256): the encapsulated key is an uncompressed point.
    expect(fromBase64(delegate?.body.encapsulated_key as string)).toHaveLength(65);

    const consent = await open(server, 0, delegationAad("app", second));
    expect(consent).toEqual({
      version: DELEGATION_CONSENT_VERSION,
      consent_id: "consent-1",
      app_id: "app",
      user_id: ALICE,
      address: second,
      wallet_id: `wallet-${second.toLowerCase()}`,
      chain_type: "ethereum",
      wallet_index: 1,
      private_key: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      signers: [SIGNER],
      consented_at: expect.any(Number),
    });
    expect(consent.consented_at).toBeGreaterThanOrEqual(before);
    expect(consent.consented_at).toBeLessThanOrEqual(Date.now());
    // The sealed key is the delegated wallet's own.
    expect(privateKeyToAccount(consent.private_key as `0x${string}`).address).toBe(second);
    // It went nowhere else: not to the host, not to the console, not in a request in clear.
    const key = consent.private_key.slice(2);
    expect(JSON.stringify(frame.posted)).not.toContain(key);
    expect(JSON.stringify(logged)).not.toContain(key);
    expect(JSON.stringify(server.calls.map((call) => call.body))).not.toContain(key);
  });

  it("does not open with another aad (another wallet or app)", async () => {
    const { server, frame, root, second } = await setup();
    await frame.call(EVENT, consentData(root, [{ address: second, walletIndex: 1 }]));
    await expect(open(server, 0, delegationAad("app", root))).rejects.toThrow();
    await expect(open(server, 0, delegationAad("other-app", second))).rejects.toThrow();
    expect(
      await open(server, 0, delegationAad("app", second.toUpperCase().replace("0X", "0x"))),
    ).toMatchObject({
      address: second,
    });
  });

  it("without signers (the published client) asks for the app's default delegation", async () => {
    const { server, frame, root } = await setup();
    expect(await frame.call(EVENT, consentData(root, [{ address: root, walletIndex: 0 }]))).toEqual({
      delegated: [root],
    });
    expect(server.calls[0]?.body).toEqual({ address: root });
    const consent = await open(server, 0, delegationAad("app", root));
    expect(consent).toMatchObject({ address: root, wallet_index: 0, signers: [SIGNER] });
    expect(privateKeyToAccount(consent.private_key as `0x${string}`).address).toBe(root);
  });

  it("seals several wallets, each under its own terms and consent id", async () => {
    const { server, frame, root, second } = await setup();
    const answer = await frame.call(
      EVENT,
      consentData(root, [
        { address: root.toLowerCase(), walletIndex: 0 },
        { address: second, walletIndex: 1 },
      ]),
    );
    // Answered with the canonical (checksummed) addresses.
    expect(answer).toEqual({ delegated: [root, second] });
    expect(server.calls.map((call) => call.path)).toEqual([
      "/api/v1/embedded_wallets/delegation/terms",
      "/api/v1/delegated_actions",
      "/api/v1/embedded_wallets/delegation/terms",
      "/api/v1/delegated_actions",
    ]);
    expect(server.delegation.delegated.map((sealed) => [sealed.address, sealed.consent_id])).toEqual([
      [root, "consent-1"],
      [second, "consent-2"],
    ]);
    expect(await open(server, 0, delegationAad("app", root))).toMatchObject({ consent_id: "consent-1" });
    expect(await open(server, 1, delegationAad("app", second))).toMatchObject({ consent_id: "consent-2" });
  });

  it("refuses an address that is not the wallet at its index, before any call", async () => {
    const { server, frame, root, second } = await setup();
    const answer = await frame.request(
      EVENT,
      consentData(root, [
        { address: root, walletIndex: 0 },
        { address: second, walletIndex: 2 },
      ]),
    );
    expect(answer.error).toEqual({
      type: "invalid_input",
      message: `${second} is not the wallet at index 2 of ${root}`,
    });
    expect(delegationCalls(server)).toEqual([]);
    expect(server.delegation.delegated).toEqual([]);
  });

  it("refuses wallets that are not Ethereum (unsupported_wallet_type), and imported roots", async () => {
    const { server, frame, root, second } = await setup();
    const solana = await frame.request(
      EVENT,
      consentData(root, [{ address: second, walletIndex: 1, chainType: "solana" }]),
    );
    expect(solana.error).toEqual({
      type: "unsupported_wallet_type",
      message: "Only Ethereum embedded wallets can be delegated; the wallet to delegate is solana.",
    });
    const solanaRoot = await frame.request(EVENT, {
      ...consentData(root, [{ address: second, walletIndex: 1 }]),
      rootWallet: { address: root, chainType: "solana" },
    });
    expect(solanaRoot.error?.type).toBe("unsupported_wallet_type");
    const imported = await frame.request(EVENT, {
      ...consentData(root, [{ address: second, walletIndex: 1 }]),
      rootWallet: { address: root, chainType: "ethereum", imported: true },
    });
    expect(imported.error).toEqual({
      type: "unsupported_wallet_type",
      message: "Imported wallets cannot be delegated.",
    });
    expect(delegationCalls(server)).toEqual([]);
  });

  it("refuses malformed data as invalid_input", async () => {
    const { frame, root, second } = await setup();
    const cases: [Record<string, unknown>, string][] = [
      [{ delegatedWallets: [] }, "delegatedWallets must be a non-empty list of wallets"],
      [
        { delegatedWallets: [{ address: second, chainType: "ethereum", walletIndex: -1 }] },
        `walletIndex of ${second} must be an integer ≥ 0`,
      ],
      [
        { delegatedWallets: [{ address: "0x12", chainType: "ethereum", walletIndex: 1 }] },
        "Invalid delegated wallet address: 0x12",
      ],
      [{ signers: [{ policyIds: [] }] }, "Each signer needs a signerId"],
      [
        { signers: [{ signerId: "quorum-1", policyIds: "policy-1" }] },
        "policyIds of signer quorum-1 must be a list of policy ids",
      ],
    ];
    for (const [change, message] of cases) {
      const answer = await frame.request(EVENT, {
        ...consentData(root, [{ address: second, walletIndex: 1 }]),
        ...change,
      });
      expect(answer.error).toEqual({ type: "invalid_input", message });
    }
  });

  it("needs the root wallet unlocked on this device (the host connects it first)", async () => {
    const { server, root, second } = await setup();
    // Another page load: nothing unlocked yet.
    const fresh = createFrame(server);
    const locked = await fresh.request(EVENT, consentData(root, [{ address: second, walletIndex: 1 }]));
    expect(locked.error).toEqual({
      type: "embedded_wallet_request_error",
      message: "Wallet is not connected",
    });
    expect(delegationCalls(server)).toEqual([]);
  });

  it("answers the server's refusal, and refuses terms of another suite without posting a consent", async () => {
    const { server, frame, root, second } = await setup();
    server.failNext(400, "feature_not_enabled", "Delegated actions are not enabled for this app");
    const refused = await frame.request(EVENT, consentData(root, [{ address: second, walletIndex: 1 }]));
    expect(refused.error).toEqual({
      type: "embedded_wallet_request_error",
      message: "Delegated actions are not enabled for this app",
    });
    server.delegation.hpkeSuite = "DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-128-GCM";
    const suiteRefused = await frame.request(EVENT, consentData(root, [{ address: second, walletIndex: 1 }]));
    expect(suiteRefused.error?.type).toBe("embedded_wallet_request_error");
    expect(suiteRefused.error?.message).toContain("HPKE suite");
    expect(server.delegation.delegated).toEqual([]);
  });
});
