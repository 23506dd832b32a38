import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { ethereum } from "../chains/ethereum.ts";
import { FrameError } from "../frameError.ts";
import { CODE } from "../test/fakeMfa.ts";
import { createFakeServer } from "../test/fakeServer.ts";
import { createFrame, entropy, ethereumWallet, memoryStorage, VERIFIER } from "../test/frameHarness.ts";
import { loadWasm } from "../test/loadWasm.ts";
import { accessToken } from "../test/tokens.ts";
import { type ExportTarget, exportHandlers, exportTargetOf, runExport } from "./exportHandlers.ts";
import type { ExportView } from "./exportView.ts";

beforeAll(loadWasm);

const ALICE = "did:privy:alice";
const alice = accessToken(ALICE);
const RETRY = { type: "missing_or_invalid_mfa", message: "MFA verification failed, retry." };

function recordingView() {
  const view = {
    readKey: null as (() => string) | null,
    address: null as string | null,
    errors: [] as string[],
  };
  const binding: ExportView = {
    enableReveal: (read, address) => {
      view.readKey = read;
      view.address = address;
    },
    showError: (message) => view.errors.push(message),
  };
  return { view, binding };
}

const rootOf = (address: string, hdWalletIndex = 0): ExportTarget => ({
  wallet: ethereumWallet(address),
  hdWalletIndex,
});

async function walletOnDevice() {
  const server = createFakeServer();
  const storage = memoryStorage();
  const { address } = await createFrame(server, { storage }).call<{ address: `0x${string}` }>(
    "privy:wallet:create",
    { accessToken: alice },
  );
  return { server, storage, address };
}

/** {@link walletOnDevice} plus index 1 of its entropy; `added` is index 1's address. */
async function twoWalletsOnDevice() {
  const device = await walletOnDevice();
  const { address: added } = await createFrame(device.server, { storage: device.storage }).call<{
    address: string;
  }>("privy:wallets:add", { accessToken: alice, ...entropy(device.address), hdWalletIndex: 1 });
  return { ...device, added };
}

/** What `run` threw, as `{type, message}` (fails the test when it does not throw a FrameError). */
async function failureOf(run: () => unknown): Promise<{ type: string; message: string }> {
  try {
    await run();
  } catch (error) {
    if (!(error instanceof FrameError)) throw error;
    return { type: error.type, message: error.message };
  }
  throw new Error("expected a FrameError");
}

describe("export page (privy:wallet:export)", () => {
  it("unlocks, answers {} and lets the page (only) read the key of its target", async () => {
    const { server, storage, address } = await walletOnDevice();
    const { view, binding } = recordingView();
    const page = createFrame(server, {
      storage,
      handlers: (w) => exportHandlers(w, rootOf(address), binding),
    });
    expect(await page.call("privy:iframe:ready", {})).toEqual({});
    expect(view.readKey).toBeNull();
    expect(await page.call("privy:wallet:export", { accessToken: alice })).toEqual({});
    expect(view.address).toBe(address);
    const key = view.readKey?.() as `0x${string}`;
    expect(privateKeyToAccount(key).address).toBe(address);
    // Asked for export key material (the server's MFA guard for exports).
    expect(server.calls.at(-1)?.body).toMatchObject({ intent: "export" });
    // Nothing the frame posted to the host contains the key.
    expect(JSON.stringify(page.posted)).not.toContain(key.slice(2));
  });

  it("recovers on a device without a device share", async () => {
    const { server, address } = await walletOnDevice();
    const { view, binding } = recordingView();
    const page = createFrame(server, { handlers: (w) => exportHandlers(w, rootOf(address), binding) });
    expect(await page.call("privy:wallet:export", { accessToken: alice })).toEqual({});
    expect(privateKeyToAccount(view.readKey?.() as `0x${string}`).address).toBe(address);
  });

  it("exports the index its URL names, shown with that index's address", async () => {
    const { server, storage, address, added } = await twoWalletsOnDevice();
    const { view, binding } = recordingView();
    const page = createFrame(server, {
      storage,
      handlers: (w) => exportHandlers(w, rootOf(address, 1), binding),
    });
    expect(await page.call("privy:wallet:export", { accessToken: alice })).toEqual({});
    expect(view.address).toBe(added);
    expect(privateKeyToAccount(view.readKey?.() as `0x${string}`).address).toBe(added);
  });

  it("exports only the page's target, whatever the message names", async () => {
    const { server, storage, address } = await walletOnDevice();
    const other = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    const { view, binding } = recordingView();
    const page = createFrame(server, {
      storage,
      handlers: (w) => exportHandlers(w, rootOf(address), binding),
    });
    expect(
      await page.call("privy:wallet:export", {
        accessToken: alice,
        address: other,
        ...entropy(other),
        hdWalletIndex: 3,
      }),
    ).toEqual({});
    expect(view.address).toBe(address);
    expect(privateKeyToAccount(view.readKey?.() as `0x${string}`).address).toBe(address);
    expect(server.calls.some((c) => c.path.includes(other))).toBe(false);
  });

  it("a page whose entropyId is another index's address shows and answers invalid_input", async () => {
    const { server, storage, added } = await twoWalletsOnDevice();
    const { view, binding } = recordingView();
    const page = createFrame(server, {
      storage,
      handlers: (w) => exportHandlers(w, rootOf(added), binding),
    });
    const message = `${added} is not the address of a wallet's index 0 (entropyId)`;
    expect((await page.request("privy:wallet:export", { accessToken: alice })).error).toEqual({
      type: "invalid_input",
      message,
    });
    expect(view.errors).toEqual([message]);
    expect(view.readKey).toBeNull();
  });

  it("shows and answers an unlock failure", async () => {
    const { address } = await walletOnDevice();
    const { view, binding } = recordingView();
    const page = createFrame(createFakeServer(), {
      handlers: (w) => exportHandlers(w, rootOf(address), binding),
    });
    expect((await page.request("privy:wallet:export", { accessToken: alice })).error).toEqual({
      type: "embedded_wallet_recovery_error",
      message: "Linked account not found",
    });
    expect(view.errors).toEqual(["Linked account not found"]);
    expect(view.readKey).toBeNull();
  });

  it("shows and answers a missing or expired token", async () => {
    const { server, storage, address } = await walletOnDevice();
    const { view, binding } = recordingView();
    const page = createFrame(server, {
      storage,
      handlers: (w) => exportHandlers(w, rootOf(address), binding),
    });
    const calls = server.calls.length;
    expect((await page.request("privy:wallet:export", {})).error).toEqual({
      type: "attempted_rpc_call_before_logged_in",
      message: "Missing access token",
    });
    const expired = accessToken(ALICE, { exp: Math.floor(Date.now() / 1000) - 1 });
    expect((await page.request("privy:wallet:export", { accessToken: expired })).error).toEqual({
      type: "attempted_rpc_call_before_logged_in",
      message: "Access token expired",
    });
    expect(view.errors).toEqual(["Missing access token", "Access token expired"]);
    expect(server.calls).toHaveLength(calls);
    expect(view.readKey).toBeNull();
  });
});

describe("runExport with the fragment's token (#token=)", () => {
  it("unlocks at once and lets the page read the key", async () => {
    const { server, storage, address } = await walletOnDevice();
    const { view, binding } = recordingView();
    const { wallets } = createFrame(server, { storage });
    await runExport(wallets, rootOf(address), binding, alice, { retried: false });
    expect(view.errors).toEqual([]);
    expect(view.address).toBe(address);
    expect(privateKeyToAccount(view.readKey?.() as `0x${string}`).address).toBe(address);
  });

  it("says to verify when MFA is missing, instead of waiting for a retry that never comes", async () => {
    const { server, storage, address } = await walletOnDevice();
    server.mfa.enroll(ALICE, "totp");
    const session = memoryStorage();
    const { view, binding } = recordingView();
    const { wallets } = createFrame(server, { storage, session });
    expect(
      await failureOf(() => runExport(wallets, rootOf(address), binding, alice, { retried: false })),
    ).toEqual(RETRY);
    expect(view.errors).toEqual(["Verify your identity (2-step verification), then export again."]);
    expect(view.readKey).toBeNull();
    // Our client's path (retried) keeps saying it is unlocking on the same refusal.
    expect(await failureOf(() => runExport(wallets, rootOf(address), binding, alice))).toEqual(RETRY);
    expect(view.errors).toHaveLength(1);
    // Once the hidden frame of the tab has verified, the page exports with its token.
    await createFrame(server, { storage, session }).call("privy:mfa:verify", {
      accessToken: alice,
      method: "totp",
      mfaCode: CODE,
    });
    await runExport(wallets, rootOf(address), binding, alice, { retried: false });
    expect(privateKeyToAccount(view.readKey?.() as `0x${string}`).address).toBe(address);
  });

  it("shows other failures as they are", async () => {
    const { address } = await walletOnDevice();
    const { view, binding } = recordingView();
    const { wallets } = createFrame(createFakeServer());
    expect(
      await failureOf(() => runExport(wallets, rootOf(address), binding, alice, { retried: false })),
    ).toEqual({
      type: "embedded_wallet_recovery_error",
      message: "Linked account not found",
    });
    expect(
      await failureOf(() => runExport(wallets, rootOf(address), binding, null, { retried: false })),
    ).toEqual({
      type: "attempted_rpc_call_before_logged_in",
      message: "Missing access token",
    });
    expect(view.errors).toEqual(["Linked account not found", "Missing access token"]);
    expect(view.readKey).toBeNull();
  });
});

describe("exportTargetOf (the page's query)", () => {
  const ROOT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
  const query = (params: Record<string, string>) =>
    new URLSearchParams({ entropy_id: ROOT, entropy_id_verifier: VERIFIER, ...params });
  const invalid = (message: string) => ({ type: "invalid_input", message });

  it("reads entropy_id and hd_wallet_index (0 when absent), for Ethereum", () => {
    expect(exportTargetOf(query({}))).toEqual({
      wallet: { chain: ethereum, entropyId: ROOT },
      hdWalletIndex: 0,
    });
    expect(exportTargetOf(query({ hd_wallet_index: "2", chain_type: "ethereum" }))).toEqual({
      wallet: { chain: ethereum, entropyId: ROOT },
      hdWalletIndex: 2,
    });
    expect(exportTargetOf(query({ hd_wallet_index: "2147483647" })).hdWalletIndex).toBe(2 ** 31 - 1);
  });

  it("refuses another verifier or none", async () => {
    expect(
      await failureOf(() => exportTargetOf(query({ entropy_id_verifier: "solana-address-verifier" }))),
    ).toEqual(
      invalid("Unsupported entropyIdVerifier: solana-address-verifier (expected ethereum-address-verifier)"),
    );
    expect(await failureOf(() => exportTargetOf(new URLSearchParams({ entropy_id: ROOT })))).toEqual(
      invalid("Unsupported entropyIdVerifier: null (expected ethereum-address-verifier)"),
    );
  });

  it("refuses a malformed or missing entropy_id", async () => {
    expect(await failureOf(() => exportTargetOf(query({ entropy_id: "0x12" })))).toEqual(
      invalid("Invalid entropyId: 0x12"),
    );
    expect(
      await failureOf(() => exportTargetOf(new URLSearchParams({ entropy_id_verifier: VERIFIER }))),
    ).toEqual(invalid("Invalid entropyId: null"));
  });

  it("refuses an hd_wallet_index that is not an integer from 0 to 2^31 − 1", async () => {
    for (const index of ["-1", "1.5", "abc", "", "+1", "1e3", "2147483648", "99999999999"]) {
      expect(await failureOf(() => exportTargetOf(query({ hd_wallet_index: index })))).toEqual(
        invalid("hdWalletIndex must be an integer ≥ 0"),
      );
    }
  });

  it("refuses a chain other than Ethereum", async () => {
    expect(await failureOf(() => exportTargetOf(query({ chain_type: "solana" })))).toEqual(
      invalid("Unsupported chain type: solana"),
    );
  });
});
