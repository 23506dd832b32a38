import {
  parseTransaction,
  recoverMessageAddress,
  recoverTransactionAddress,
  recoverTypedDataAddress,
  type TransactionSerializedEIP1559,
  verifyMessage,
} from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { createFakeServer, type FakeServer } from "./test/fakeServer.ts";
import { createFrame, entropy, ethereumWallet, memoryStorage, VERIFIER } from "./test/frameHarness.ts";
import { loadWasm } from "./test/loadWasm.ts";
import { accessToken } from "./test/tokens.ts";

beforeAll(loadWasm);

const ALICE = "did:privy:alice";
const alice = accessToken(ALICE);

type Signed = { method: string; data: `0x${string}` };

const typedData = {
  domain: {
    name: "Ether Mail",
    version: "1",
    chainId: 50312,
    verifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC",
  },
  types: {
    EIP712Domain: [
      { name: "name", type: "string" },
      { name: "version", type: "string" },
      { name: "chainId", type: "uint256" },
      { name: "verifyingContract", type: "address" },
    ],
    Person: [
      { name: "name", type: "string" },
      { name: "wallet", type: "address" },
    ],
    Mail: [
      { name: "from", type: "Person" },
      { name: "to", type: "Person" },
      { name: "contents", type: "string" },
      { name: "amount", type: "uint256" },
    ],
  },
  primaryType: "Mail",
  message: {
    from: { name: "Cow", wallet: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826" },
    to: { name: "Bob", wallet: "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB" },
    contents: "Hello, Bob!",
    amount: 10n ** 18n,
  },
} as const;

// viem types the EIP712Domain chainId as a bigint; the hash is the same.
const viemTypedData = typedData as unknown as Parameters<typeof recoverTypedDataAddress>[0];

async function unlockedFrame(server: FakeServer = createFakeServer()) {
  const frame = createFrame(server);
  const { address } = await frame.call<{ address: `0x${string}` }>("privy:wallet:create", {
    accessToken: alice,
  });
  /** `privy:wallets:rpc` as the published client posts it, for index `hdWalletIndex` of the wallet. */
  const rpc = (method: string, params: unknown[], token: string | null = alice, hdWalletIndex = 0) =>
    frame.request("privy:wallets:rpc", {
      accessToken: token ?? undefined,
      ...entropy(address),
      chainType: "ethereum",
      hdWalletIndex,
      request: { method, params },
    });
  /** The answer's `response`; fails the test on an error. */
  const sign = async (method: string, params: unknown[], hdWalletIndex = 0) => {
    const answer = await rpc(method, params, alice, hdWalletIndex);
    if (answer.error) throw new Error(`${answer.error.type}: ${answer.error.message}`);
    return (answer.data as { response: Signed }).response;
  };
  return { frame, server, address, rpc, sign };
}

describe("privy:wallets:rpc signing", () => {
  it("personal_sign of text gives a signature viem verifies, answered as {response: {method, data}}", async () => {
    const { address, rpc } = await unlockedFrame();
    const answer = await rpc("personal_sign", ["hello symbolon", address]);
    expect(answer).toEqual({
      id: answer.id,
      event: "privy:wallets:rpc",
      data: { response: { method: "personal_sign", data: expect.stringMatching(/^0x[0-9a-f]{130}$/) } },
    });
    const { data } = (answer.data as { response: Signed }).response;
    expect(await verifyMessage({ address, message: "hello symbolon", signature: data })).toBe(true);
  });

  it("personal_sign of 0x-hex signs the bytes", async () => {
    const { address, sign } = await unlockedFrame();
    const { data } = await sign("personal_sign", ["0xdeadbeef", address]);
    expect(await recoverMessageAddress({ message: { raw: "0xdeadbeef" }, signature: data })).toBe(address);
  });

  it("eth_signTypedData_v4 of an object (bigints included) and of its JSON text", async () => {
    const { address, sign } = await unlockedFrame();
    const fromObject = await sign("eth_signTypedData_v4", [address, typedData]);
    expect(await recoverTypedDataAddress({ ...viemTypedData, signature: fromObject.data })).toBe(address);
    const json = JSON.stringify(typedData, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
    const fromText = await sign("eth_signTypedData_v4", [address, json]);
    expect(fromText.data).toBe(fromObject.data);
  });

  it("eth_signTransaction answers a raw EIP-1559 transaction signed by the wallet", async () => {
    const { address, sign } = await unlockedFrame();
    const tx = {
      from: address,
      to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      value: "0xde0b6b3a7640000",
      nonce: 3,
      gas: 21000,
      maxFeePerGas: "0x3b9aca00",
      maxPriorityFeePerGas: "0x3b9aca00",
      chainId: 50312,
      type: "0x2",
    };
    const { method, data } = await sign("eth_signTransaction", [tx]);
    expect(method).toBe("eth_signTransaction");
    const parsed = parseTransaction(data);
    expect(parsed).toMatchObject({
      type: "eip1559",
      chainId: 50312,
      nonce: 3,
      value: 10n ** 18n,
      gas: 21000n,
    });
    expect(
      await recoverTransactionAddress({ serializedTransaction: data as TransactionSerializedEIP1559 }),
    ).toBe(address);
  });

  it("signs without touching the network once unlocked", async () => {
    const { address, server, sign } = await unlockedFrame();
    const before = server.calls.length;
    for (let i = 0; i < 20; i++) await sign("personal_sign", [`message ${i}`, address]);
    // Signing speed itself is measured by `make bench` (bench/wallet.mjs), not here.
    expect(server.calls.length).toBe(before);
  });

  it("unlocks a locked wallet first: from the device share, or by recovery on a new device", async () => {
    const server = createFakeServer();
    const storage = memoryStorage();
    const { address } = await createFrame(server, { storage }).call<{ address: `0x${string}` }>(
      "privy:wallet:create",
      {
        accessToken: alice,
      },
    );
    for (const frame of [createFrame(server, { storage }), createFrame(server)]) {
      const answer = await frame.call<{ response: Signed }>("privy:wallets:rpc", {
        accessToken: alice,
        ...entropy(address),
        hdWalletIndex: 0,
        request: { method: "personal_sign", params: ["after reload", address] },
      });
      expect(await verifyMessage({ address, message: "after reload", signature: answer.response.data })).toBe(
        true,
      );
    }
    expect(server.calls.map((c) => c.path.split("/").at(-1))).toEqual([
      "challenge",
      "embedded_wallets", // with the wallet key's proof
      "challenge",
      "key_material", // reload: device share + auth share (device-signed)
      "key_material", // new device: auth + recovery share (recovery: true),
      "challenge",
      "shares", // then re-split, with the root key's proof and a new device key
    ]);
  });

  it("signs with any index of the entropy, derived from the root, without the server registering it", async () => {
    const { frame, server, address, rpc, sign } = await unlockedFrame();
    const before = server.calls.length;
    const one = await sign("personal_sign", ["index one"], 1);
    const indexOne = await recoverMessageAddress({ message: "index one", signature: one.data });
    const five = await sign("personal_sign", ["index five"], 5);
    const indexFive = await recoverMessageAddress({ message: "index five", signature: five.data });
    expect(new Set([address, indexOne, indexFive]).size).toBe(3);
    const tx = {
      from: indexOne,
      to: address,
      value: "0x1",
      nonce: 0,
      gas: 21000,
      maxFeePerGas: "0x3b9aca00",
      maxPriorityFeePerGas: "0x3b9aca00",
      chainId: 50312,
      type: "0x2",
    };
    const signedTx = await sign("eth_signTransaction", [tx], 1);
    expect(
      await recoverTransactionAddress({
        serializedTransaction: signedTx.data as TransactionSerializedEIP1559,
      }),
    ).toBe(indexOne);
    expect(server.calls.length).toBe(before);
    // The params' address is checked against that index's address, not the root's.
    expect((await sign("personal_sign", ["hi", indexOne], 1)).method).toBe("personal_sign");
    expect((await rpc("personal_sign", ["hi", address], alice, 1)).error).toEqual({
      type: "invalid_input",
      message: `Address ${address} does not match the wallet ${indexOne}`,
    });
    // It is the wallet the server registers at that index later.
    const added = await frame.call<{ address: string }>("privy:wallets:add", {
      accessToken: alice,
      ...entropy(address),
      hdWalletIndex: 1,
    });
    expect(added.address).toBe(indexOne);
  });

  it("privy:mfa:clear (sign-out) forgets unlocked wallets", async () => {
    const { frame, server, address, sign } = await unlockedFrame();
    expect(frame.wallets.heldAddress(ALICE, ethereumWallet(address), 0)).toBe(address);
    expect(await frame.call("privy:mfa:clear", { userId: ALICE })).toEqual({});
    expect(frame.wallets.heldAddress(ALICE, ethereumWallet(address), 0)).toBeNull();
    const before = server.calls.length;
    await sign("personal_sign", ["after logout", address]);
    expect(server.calls.length).toBe(before + 2);
  });

  it("privy:mfa:clear without data forgets every user's unlocked wallet", async () => {
    const server = createFakeServer();
    const frame = createFrame(server);
    const bob = accessToken("did:privy:bob");
    const a = await frame.call<{ address: string }>("privy:wallet:create", { accessToken: alice });
    const b = await frame.call<{ address: string }>("privy:wallet:create", { accessToken: bob });
    expect(await frame.call("privy:mfa:clear", {})).toEqual({});
    expect(frame.wallets.heldAddress(ALICE, ethereumWallet(a.address), 0)).toBeNull();
    expect(frame.wallets.heldAddress("did:privy:bob", ethereumWallet(b.address), 0)).toBeNull();
  });
});

describe("privy:wallets:rpc errors", () => {
  it("needs an access token", async () => {
    const { rpc, address } = await unlockedFrame();
    expect((await rpc("personal_sign", ["hi", address], null)).error).toEqual({
      type: "attempted_rpc_call_before_logged_in",
      message: "Missing access token",
    });
  });

  it("checks the token first, then chainType, entropyId, its verifier and hdWalletIndex, before unlocking", async () => {
    const server = createFakeServer();
    const frame = createFrame(server);
    const address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    const valid = {
      accessToken: alice,
      ...entropy(address),
      hdWalletIndex: 0,
      request: { method: "personal_sign", params: ["hi"] },
    };
    const errorOf = async (data: Record<string, unknown>) =>
      (await frame.request("privy:wallets:rpc", { ...valid, ...data })).error;
    const invalid = (message: string) => ({ type: "invalid_input", message });
    expect(
      await errorOf({ accessToken: undefined, entropyId: "0x12", hdWalletIndex: -1, request: null }),
    ).toEqual({
      type: "attempted_rpc_call_before_logged_in",
      message: "Missing access token",
    });
    expect(await errorOf({ accessToken: "not-a-jwt", entropyId: "0x12" })).toEqual(
      invalid("Invalid access token"),
    );
    const expired = accessToken(ALICE, { exp: Math.floor(Date.now() / 1000) - 1 });
    expect(await errorOf({ accessToken: expired, entropyId: "0x12", chainType: "solana" })).toEqual({
      type: "attempted_rpc_call_before_logged_in",
      message: "Access token expired",
    });
    expect(await errorOf({ chainType: "solana" })).toEqual(invalid("Unsupported chain type: solana"));
    expect(await errorOf({ entropyIdVerifier: "solana-address-verifier" })).toEqual(
      invalid("Unsupported entropyIdVerifier: solana-address-verifier (expected ethereum-address-verifier)"),
    );
    expect(await errorOf({ entropyId: "0x12" })).toEqual(invalid("Invalid entropyId: 0x12"));
    expect(await errorOf({ entropyId: undefined, address })).toEqual(invalid("Invalid entropyId: undefined"));
    for (const hdWalletIndex of [-1, 1.5, "0", undefined, null, 2 ** 31, Number.NaN]) {
      expect(await errorOf({ hdWalletIndex })).toEqual(invalid("hdWalletIndex must be an integer ≥ 0"));
    }
    expect(await errorOf({ entropyIdVerifier: VERIFIER, chainType: "ethereum", hdWalletIndex: -1 })).toEqual(
      invalid("hdWalletIndex must be an integer ≥ 0"),
    );
    expect(server.calls).toHaveLength(0);
  });

  it("refuses unknown methods and malformed requests before unlocking", async () => {
    const server = createFakeServer();
    const frame = createFrame(server);
    const address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    const errorOf = async (request: unknown) =>
      (
        await frame.request("privy:wallets:rpc", {
          accessToken: alice,
          ...entropy(address),
          hdWalletIndex: 0,
          request,
        })
      ).error;
    expect(await errorOf({ method: "eth_sign", params: [] })).toEqual({
      type: "embedded_wallet_request_error",
      message: "Unsupported method: eth_sign",
    });
    for (const request of [undefined, { params: [] }, { method: "personal_sign", params: "hi" }]) {
      expect(await errorOf(request)).toEqual({
        type: "invalid_input",
        message: "Invalid request: expected {method, params}",
      });
    }
    expect(server.calls).toHaveLength(0);
  });

  it("checks each method's params", async () => {
    const { rpc, address } = await unlockedFrame();
    expect((await rpc("personal_sign", [42, address])).error).toEqual({
      type: "invalid_input",
      message: "personal_sign expects params [message, address]",
    });
    expect((await rpc("eth_signTypedData_v4", [address])).error).toEqual({
      type: "invalid_input",
      message: "eth_signTypedData_v4 expects params [address, typedData]",
    });
    expect((await rpc("eth_signTransaction", [])).error).toEqual({
      type: "invalid_input",
      message: "eth_signTransaction expects params [transaction]",
    });
    const other = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    expect((await rpc("personal_sign", ["hi", other])).error).toEqual({
      type: "invalid_input",
      message: `Address ${other} does not match the wallet ${address}`,
    });
  });

  it("answers the wallet core's input errors as invalid_input with its message", async () => {
    const { rpc, address } = await unlockedFrame();
    const nan = { ...typedData, message: { ...typedData.message, amount: "NaN" } };
    const typed = (await rpc("eth_signTypedData_v4", [address, nan])).error;
    expect(typed?.type).toBe("invalid_input");
    expect(typed?.message).toMatch(/NaN|finite/i);
    const oddHex = (await rpc("personal_sign", ["0x123", address])).error;
    expect(oddHex?.type).toBe("invalid_input");
    expect(oddHex?.message).toMatch(/hex/i);
    const wrongFrom = (
      await rpc("eth_signTransaction", [
        { from: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", chainId: 50312, nonce: 0 },
      ])
    ).error;
    expect(wrongFrom?.type).toBe("invalid_input");
  });

  it("answers a failed unlock with the server's message", async () => {
    const server = createFakeServer();
    const storage = memoryStorage();
    const { address } = await createFrame(server, { storage }).call<{ address: string }>(
      "privy:wallet:create",
      {
        accessToken: alice,
      },
    );
    const data = {
      accessToken: alice,
      ...entropy(address),
      hdWalletIndex: 0,
      request: { method: "personal_sign", params: ["hi", address] },
    };
    // With a device share: connect fails.
    server.failNext(401, "missing_or_invalid_token", "Missing or invalid token");
    expect((await createFrame(server, { storage }).request("privy:wallets:rpc", data)).error).toEqual({
      type: "embedded_wallet_request_error",
      message: "Missing or invalid token",
    });
    // Without one: the automatic recovery fails.
    const stranger = createFakeServer();
    expect((await createFrame(stranger).request("privy:wallets:rpc", data)).error).toEqual({
      type: "embedded_wallet_recovery_error",
      message: "Linked account not found",
    });
  });
});
