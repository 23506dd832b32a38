// What MFA changes for the wallet operations: the held token goes with key material (export,
// recovery, signing under transaction protection), is dropped once used, and a single-use key
// serves one operation.

import { verifyMessage } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { MFA_SIGNING_USES, MFA_SIGNING_WINDOW_S } from "../../../core/src/generated/protocol.ts";
import { exportHandlers } from "../export/exportHandlers.ts";
import type { ExportView } from "../export/exportView.ts";
import { CODE, PASSKEY_ID } from "../test/fakeMfa.ts";
import { createFakeServer, type FakeServer } from "../test/fakeServer.ts";
import { createFrame, entropy, ethereumWallet, HOST, memoryStorage } from "../test/frameHarness.ts";
import { loadWasm } from "../test/loadWasm.ts";
import { accessToken } from "../test/tokens.ts";

beforeAll(loadWasm);

const ALICE = "did:privy:alice";
const alice = accessToken(ALICE);
const TOKEN_KEY = `symbolon:mfa:app:${ALICE}`;
const RETRY = { type: "missing_or_invalid_mfa", message: "MFA verification failed, retry." };
const WRONG_CODE = { type: "missing_or_invalid_mfa", message: "The code you entered is not valid" };

type Frame = ReturnType<typeof createFrame>;

/** A server, a wallet created on `storage` (the laptop), and alice enrolled in TOTP afterwards. */
async function enrolledWallet() {
  const server = createFakeServer();
  const storage = memoryStorage();
  const { address } = await createFrame(server, { storage }).call<{ address: `0x${string}` }>(
    "privy:wallet:create",
    { accessToken: alice },
  );
  server.mfa.enroll(ALICE, "totp");
  return { server, storage, address };
}

const verify = (frame: Frame) =>
  frame.call("privy:mfa:verify", { accessToken: alice, method: "totp", mfaCode: CODE });
const heldToken = (frame: Frame) =>
  (JSON.parse(frame.session.getItem(TOKEN_KEY) ?? "null") as { token: string } | null)?.token ?? null;
const keyMaterialCalls = (server: FakeServer) =>
  server.calls.filter((c) => c.path.endsWith("/recovery/key_material"));
/** `privy:wallets:rpc` personal_sign with index 0 of `address`; `extra` rides along (an MFA code). */
const sign = (frame: Frame, address: string, message = "hi", extra: Record<string, unknown> = {}) =>
  frame.request("privy:wallets:rpc", {
    accessToken: alice,
    ...entropy(address),
    chainType: "ethereum",
    hdWalletIndex: 0,
    request: { method: "personal_sign", params: [message, address] },
    ...extra,
  });

/** Export page handlers for index 0 of `address` and what its view was shown. */
function exportPage(address: string) {
  const seen = {
    readKey: null as (() => string) | null,
    address: null as string | null,
    errors: [] as string[],
  };
  const view: ExportView = {
    enableReveal: (read, shown) => {
      seen.readKey = read;
      seen.address = shown;
    },
    showError: (message) => seen.errors.push(message),
  };
  return {
    seen,
    handlers: (w: Parameters<typeof exportHandlers>[0]) =>
      exportHandlers(w, { wallet: ethereumWallet(address), hdWalletIndex: 0 }, view),
  };
}

describe("export with MFA", () => {
  it("asks for MFA, then sends intent export with the token the wallet frame kept, and drops it", async () => {
    const { server, storage, address } = await enrolledWallet();
    const { seen, handlers } = exportPage(address);
    // One tab: the hidden frame and the export page share the origin's sessionStorage.
    const session = memoryStorage();
    const hidden = createFrame(server, { storage, session });
    const page = createFrame(server, { storage, session, handlers });

    expect((await page.request("privy:wallet:export", { accessToken: alice })).error).toEqual(RETRY);
    // The host verifies and posts again: the page keeps saying it is unlocking.
    expect(seen.errors).toEqual([]);
    expect(keyMaterialCalls(server).at(-1)?.body).toMatchObject({ intent: "export" });
    expect(keyMaterialCalls(server).at(-1)?.body).not.toHaveProperty("mfa_token");

    await verify(hidden);
    const token = heldToken(hidden);
    expect(await page.call("privy:wallet:export", { accessToken: alice })).toEqual({});
    expect(keyMaterialCalls(server).at(-1)?.body).toMatchObject({ intent: "export", mfa_token: token });
    expect(seen.address).toBe(address);
    expect(privateKeyToAccount(seen.readKey?.() as `0x${string}`).address).toBe(address);
    // Used up: gone from the frame and from the server.
    expect(session.items.size).toBe(0);
    expect(server.mfa.tokens.size).toBe(0);
    expect(JSON.stringify([...hidden.posted, ...page.posted])).not.toContain(token);
  });
});

describe("recovery with MFA", () => {
  it("sends the token with recovery: true and drops it after the recovery", async () => {
    const { server, address } = await enrolledWallet();
    const phone = createFrame(server);
    const recover = { accessToken: alice, ...entropy(address) };
    expect((await phone.request("privy:wallets:recover", recover)).error).toEqual(RETRY);
    await verify(phone);
    const token = heldToken(phone);
    expect(await phone.call("privy:wallets:recover", recover)).toEqual({ entropyId: address });
    expect(keyMaterialCalls(server).at(-1)?.body).toEqual({
      chain_type: "ethereum",
      recovery: true,
      mfa_token: token,
    });
    expect(heldToken(phone)).toBeNull();
  });

  it("keeps the stale-session refusal (invalid_credentials) a recovery error, not an MFA prompt", async () => {
    const { server, address } = await enrolledWallet();
    const phone = createFrame(server);
    await verify(phone);
    const token = heldToken(phone);
    server.allowRecovery(false);
    expect(
      (await phone.request("privy:wallets:recover", { accessToken: alice, ...entropy(address) })).error,
    ).toEqual({
      type: "embedded_wallet_recovery_error",
      message: "Sign in again to recover your wallet on this device",
    });
    // Not about the token: the server did not use it, the frame keeps it.
    expect(heldToken(phone)).toBe(token);
  });

  it("drops a token the server refuses and answers the retry error", async () => {
    const { server, address } = await enrolledWallet();
    const phone = createFrame(server);
    await verify(phone);
    server.mfa.tokens.clear(); // expired on the server
    expect(
      (await phone.request("privy:wallets:recover", { accessToken: alice, ...entropy(address) })).error,
    ).toEqual(RETRY);
    expect(heldToken(phone)).toBeNull();
  });
});

describe("signing with MFA", () => {
  it("without transaction protection: signs with no token and keeps a held one", async () => {
    const { server, storage, address } = await enrolledWallet();
    const frame = createFrame(server, { storage });
    await verify(frame);
    const token = heldToken(frame);
    expect((await sign(frame, address)).error).toBeUndefined();
    // Sent (the frame cannot know it is not needed), not used: still there for an export.
    expect(keyMaterialCalls(server).at(-1)?.body.mfa_token).toBe(token);
    expect(heldToken(frame)).toBe(token);
    expect(server.mfa.tokens.size).toBe(1);
  });

  it("with transaction protection: the key serves one signature, and one verification covers a short run of them", async () => {
    const { server, storage, address } = await enrolledWallet();
    server.mfa.protectTransactions(true);
    let now = Math.floor(Date.now() / 1000);
    server.mfa.setClock(() => now);
    const frame = createFrame(server, { storage });
    expect((await sign(frame, address)).error).toEqual(RETRY);

    await verify(frame);
    const token = heldToken(frame);
    const signed = await sign(frame, address);
    expect(signed.data).toEqual({
      response: { method: "personal_sign", data: expect.stringMatching(/^0x/) },
    });
    // The key was forgotten after that one signature (single_use) ...
    expect(frame.wallets.heldAddress(ALICE, ethereumWallet(address), 0)).toBeNull();
    // ... but the token was kept: the next signature asks the server again, with it, and needs no new code.
    expect(heldToken(frame)).toBe(token);
    const asked = keyMaterialCalls(server).length;
    expect((await sign(frame, address, "again")).error).toBeUndefined();
    expect(keyMaterialCalls(server)).toHaveLength(asked + 1);
    expect(keyMaterialCalls(server).at(-1)?.body.mfa_token).toBe(token);

    // Past the window the server refuses it: the frame drops it and the host asks for a verification.
    now += MFA_SIGNING_WINDOW_S;
    expect((await sign(frame, address, "late")).error).toEqual(RETRY);
    expect(heldToken(frame)).toBeNull();
    await verify(frame);
    expect((await sign(frame, address, "late")).error).toBeUndefined();
  });

  it("one verification signs at most MFA_SIGNING_USES times", async () => {
    const { server, storage, address } = await enrolledWallet();
    server.mfa.protectTransactions(true);
    const frame = createFrame(server, { storage });
    await verify(frame);
    for (let n = 1; n <= MFA_SIGNING_USES; n += 1) {
      expect((await sign(frame, address, `message ${n}`)).error).toBeUndefined();
    }
    expect((await sign(frame, address, "one too many")).error).toEqual(RETRY);
    expect(heldToken(frame)).toBeNull();
  });

  it("a single-use key unlocked by privy:wallets:connect serves the next signature only", async () => {
    const { server, storage, address } = await enrolledWallet();
    server.mfa.protectTransactions(true);
    const frame = createFrame(server, { storage });
    await verify(frame);
    expect(await frame.call("privy:wallets:connect", { accessToken: alice, ...entropy(address) })).toEqual({
      entropyId: address,
    });
    const asked = keyMaterialCalls(server).length;
    expect((await sign(frame, address)).error).toBeUndefined();
    expect(keyMaterialCalls(server)).toHaveLength(asked);
    expect(frame.wallets.heldAddress(ALICE, ethereumWallet(address), 0)).toBeNull();
    // The next signature fetches the key again (with the kept token).
    expect((await sign(frame, address)).error).toBeUndefined();
    expect(keyMaterialCalls(server)).toHaveLength(asked + 1);
  });

  it("two concurrent signatures on one verification both sign, each with its own key release", async () => {
    const { server, storage, address } = await enrolledWallet();
    server.mfa.protectTransactions(true);
    const frame = createFrame(server, { storage });
    await verify(frame);
    const asked = keyMaterialCalls(server).length;
    const answers = await Promise.all([sign(frame, address, "one"), sign(frame, address, "two")]);
    expect(answers.map((a) => a.error ?? "signed")).toEqual(["signed", "signed"]);
    expect(keyMaterialCalls(server).length).toBeGreaterThan(asked);
  });

  it("enrolling MFA forgets the wallet unlocked before, so the server's guard applies at once", async () => {
    const server = createFakeServer();
    const frame = createFrame(server);
    const { address } = await frame.call<{ address: string }>("privy:wallet:create", { accessToken: alice });
    server.mfa.protectTransactions(true);
    // Unlocked in memory since the creation: signs without the server.
    expect((await sign(frame, address)).error).toBeUndefined();
    await frame.call("privy:mfa:submit-enrollment", { accessToken: alice, method: "totp", mfaCode: CODE });
    expect(frame.wallets.heldAddress(ALICE, ethereumWallet(address), 0)).toBeNull();
    expect((await sign(frame, address)).error).toEqual(RETRY);
  });
});

describe("a wallet event carrying an MFA code (the published client's retry)", () => {
  const totp = (mfaCode: string) => ({ mfaMethod: "totp", mfaCode, relyingParty: HOST });
  const paths = (server: FakeServer, from: number) =>
    server.calls.slice(from).map((c) => c.path.split("/").at(-1));

  it("privy:wallets:rpc under transaction protection: refused, then signed once re-sent with the right code", async () => {
    const { server, storage, address } = await enrolledWallet();
    server.mfa.protectTransactions(true);
    const frame = createFrame(server, { storage });
    expect((await sign(frame, address)).error).toEqual(RETRY);

    const before = server.calls.length;
    const signed = await sign(frame, address, "hi", totp(CODE));
    expect(signed.error).toBeUndefined();
    const { data } = (signed.data as { response: { data: `0x${string}` } }).response;
    expect(await verifyMessage({ address: address, message: "hi", signature: data })).toBe(true);
    // Verified first (the code, not the relying party, goes to the server), then the key release with
    // the token it gave.
    expect(paths(server, before)).toEqual(["verify", "challenge", "key_material"]);
    expect(server.calls[before]?.body).toEqual({ method: "totp", code: CODE });
    const token = heldToken(frame);
    expect(token).toMatch(/^mfa-token-/);
    expect(keyMaterialCalls(server).at(-1)?.body.mfa_token).toBe(token);
    // Kept for the signing window, never answered to the host.
    expect(JSON.stringify(frame.posted)).not.toContain(token);
    expect((await sign(frame, address, "again")).error).toBeUndefined();
    expect(keyMaterialCalls(server).at(-1)?.body.mfa_token).toBe(token);
  });

  it("a wrong code answers missing_or_invalid_mfa with the screen's text, and nothing is released", async () => {
    const { server, storage, address } = await enrolledWallet();
    server.mfa.protectTransactions(true);
    const frame = createFrame(server, { storage });
    const before = server.calls.length;
    expect((await sign(frame, address, "hi", totp("000000"))).error).toEqual(WRONG_CODE);
    expect(paths(server, before)).toEqual(["verify"]);
    expect(heldToken(frame)).toBeNull();
    expect(frame.wallets.heldAddress(ALICE, ethereumWallet(address), 0)).toBeNull();
    // The server's lock-out is passed on as it is for privy:mfa:verify.
    server.failNext(429, "too_many_requests", "Locked", { "retry-after": "30" });
    expect((await sign(frame, address, "hi", totp(CODE))).error).toEqual({
      type: "mfa_verification_max_attempts_reached",
      message: "Max MFA verification attempts reached",
      retryAfterSeconds: 30,
    });
  });

  it("checks the token, the wallet fields and the code's form before spending the code", async () => {
    const { server, storage, address } = await enrolledWallet();
    const frame = createFrame(server, { storage });
    const before = server.calls.length;
    expect((await sign(frame, address, "hi", { ...totp(CODE), accessToken: undefined })).error).toEqual({
      type: "attempted_rpc_call_before_logged_in",
      message: "Missing access token",
    });
    expect((await sign(frame, address, "hi", { ...totp(CODE), hdWalletIndex: -1 })).error).toEqual({
      type: "invalid_input",
      message: "hdWalletIndex must be an integer ≥ 0",
    });
    expect((await sign(frame, address, "hi", totp("12345"))).error).toEqual({
      type: "invalid_input",
      message: "Invalid MFA code",
    });
    expect((await sign(frame, address, "hi", { mfaCode: CODE })).error).toEqual({
      type: "invalid_input",
      message: "Unsupported MFA method",
    });
    expect(server.calls).toHaveLength(before);
  });

  it("privy:wallets:recover with a code: verified, then the token goes with recovery: true and is used up", async () => {
    const { server, address } = await enrolledWallet();
    const phone = createFrame(server);
    const recover = { accessToken: alice, ...entropy(address) };
    expect((await phone.request("privy:wallets:recover", recover)).error).toEqual(RETRY);
    expect(await phone.call("privy:wallets:recover", { ...recover, ...totp(CODE) })).toEqual({
      entropyId: address,
    });
    const released = keyMaterialCalls(server).at(-1)?.body;
    expect(released).toMatchObject({ recovery: true, mfa_token: expect.stringMatching(/^mfa-token-/) });
    expect(heldToken(phone)).toBeNull();
    expect(server.mfa.tokens.size).toBe(0);
  });

  it("privy:wallets:connect and privy:wallets:add with a passkey assertion", async () => {
    const { server, storage, address } = await enrolledWallet();
    server.mfa.enroll(ALICE, "passkey");
    server.mfa.protectTransactions(true);
    const frame = createFrame(server, { storage });
    const assertion = { id: PASSKEY_ID, raw_id: PASSKEY_ID, response: {}, type: "public-key" };
    const passkey = { mfaMethod: "passkey", mfaCode: assertion, relyingParty: HOST };
    expect(
      (
        await frame.request("privy:wallets:add", {
          accessToken: alice,
          ...entropy(address),
          hdWalletIndex: 1,
        })
      ).error,
    ).toEqual(RETRY);
    const before = server.calls.length;
    const added = await frame.call<{ address: string; walletIndex: number }>("privy:wallets:add", {
      accessToken: alice,
      ...entropy(address),
      hdWalletIndex: 1,
      ...passkey,
    });
    expect(added.walletIndex).toBe(1);
    expect(server.calls[before]).toMatchObject({
      path: "/api/v1/mfa/verify",
      body: { method: "passkey", authenticator_response: assertion },
    });
    // The single-use key served the proof of the new wallet and is gone.
    expect(frame.wallets.heldAddress(ALICE, ethereumWallet(address), 0)).toBeNull();

    const reloaded = createFrame(server, { storage });
    expect(
      await reloaded.call("privy:wallets:connect", { accessToken: alice, ...entropy(address), ...passkey }),
    ).toEqual({ entropyId: address });
    expect(reloaded.wallets.heldAddress(ALICE, ethereumWallet(address), 0)).toBe(address);
  });

  it("privy:wallet:create with a code verifies first and keeps the token", async () => {
    const server = createFakeServer();
    server.mfa.enroll(ALICE, "totp");
    const frame = createFrame(server);
    const created = await frame.call<{ address: string }>("privy:wallet:create", {
      accessToken: alice,
      ...totp(CODE),
    });
    expect(created.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(paths(server, 0)).toEqual(["verify", "challenge", "embedded_wallets"]);
    expect(heldToken(frame)).toMatch(/^mfa-token-/);
  });
});
