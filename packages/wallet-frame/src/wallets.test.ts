import { beforeAll, describe, expect, it } from "vitest";
import { fromBase64 } from "./base64.ts";
import { createFakeServer } from "./test/fakeServer.ts";
import { brokenStorage, createFrame, memoryStorage } from "./test/frameHarness.ts";
import { loadWasm } from "./test/loadWasm.ts";
import { accessToken } from "./test/tokens.ts";

beforeAll(loadWasm);

const alice = accessToken("did:privy:alice");
const bob = accessToken("did:privy:bob");
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

type Created = { address: string; walletIndex: number; user: { linked_accounts: { address: string }[] } };
type Connected = { address: string; unlocked: boolean; needsRecovery?: boolean };

describe("privy:wallet:create", () => {
  it("creates a wallet, gives the server the auth and recovery shares, keeps the device share", async () => {
    const server = createFakeServer();
    const frame = createFrame(server);
    const created = await frame.call<Created>("privy:wallet:create", {
      accessToken: alice,
      chainType: "ethereum",
      recoveryMethod: "privy",
    });
    expect(created.address).toMatch(ADDRESS);
    expect(created.walletIndex).toBe(0);
    expect(created.user.linked_accounts.map((a) => a.address)).toEqual([created.address]);

    expect(server.calls.map((c) => c.path)).toEqual([
      "/api/v1/embedded_wallets/challenge",
      "/api/v1/embedded_wallets",
    ]);
    const call = server.calls[1];
    expect(call?.headers).toMatchObject({
      authorization: `Bearer ${alice}`,
      "content-type": "application/json",
      "privy-app-id": "app",
    });
    expect(call?.body).toMatchObject({
      chain_type: "ethereum",
      address: created.address,
      wallet_index: 0,
      recovery_method: "privy",
    });
    // Standard base64 of 17 share bytes whose first byte names the kind (auth 2, recovery 3).
    const auth = fromBase64(call?.body.auth_share as string);
    const recovery = fromBase64(call?.body.recovery_share as string);
    expect([auth.length, auth[0], recovery.length, recovery[0]]).toEqual([17, 2, 17, 3]);

    const stored = frame.storage.getItem("symbolon:wallet:device-share:did:privy:alice");
    expect(JSON.parse(stored ?? "{}").address).toBe(created.address);
    // The unlocked wallet connects without another server call.
    expect(await frame.call("privy:connect", { accessToken: alice, address: created.address })).toEqual({
      address: created.address,
      unlocked: true,
    });
    expect(server.calls).toHaveLength(2);
  });

  it("answers the server's message as embedded_wallet_creation_error and stores nothing", async () => {
    const server = createFakeServer();
    const frame = createFrame(server);
    server.failNext(400, "resource_already_exists", "The user already has an embedded wallet");
    const answer = await frame.request("privy:wallet:create", { accessToken: alice, chainType: "ethereum" });
    expect(answer.error).toEqual({
      type: "embedded_wallet_creation_error",
      message: "The user already has an embedded wallet",
    });
    expect(frame.storage.getItem("symbolon:wallet:device-share:did:privy:alice")).toBeNull();
  });

  it("fails with storage_error before calling the server when storage is unavailable", async () => {
    const server = createFakeServer();
    const frame = createFrame(server, { storage: brokenStorage() });
    const answer = await frame.request("privy:wallet:create", { accessToken: alice, chainType: "ethereum" });
    expect(answer.error).toEqual({ type: "storage_error", message: "Unable to access storage" });
    expect(server.calls).toHaveLength(0);
  });

  it("still answers the created wallet when only storing the device share fails", async () => {
    const server = createFakeServer();
    const inner = memoryStorage();
    const storage = {
      getItem: (key: string) => inner.getItem(key),
      setItem: (key: string, value: string) => {
        if (key.includes("device-share")) throw new DOMException("quota", "QuotaExceededError");
        inner.setItem(key, value);
      },
    };
    const frame = createFrame(server, { storage });
    const created = await frame.call<Created>("privy:wallet:create", { accessToken: alice });
    expect(created.address).toMatch(ADDRESS);
    // Unlocked in memory now; a later session finds no device share and recovers.
    expect(await frame.call("privy:connect", { accessToken: alice, address: created.address })).toMatchObject(
      {
        unlocked: true,
      },
    );
    expect(
      await createFrame(server, { storage }).call("privy:connect", {
        accessToken: alice,
        address: created.address,
      }),
    ).toMatchObject({
      needsRecovery: true,
    });
  });

  it("checks the token, chain type and recovery method", async () => {
    const frame = createFrame(createFakeServer());
    const errorOf = async (data: Record<string, unknown>) =>
      (await frame.request("privy:wallet:create", data)).error;
    expect(await errorOf({ chainType: "ethereum" })).toEqual({
      type: "attempted_rpc_call_before_logged_in",
      message: "Missing access token",
    });
    expect(await errorOf({ accessToken: "not-a-jwt" })).toEqual({
      type: "invalid_input",
      message: "Invalid access token",
    });
    expect(await errorOf({ accessToken: alice, chainType: "solana" })).toEqual({
      type: "invalid_input",
      message: "Unsupported chain type: solana",
    });
    expect(await errorOf({ accessToken: alice, recoveryMethod: "user-passcode" })).toEqual({
      type: "invalid_input",
      message: "Unsupported recovery method: user-passcode",
    });
  });
});

describe("privy:connect and privy:recover", () => {
  it("unlocks after a reload from the device share and the server's auth share", async () => {
    const server = createFakeServer();
    const storage = memoryStorage();
    const { address } = await createFrame(server, { storage }).call<Created>("privy:wallet:create", {
      accessToken: alice,
    });
    const reloaded = createFrame(server, { storage });
    expect(
      await reloaded.call("privy:connect", { accessToken: alice, address: address.toLowerCase() }),
    ).toEqual({
      address,
      unlocked: true,
    });
    expect(server.calls.at(-1)?.path).toBe(
      `/api/v1/embedded_wallets/${address.toLowerCase()}/recovery/key_material`,
    );
    expect(server.calls.at(-1)?.body).toEqual({
      chain_type: "ethereum",
      nonce: expect.any(String),
      device_signature: expect.any(String),
    });
  });

  it("on another device says needsRecovery, then recovers the same address and re-splits", async () => {
    const server = createFakeServer();
    const laptopStorage = memoryStorage();
    const { address } = await createFrame(server, { storage: laptopStorage }).call<Created>(
      "privy:wallet:create",
      {
        accessToken: alice,
      },
    );
    const oldShares = { ...server.users.get("did:privy:alice") };

    const phone = createFrame(server);
    expect(await phone.call<Connected>("privy:connect", { accessToken: alice, address })).toEqual({
      address,
      unlocked: false,
      needsRecovery: true,
    });
    expect(await phone.call("privy:recover", { accessToken: alice, address })).toEqual({ address });

    // New shares replaced the old ones on the server; the phone keeps its new device share.
    const upload = server.calls.at(-1);
    expect(upload?.path).toBe(`/api/v1/embedded_wallets/${address}/shares`);
    expect(upload?.body.chain_type).toBe("ethereum");
    const now = server.users.get("did:privy:alice");
    expect(now?.authShare).not.toBe(oldShares.authShare);
    expect(now?.recoveryShare).not.toBe(oldShares.recoveryShare);
    expect(
      JSON.parse(phone.storage.getItem("symbolon:wallet:device-share:did:privy:alice") ?? "{}").address,
    ).toBe(address);

    // The phone's share works after a reload; the laptop's old share no longer fits the new split.
    const phoneReloaded = createFrame(server, { storage: phone.storage });
    expect(await phoneReloaded.call("privy:connect", { accessToken: alice, address })).toEqual({
      address,
      unlocked: true,
    });
    const laptop = createFrame(server, { storage: laptopStorage });
    expect(await laptop.call("privy:connect", { accessToken: alice, address })).toEqual({
      address,
      unlocked: false,
      needsRecovery: true,
    });
  });

  it("treats a device share of another user as absent", async () => {
    const server = createFakeServer();
    const storage = memoryStorage();
    await createFrame(server, { storage }).call("privy:wallet:create", { accessToken: alice });
    const bobs = await createFrame(server).call<Created>("privy:wallet:create", { accessToken: bob });
    expect(
      await createFrame(server, { storage }).call("privy:connect", {
        accessToken: bob,
        address: bobs.address,
      }),
    ).toEqual({
      address: bobs.address,
      unlocked: false,
      needsRecovery: true,
    });
  });

  it("refuses a recovery whose shares rebuild another wallet", async () => {
    const server = createFakeServer();
    const { address } = await createFrame(server).call<Created>("privy:wallet:create", {
      accessToken: alice,
    });
    await createFrame(server).call("privy:wallet:create", { accessToken: bob });
    const alices = server.users.get("did:privy:alice");
    const bobs = server.users.get("did:privy:bob");
    if (!alices || !bobs) throw new Error("users missing");
    alices.authShare = bobs.authShare;
    alices.recoveryShare = bobs.recoveryShare;
    const answer = await createFrame(server).request("privy:recover", { accessToken: alice, address });
    expect(answer.error).toEqual({
      type: "embedded_wallet_recovery_error",
      message: `The recovered wallet does not match ${address}`,
    });
  });

  it("cannot recover automatically without a recovery share", async () => {
    const server = createFakeServer();
    const { address } = await createFrame(server).call<Created>("privy:wallet:create", {
      accessToken: alice,
    });
    const user = server.users.get("did:privy:alice");
    if (user) user.recoveryMethod = "user-passcode";
    const answer = await createFrame(server).request("privy:recover", { accessToken: alice, address });
    expect(answer.error).toEqual({
      type: "embedded_wallet_recovery_error",
      message: "Recovery method user-passcode cannot be used automatically",
    });
  });

  it("passes the server's message on when the key material is refused", async () => {
    const server = createFakeServer();
    const storage = memoryStorage();
    await createFrame(server, { storage }).call("privy:wallet:create", { accessToken: alice });
    const other = `0x${"11".repeat(20)}`;
    const connect = await createFrame(server, { storage }).request("privy:connect", {
      accessToken: alice,
      address: other,
    });
    expect(connect.error).toEqual({
      type: "embedded_wallet_request_error",
      message: "Linked account not found",
    });
    const recover = await createFrame(server).request("privy:recover", {
      accessToken: alice,
      address: other,
    });
    expect(recover.error).toEqual({
      type: "embedded_wallet_recovery_error",
      message: "Linked account not found",
    });
  });

  it("rejects a malformed address before any server call", async () => {
    const server = createFakeServer();
    const answer = await createFrame(server).request("privy:connect", {
      accessToken: alice,
      address: "0x12",
    });
    expect(answer.error).toEqual({ type: "invalid_input", message: "Invalid address: 0x12" });
    expect(server.calls).toHaveLength(0);
  });
});

describe("privy:wallets:add", () => {
  it("adds index 1 of the same entropy without new shares", async () => {
    const server = createFakeServer();
    const frame = createFrame(server);
    const first = await frame.call<Created>("privy:wallet:create", { accessToken: alice });
    const second = await frame.call<Created>("privy:wallets:add", {
      accessToken: alice,
      chainType: "ethereum",
      walletIndex: 1,
    });
    expect(second.address).toMatch(ADDRESS);
    expect(second.address).not.toBe(first.address);
    expect(second.walletIndex).toBe(1);
    expect(second.user.linked_accounts.map((a) => a.address)).toEqual([first.address, second.address]);
    expect(server.calls.at(-1)?.body).toEqual({
      chain_type: "ethereum",
      recovery_method: "privy",
      address: second.address,
      wallet_index: 1,
      nonce: expect.any(String),
      signature: expect.any(String),
      root_signature: expect.any(String),
    });
    // Index 1 is derived from the root entropy: a recovery on another device finds it again.
    const phone = createFrame(server);
    expect(await phone.call("privy:recover", { accessToken: alice, address: second.address })).toEqual({
      address: second.address,
    });
  });

  it("unlocks from the device share first after a reload", async () => {
    const server = createFakeServer();
    const storage = memoryStorage();
    await createFrame(server, { storage }).call("privy:wallet:create", { accessToken: alice });
    const added = await createFrame(server, { storage }).call<Created>("privy:wallets:add", {
      accessToken: alice,
      walletIndex: 1,
    });
    expect(added.walletIndex).toBe(1);
  });

  it("needs a connected wallet and a positive integer index", async () => {
    const frame = createFrame(createFakeServer());
    expect((await frame.request("privy:wallets:add", { accessToken: alice, walletIndex: 1 })).error).toEqual({
      type: "embedded_wallet_creation_error",
      message: "Wallet is not connected",
    });
    for (const walletIndex of [0, -1, 1.5, "1", undefined]) {
      expect((await frame.request("privy:wallets:add", { accessToken: alice, walletIndex })).error).toEqual({
        type: "invalid_input",
        message: "walletIndex must be a positive integer",
      });
    }
  });
});
