import { type Hex, verifyMessage } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { fromBase64 } from "./base64.ts";
import { createFakeServer } from "./test/fakeServer.ts";
import {
  brokenStorage,
  createFrame,
  entropy,
  ethereumWallet,
  memoryStorage,
  NOT_ON_DEVICE,
  VERIFIER,
} from "./test/frameHarness.ts";
import { loadWasm } from "./test/loadWasm.ts";
import { accessToken } from "./test/tokens.ts";

beforeAll(loadWasm);

const ALICE = "did:privy:alice";
const alice = accessToken(ALICE);
const bob = accessToken("did:privy:bob");
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** A well-formed address no test user owns. */
const STRANGER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

type Created = { address: string; walletIndex: number; user: { linked_accounts: { address: string }[] } };

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
    expect(
      await frame.call("privy:wallets:connect", { accessToken: alice, ...entropy(created.address) }),
    ).toEqual({ entropyId: created.address });
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
    expect(
      await frame.call("privy:wallets:connect", { accessToken: alice, ...entropy(created.address) }),
    ).toEqual({ entropyId: created.address });
    expect(
      (
        await createFrame(server, { storage }).request("privy:wallets:connect", {
          accessToken: alice,
          ...entropy(created.address),
        })
      ).error,
    ).toEqual(NOT_ON_DEVICE);
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

describe("privy:wallets:connect and privy:wallets:recover", () => {
  it("unlocks after a reload from the device share and the server's auth share", async () => {
    const server = createFakeServer();
    const storage = memoryStorage();
    const { address } = await createFrame(server, { storage }).call<Created>("privy:wallet:create", {
      accessToken: alice,
    });
    const reloaded = createFrame(server, { storage });
    // Named in lower case, answered with the checksummed root address.
    expect(
      await reloaded.call("privy:wallets:connect", {
        accessToken: alice,
        ...entropy(address.toLowerCase()),
      }),
    ).toEqual({ entropyId: address });
    expect(server.calls.at(-1)?.path).toBe(
      `/api/v1/embedded_wallets/${address.toLowerCase()}/recovery/key_material`,
    );
    expect(server.calls.at(-1)?.body).toEqual({
      chain_type: "ethereum",
      nonce: expect.any(String),
      device_signature: expect.any(String),
    });
  });

  it("on another device fails wallet_not_on_device, then recovers the same entropy and re-splits", async () => {
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
    const before = server.calls.length;
    const connect = await phone.request("privy:wallets:connect", { accessToken: alice, ...entropy(address) });
    expect(connect.error).toEqual(NOT_ON_DEVICE);
    expect(connect).not.toHaveProperty("data");
    // Nothing to prove with on this device: the server was not asked.
    expect(server.calls).toHaveLength(before);
    expect(await phone.call("privy:wallets:recover", { accessToken: alice, ...entropy(address) })).toEqual({
      entropyId: address,
    });

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
    expect(
      await phoneReloaded.call("privy:wallets:connect", { accessToken: alice, ...entropy(address) }),
    ).toEqual({ entropyId: address });
    const laptop = createFrame(server, { storage: laptopStorage });
    expect(
      (await laptop.request("privy:wallets:connect", { accessToken: alice, ...entropy(address) })).error,
    ).toEqual(NOT_ON_DEVICE);
    expect(laptop.wallets.heldAddress(ALICE, ethereumWallet(address), 0)).toBeNull();
  });

  it("treats a device share of another user as absent", async () => {
    const server = createFakeServer();
    const storage = memoryStorage();
    await createFrame(server, { storage }).call("privy:wallet:create", { accessToken: alice });
    const bobs = await createFrame(server).call<Created>("privy:wallet:create", { accessToken: bob });
    expect(
      (
        await createFrame(server, { storage }).request("privy:wallets:connect", {
          accessToken: bob,
          ...entropy(bobs.address),
        })
      ).error,
    ).toEqual(NOT_ON_DEVICE);
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
    const phone = createFrame(server);
    const answer = await phone.request("privy:wallets:recover", { accessToken: alice, ...entropy(address) });
    expect(answer.error).toEqual({
      type: "embedded_wallet_recovery_error",
      message: `The recovered wallet does not match ${address}`,
    });
    expect(phone.wallets.heldAddress(ALICE, ethereumWallet(address), 0)).toBeNull();
    expect(server.calls.some((c) => c.path.endsWith("/shares"))).toBe(false);
  });

  it("cannot recover automatically without a recovery share", async () => {
    const server = createFakeServer();
    const { address } = await createFrame(server).call<Created>("privy:wallet:create", {
      accessToken: alice,
    });
    const user = server.users.get("did:privy:alice");
    if (user) user.recoveryMethod = "user-passcode";
    const answer = await createFrame(server).request("privy:wallets:recover", {
      accessToken: alice,
      ...entropy(address),
    });
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
    const connect = await createFrame(server, { storage }).request("privy:wallets:connect", {
      accessToken: alice,
      ...entropy(other),
    });
    expect(connect.error).toEqual({
      type: "embedded_wallet_request_error",
      message: "Linked account not found",
    });
    const recover = await createFrame(server).request("privy:wallets:recover", {
      accessToken: alice,
      ...entropy(other),
    });
    expect(recover.error).toEqual({
      type: "embedded_wallet_recovery_error",
      message: "Linked account not found",
    });
  });

  it("checks the token first, then the entropyId and its verifier, before any server call", async () => {
    const server = createFakeServer();
    const frame = createFrame(server);
    const invalid = (message: string) => ({ type: "invalid_input", message });
    for (const event of ["privy:wallets:connect", "privy:wallets:recover"]) {
      const errorOf = async (data: Record<string, unknown>) => (await frame.request(event, data)).error;
      // A missing or unreadable token wins over bad fields.
      expect(await errorOf({ ...entropy("0x12"), entropyIdVerifier: "other" })).toEqual({
        type: "attempted_rpc_call_before_logged_in",
        message: "Missing access token",
      });
      expect(await errorOf({ accessToken: "", ...entropy(STRANGER) })).toEqual({
        type: "attempted_rpc_call_before_logged_in",
        message: "Missing access token",
      });
      expect(await errorOf({ accessToken: "not-a-jwt", ...entropy("0x12") })).toEqual(
        invalid("Invalid access token"),
      );
      expect(await errorOf({ accessToken: alice, ...entropy("0x12") })).toEqual(
        invalid("Invalid entropyId: 0x12"),
      );
      for (const entropyId of [undefined, 42, STRANGER.slice(2), `${STRANGER}00`, `0x${"g".repeat(40)}`]) {
        expect(await errorOf({ accessToken: alice, entropyId, entropyIdVerifier: VERIFIER })).toEqual(
          invalid(`Invalid entropyId: ${String(entropyId)}`),
        );
      }
      expect(
        await errorOf({
          accessToken: alice,
          entropyId: STRANGER,
          entropyIdVerifier: "solana-address-verifier",
        }),
      ).toEqual(
        invalid(
          "Unsupported entropyIdVerifier: solana-address-verifier (expected ethereum-address-verifier)",
        ),
      );
      // The old shape ({address}) names no entropy.
      expect(await errorOf({ accessToken: alice, address: STRANGER })).toEqual(
        invalid("Unsupported entropyIdVerifier: undefined (expected ethereum-address-verifier)"),
      );
    }
    expect(server.calls).toHaveLength(0);
  });

  it("refuses another index's address named as the entropyId (invalid_input), unlocking nothing", async () => {
    const server = createFakeServer();
    const storage = memoryStorage();
    const laptop = createFrame(server, { storage });
    const root = await laptop.call<Created>("privy:wallet:create", { accessToken: alice });
    const { address: second } = await laptop.call<Created>("privy:wallets:add", {
      accessToken: alice,
      ...entropy(root.address),
      hdWalletIndex: 1,
    });
    const notRoot = {
      type: "invalid_input",
      message: `${second} is not the address of a wallet's index 0 (entropyId)`,
    };
    // With the device share (the server releases index 1's key material): refused.
    const reloaded = createFrame(server, { storage });
    expect(
      (await reloaded.request("privy:wallets:connect", { accessToken: alice, ...entropy(second) })).error,
    ).toEqual(notRoot);
    expect(reloaded.wallets.heldAddress(ALICE, ethereumWallet(second), 0)).toBeNull();
    expect(reloaded.wallets.heldAddress(ALICE, ethereumWallet(root.address), 0)).toBeNull();
    // Already holding the root in memory does not make index 1 a name for it either.
    expect(
      (await laptop.request("privy:wallets:connect", { accessToken: alice, ...entropy(second) })).error,
    ).toEqual(notRoot);
    expect(laptop.wallets.heldAddress(ALICE, ethereumWallet(second), 0)).toBeNull();
    expect(
      (
        await laptop.request("privy:wallets:rpc", {
          accessToken: alice,
          ...entropy(second),
          hdWalletIndex: 0,
          request: { method: "personal_sign", params: ["hi"] },
        })
      ).error,
    ).toEqual(notRoot);
    // On a new device: the recovery is refused before it rebuilds or uploads anything.
    const phone = createFrame(server);
    expect(
      (await phone.request("privy:wallets:connect", { accessToken: alice, ...entropy(second) })).error,
    ).toEqual(NOT_ON_DEVICE);
    const shares = server.users.get(ALICE)?.authShare;
    expect(
      (await phone.request("privy:wallets:recover", { accessToken: alice, ...entropy(second) })).error,
    ).toEqual(notRoot);
    expect(server.calls.some((c) => c.path.endsWith("/shares"))).toBe(false);
    expect(server.users.get(ALICE)?.authShare).toBe(shares);
    expect(phone.storage.getItem(`symbolon:wallet:device-share:${ALICE}`)).toBeNull();
  });

  it("the old event names are gone", async () => {
    const server = createFakeServer();
    const frame = createFrame(server);
    for (const event of ["privy:connect", "privy:recover", "privy:rpc", "privy:clear"]) {
      expect(
        (
          await frame.request(event, {
            accessToken: alice,
            address: STRANGER,
            request: { method: "personal_sign" },
          })
        ).error,
      ).toEqual({ type: "embedded_wallet_request_error", message: `Unsupported event: ${event}` });
    }
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
      ...entropy(first.address),
      hdWalletIndex: 1,
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
    // Index 1 is derived from the root entropy: a recovery of the root on another device signs
    // for it again.
    const phone = createFrame(server);
    expect(
      await phone.call("privy:wallets:recover", { accessToken: alice, ...entropy(first.address) }),
    ).toEqual({ entropyId: first.address });
    const signed = await phone.call<{ response: { method: string; data: Hex } }>("privy:wallets:rpc", {
      accessToken: alice,
      ...entropy(first.address),
      hdWalletIndex: 1,
      request: { method: "personal_sign", params: ["index one", second.address] },
    });
    expect(
      await verifyMessage({
        address: second.address as Hex,
        message: "index one",
        signature: signed.response.data,
      }),
    ).toBe(true);
  });

  it("unlocks from the device share first after a reload", async () => {
    const server = createFakeServer();
    const storage = memoryStorage();
    const { address } = await createFrame(server, { storage }).call<Created>("privy:wallet:create", {
      accessToken: alice,
    });
    const before = server.calls.length;
    const added = await createFrame(server, { storage }).call<Created>("privy:wallets:add", {
      accessToken: alice,
      ...entropy(address),
      hdWalletIndex: 1,
    });
    expect(added.walletIndex).toBe(1);
    expect(added.address).not.toBe(address);
    // Device share + auth share (device-signed), no recovery.
    expect(server.calls.slice(before).map((c) => c.path.split("/").at(-1))).toEqual([
      "challenge",
      "key_material",
      "challenge",
      "embedded_wallets",
    ]);
    expect(server.calls.some((c) => c.body.recovery === true)).toBe(false);
  });

  it("unlocks the entropy by recovery on a new device, and fails with the server's message when it cannot", async () => {
    const server = createFakeServer();
    const { address } = await createFrame(server).call<Created>("privy:wallet:create", {
      accessToken: alice,
    });
    const added = await createFrame(server).call<Created>("privy:wallets:add", {
      accessToken: alice,
      ...entropy(address),
      hdWalletIndex: 1,
    });
    expect(added.walletIndex).toBe(1);
    expect(server.calls.some((c) => c.path.endsWith("/shares"))).toBe(true);

    const stranger = createFakeServer();
    expect(
      (
        await createFrame(stranger).request("privy:wallets:add", {
          accessToken: alice,
          ...entropy(address),
          hdWalletIndex: 1,
        })
      ).error,
    ).toEqual({ type: "embedded_wallet_recovery_error", message: "Linked account not found" });
    expect(stranger.calls.some((c) => c.path === "/api/v1/embedded_wallets")).toBe(false);
  });

  it("checks the token first, then the entropy and an hdWalletIndex ≥ 1, before any server call", async () => {
    const server = createFakeServer();
    const frame = createFrame(server);
    const errorOf = async (data: Record<string, unknown>) =>
      (await frame.request("privy:wallets:add", data)).error;
    expect(await errorOf({ ...entropy("0x12"), hdWalletIndex: 0 })).toEqual({
      type: "attempted_rpc_call_before_logged_in",
      message: "Missing access token",
    });
    expect(
      await errorOf({ accessToken: alice, chainType: "solana", ...entropy(STRANGER), hdWalletIndex: 1 }),
    ).toEqual({ type: "invalid_input", message: "Unsupported chain type: solana" });
    expect(await errorOf({ accessToken: alice, entropyId: STRANGER, hdWalletIndex: 1 })).toEqual({
      type: "invalid_input",
      message: "Unsupported entropyIdVerifier: undefined (expected ethereum-address-verifier)",
    });
    expect(await errorOf({ accessToken: alice, ...entropy("0x12"), hdWalletIndex: 1 })).toEqual({
      type: "invalid_input",
      message: "Invalid entropyId: 0x12",
    });
    // The old field (walletIndex) counts for nothing.
    for (const hdWalletIndex of [0, -1, 1.5, "1", undefined, null, 2 ** 31, Number.NaN]) {
      expect(
        await errorOf({ accessToken: alice, ...entropy(STRANGER), hdWalletIndex, walletIndex: 1 }),
      ).toEqual({
        type: "invalid_input",
        message: "hdWalletIndex must be an integer ≥ 1",
      });
    }
    expect(server.calls).toHaveLength(0);
  });
});
