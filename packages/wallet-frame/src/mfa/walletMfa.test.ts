// What MFA changes for the wallet operations: the held token goes with key material (export,
// recovery, signing under transaction protection), is dropped once used, and a single-use key
// serves one operation.

import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { MFA_SIGNING_USES, MFA_SIGNING_WINDOW_S } from "../../../core/src/generated/protocol.ts";
import { exportHandlers } from "../export/exportHandlers.ts";
import type { ExportView } from "../export/exportView.ts";
import { CODE } from "../test/fakeMfa.ts";
import { createFakeServer, type FakeServer } from "../test/fakeServer.ts";
import { createFrame, memoryStorage } from "../test/frameHarness.ts";
import { loadWasm } from "../test/loadWasm.ts";
import { accessToken } from "../test/tokens.ts";

beforeAll(loadWasm);

const ALICE = "did:privy:alice";
const alice = accessToken(ALICE);
const TOKEN_KEY = `symbolon:mfa:app:${ALICE}`;
const RETRY = { type: "missing_or_invalid_mfa", message: "MFA verification failed, retry." };

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
const sign = (frame: Frame, address: string, message = "hi") =>
  frame.request("privy:rpc", {
    accessToken: alice,
    address,
    request: { method: "personal_sign", params: [message, address] },
  });

/** Export page handlers for `address` and what its view was shown. */
function exportPage(address: string) {
  const seen = { readKey: null as (() => string) | null, errors: [] as string[] };
  const view: ExportView = {
    enableReveal: (read) => {
      seen.readKey = read;
    },
    showError: (message) => seen.errors.push(message),
  };
  return { seen, handlers: (w: Parameters<typeof exportHandlers>[0]) => exportHandlers(w, address, view) };
}

describe("export with MFA", () => {
  it("asks for MFA, then sends intent export with the token the wallet frame kept, and drops it", async () => {
    const { server, storage, address } = await enrolledWallet();
    const { seen, handlers } = exportPage(address);
    // One tab: the hidden frame and the export page share the origin's sessionStorage.
    const session = memoryStorage();
    const hidden = createFrame(server, { storage, session });
    const page = createFrame(server, { storage, session, handlers });

    expect((await page.request("privy:wallet:export", { accessToken: alice, address })).error).toEqual(RETRY);
    expect(seen.errors).toEqual([]);
    expect(keyMaterialCalls(server).at(-1)?.body).toMatchObject({ intent: "export" });
    expect(keyMaterialCalls(server).at(-1)?.body).not.toHaveProperty("mfa_token");

    await verify(hidden);
    const token = heldToken(hidden);
    expect(await page.call("privy:wallet:export", { accessToken: alice, address })).toEqual({});
    expect(keyMaterialCalls(server).at(-1)?.body).toMatchObject({ intent: "export", mfa_token: token });
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
    expect((await phone.request("privy:recover", { accessToken: alice, address })).error).toEqual(RETRY);
    await verify(phone);
    const token = heldToken(phone);
    expect(await phone.call("privy:recover", { accessToken: alice, address })).toEqual({ address });
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
    expect((await phone.request("privy:recover", { accessToken: alice, address })).error).toEqual({
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
    expect((await phone.request("privy:recover", { accessToken: alice, address })).error).toEqual(RETRY);
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
    expect(signed.data).toMatchObject({ method: "personal_sign", data: expect.stringMatching(/^0x/) });
    // The key was forgotten after that one signature (single_use) ...
    expect(frame.wallets.signer(ALICE, address)).toBeNull();
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

  it("a single-use key unlocked by privy:connect serves the next signature only", async () => {
    const { server, storage, address } = await enrolledWallet();
    server.mfa.protectTransactions(true);
    const frame = createFrame(server, { storage });
    await verify(frame);
    expect(await frame.call("privy:connect", { accessToken: alice, address })).toEqual({
      address,
      unlocked: true,
    });
    const asked = keyMaterialCalls(server).length;
    expect((await sign(frame, address)).error).toBeUndefined();
    expect(keyMaterialCalls(server)).toHaveLength(asked);
    expect(frame.wallets.signer(ALICE, address)).toBeNull();
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
    expect(frame.wallets.signer(ALICE, address)).toBeNull();
    expect((await sign(frame, address)).error).toEqual(RETRY);
  });
});
