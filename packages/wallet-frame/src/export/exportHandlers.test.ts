import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { createFakeServer } from "../test/fakeServer.ts";
import { createFrame, memoryStorage } from "../test/frameHarness.ts";
import { loadWasm } from "../test/loadWasm.ts";
import { accessToken } from "../test/tokens.ts";
import { exportHandlers } from "./exportHandlers.ts";
import type { ExportView } from "./exportView.ts";

beforeAll(loadWasm);

const alice = accessToken("did:privy:alice");

function recordingView() {
  const view = { readKey: null as (() => string) | null, errors: [] as string[] };
  const binding: ExportView = {
    enableReveal: (read) => {
      view.readKey = read;
    },
    showError: (message) => view.errors.push(message),
  };
  return { view, binding };
}

async function walletOnDevice() {
  const server = createFakeServer();
  const storage = memoryStorage();
  const { address } = await createFrame(server, { storage }).call<{ address: `0x${string}` }>(
    "privy:wallet:create",
    { accessToken: alice },
  );
  return { server, storage, address };
}

describe("export page (privy:wallet:export)", () => {
  it("unlocks, answers {} and lets the page (only) read the key of that address", async () => {
    const { server, storage, address } = await walletOnDevice();
    const { view, binding } = recordingView();
    const page = createFrame(server, { storage, handlers: (w) => exportHandlers(w, address, binding) });
    expect(await page.call("privy:iframe:ready", {})).toEqual({});
    expect(view.readKey).toBeNull();
    expect(await page.call("privy:wallet:export", { accessToken: alice, address })).toEqual({});
    const key = view.readKey?.() as `0x${string}`;
    expect(privateKeyToAccount(key).address).toBe(address);
    // Nothing the frame posted to the host contains the key.
    expect(JSON.stringify(page.posted)).not.toContain(key.slice(2));
  });

  it("recovers on a device without a device share", async () => {
    const { server, address } = await walletOnDevice();
    const { view, binding } = recordingView();
    const page = createFrame(server, { handlers: (w) => exportHandlers(w, address, binding) });
    expect(await page.call("privy:wallet:export", { accessToken: alice, address })).toEqual({});
    expect(privateKeyToAccount(view.readKey?.() as `0x${string}`).address).toBe(address);
  });

  it("refuses an address other than the page's", async () => {
    const { server, address } = await walletOnDevice();
    const { view, binding } = recordingView();
    const page = createFrame(server, {
      handlers: (w) => exportHandlers(w, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", binding),
    });
    expect((await page.request("privy:wallet:export", { accessToken: alice, address })).error).toEqual({
      type: "invalid_input",
      message: "This export page is for another address",
    });
    expect(view.readKey).toBeNull();
  });

  it("shows and answers an unlock failure", async () => {
    const { address } = await walletOnDevice();
    const { view, binding } = recordingView();
    const page = createFrame(createFakeServer(), { handlers: (w) => exportHandlers(w, address, binding) });
    expect((await page.request("privy:wallet:export", { accessToken: alice, address })).error).toEqual({
      type: "embedded_wallet_recovery_error",
      message: "Linked account not found",
    });
    expect(view.errors).toEqual(["Linked account not found"]);
    expect(view.readKey).toBeNull();
  });
});
