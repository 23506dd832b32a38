import { beforeAll, describe, expect, it } from "vitest";
import { fromBase64 } from "./base64.ts";
import { generateDeviceKey, signWithDeviceKey } from "./deviceKeys.ts";
import { unlockMessage } from "./proofs.ts";
import { createFakeServer, deviceSigned } from "./test/fakeServer.ts";
import { createFrame, entropy, ethereumWallet, memoryStorage, NOT_ON_DEVICE } from "./test/frameHarness.ts";
import { loadWasm } from "./test/loadWasm.ts";
import { accessToken } from "./test/tokens.ts";

beforeAll(loadWasm);

const alice = accessToken("did:privy:alice");

describe("device key", () => {
  it("is a non-extractable P-256 key whose raw public point is registered", async () => {
    const key = await generateDeviceKey();
    expect(key.privateKey.extractable).toBe(false);
    expect(key.privateKey.algorithm).toMatchObject({ name: "ECDSA", namedCurve: "P-256" });
    await expect(crypto.subtle.exportKey("pkcs8", key.privateKey)).rejects.toThrow();
    const point = fromBase64(key.publicKey);
    expect([point.length, point[0]]).toEqual([65, 4]);
    const signature = await signWithDeviceKey(key, "hello");
    expect(fromBase64(signature)).toHaveLength(64);
    expect(await deviceSigned(key.publicKey, "hello", signature)).toBe(true);
  });

  it("created with the wallet, sent with the shares, and kept for this user", async () => {
    const server = createFakeServer();
    const frame = createFrame(server);
    await frame.call("privy:wallet:create", { accessToken: alice });
    const stored = await frame.keys.get("did:privy:alice");
    expect(stored?.privateKey.extractable).toBe(false);
    expect(server.calls[1]?.body.device_public_key).toBe(stored?.publicKey);
    expect(server.users.get("did:privy:alice")?.devicePublicKey).toBe(stored?.publicKey);
  });

  it("signs the server's challenge to unlock after a reload", async () => {
    const server = createFakeServer();
    const storage = memoryStorage();
    const { address } = await createFrame(server, { storage }).call<{ address: string }>(
      "privy:wallet:create",
      {
        accessToken: alice,
      },
    );
    const reloaded = createFrame(server, { storage });
    expect(await reloaded.call("privy:wallets:connect", { accessToken: alice, ...entropy(address) })).toEqual(
      {
        entropyId: address,
      },
    );
    const [challenge, material] = server.calls.slice(-2);
    expect(challenge?.body).toEqual({ chain_type: "ethereum", purpose: "key_material" });
    const nonce = material?.body.nonce as string;
    const key = await reloaded.keys.get("did:privy:alice");
    expect(
      await deviceSigned(
        key?.publicKey ?? "",
        unlockMessage("app", "did:privy:alice", address, nonce),
        material?.body.device_signature as string,
      ),
    ).toBe(true);
    // Nothing asked for the recovery share.
    expect(server.calls.some((c) => c.body.recovery === true)).toBe(false);
  });

  it("a device whose key the server does not know recovers instead, and registers a new key", async () => {
    const server = createFakeServer();
    const storage = memoryStorage();
    const { address } = await createFrame(server, { storage }).call<{ address: string }>(
      "privy:wallet:create",
      {
        accessToken: alice,
      },
    );
    const registered = server.users.get("did:privy:alice")?.devicePublicKey;
    const phone = createFrame(server);
    expect(
      (await phone.request("privy:wallets:connect", { accessToken: alice, ...entropy(address) })).error,
    ).toEqual(NOT_ON_DEVICE);
    await phone.call("privy:wallets:recover", { accessToken: alice, ...entropy(address) });
    const phoneKey = await phone.keys.get("did:privy:alice");
    expect(server.users.get("did:privy:alice")?.devicePublicKey).toBe(phoneKey?.publicKey);
    expect(phoneKey?.publicKey).not.toBe(registered);
    // The laptop's key is refused now (invalid_credentials), so it needs recovery too.
    const laptop = createFrame(server, { storage });
    expect(
      (await laptop.request("privy:wallets:connect", { accessToken: alice, ...entropy(address) })).error,
    ).toEqual(NOT_ON_DEVICE);
    expect(server.calls.at(-1)?.path).toBe(`/api/v1/embedded_wallets/${address}/recovery/key_material`);
    expect(laptop.wallets.heldAddress("did:privy:alice", ethereumWallet(address), 0)).toBeNull();
  });

  it("passes on the step-up refusal when the sign-in is too old to recover", async () => {
    const server = createFakeServer();
    const { address } = await createFrame(server).call<{ address: string }>("privy:wallet:create", {
      accessToken: alice,
    });
    server.allowRecovery(false);
    const answer = await createFrame(server).request("privy:wallets:recover", {
      accessToken: alice,
      ...entropy(address),
    });
    expect(answer.error).toEqual({
      type: "embedded_wallet_recovery_error",
      message: "Sign in again to recover your wallet on this device",
    });
  });
});

describe("unlocked wallets belong to the session", () => {
  const sign = (frame: ReturnType<typeof createFrame>, token: string, address: string) =>
    frame.request("privy:wallets:rpc", {
      accessToken: token,
      ...entropy(address),
      hdWalletIndex: 0,
      request: { method: "personal_sign", params: ["hi", address] },
    });

  it("are forgotten when a request comes with an expired token", async () => {
    const server = createFakeServer();
    const frame = createFrame(server);
    const { address } = await frame.call<{ address: string }>("privy:wallet:create", { accessToken: alice });
    expect((await sign(frame, alice, address)).error).toBeUndefined();
    const expired = accessToken("did:privy:alice", { exp: Math.floor(Date.now() / 1000) - 1 });
    expect((await sign(frame, expired, address)).error).toEqual({
      type: "attempted_rpc_call_before_logged_in",
      message: "Access token expired",
    });
    expect(frame.wallets.heldAddress("did:privy:alice", ethereumWallet(address), 0)).toBeNull();
    // A valid token unlocks again through the server (challenge + key material).
    const before = server.calls.length;
    expect((await sign(frame, alice, address)).error).toBeUndefined();
    expect(server.calls.length).toBe(before + 2);
  });

  it("are forgotten when the session (sid) changes", async () => {
    const server = createFakeServer();
    const frame = createFrame(server);
    const { address } = await frame.call<{ address: string }>("privy:wallet:create", { accessToken: alice });
    const before = server.calls.length;
    expect((await sign(frame, alice, address)).error).toBeUndefined();
    expect(server.calls.length).toBe(before);
    const next = accessToken("did:privy:alice", { sid: "session-2" });
    expect((await sign(frame, next, address)).error).toBeUndefined();
    expect(server.calls.slice(before).map((c) => c.path.split("/").at(-1))).toEqual([
      "challenge",
      "key_material",
    ]);
  });
});
