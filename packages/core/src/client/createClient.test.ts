import { describe, expect, it } from "vitest";
import { isClientError } from "../errors/ClientError.ts";
import { APP_ID } from "../test/fixtures.ts";
import { embeddedWalletState } from "../wallet/embeddedWalletState.ts";
import { createClient } from "./createClient.ts";

describe("createClient", () => {
  it("starts not ready, signed out, with the email flow at initial", () => {
    const client = createClient({ appId: APP_ID, apiUrl: "http://127.0.0.1:1" });
    expect(client.store.getState()).toEqual({
      ready: false,
      authenticated: false,
      user: null,
      identityToken: null,
      appConfig: null,
      emailFlow: { status: "initial", email: null, error: null },
      smsFlow: { status: "initial", phoneNumber: null, error: null },
      customAuthSync: { status: "initial", error: null },
      oauthFlow: { status: "initial", provider: null, intent: null, ui: null, result: null, error: null },
      oauthTokens: {},
      error: null,
      embeddedWallets: [],
      activeChainId: 1,
      externalWallets: {
        options: [],
        connection: { status: "disconnected", walletId: null, error: null, pairingUri: null },
        connected: [],
        siwe: { status: "initial", chainType: null, error: null },
        activeAddress: null,
      },
      passkeyFlow: { status: "initial", intent: null, error: null },
      mfaState: {
        pending: null,
        modal: null,
        verification: { status: "idle", method: null, error: null },
        enrollment: { status: "idle", method: null, phoneNumber: null, totp: null, error: null },
      },
    });
    client.destroy();
  });

  it("the newest client is the active one until it is destroyed", async () => {
    const { getActiveClient } = await import("./activeClient.ts");
    const first = createClient({ appId: APP_ID, apiUrl: "http://127.0.0.1:1" });
    const second = createClient({ appId: APP_ID, apiUrl: "http://127.0.0.1:1" });
    expect(getActiveClient()).toBe(second);
    second.destroy();
    expect(getActiveClient()).toBeNull();
    first.destroy();
  });

  it.each(["", "short", `${APP_ID}x`])("refuses the app id %j (must be 25 characters)", (appId) => {
    let error: unknown;
    try {
      createClient({ appId, apiUrl: "http://127.0.0.1:1" });
    } catch (e) {
      error = e;
    }
    expect(isClientError(error) && error.code).toBe("invalid_input");
    expect(isClientError(error) && error.message).toBe("App ID must be a string of exactly 25 characters.");
  });

  it("notifies subscribers of changes until they unsubscribe", () => {
    const client = createClient({ appId: APP_ID, apiUrl: "http://127.0.0.1:1" });
    const seen: boolean[] = [];
    const unsubscribe = client.store.subscribe((s) => seen.push(s.ready));
    client.store.setState({ ready: true });
    client.store.setState({ ready: true });
    unsubscribe();
    client.store.setState({ ready: false });
    expect(seen).toEqual([true]);
  });
});

describe("createClient chains", () => {
  const chain = (id: number) => ({
    id,
    name: `Chain ${id}`,
    rpcUrl: "http://127.0.0.1:8545",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  });

  it("starts on defaultChainId, else the first chain, else Ethereum mainnet", () => {
    const base = { appId: APP_ID, apiUrl: "http://localhost:8787", broadcast: false };
    expect(
      createClient({ ...base, chains: [chain(50312), chain(31337)], defaultChainId: 31337 }).store.getState()
        .activeChainId,
    ).toBe(31337);
    expect(createClient({ ...base, chains: [chain(50312)] }).store.getState().activeChainId).toBe(50312);
    const state = createClient(base).store.getState();
    expect(state).toMatchObject({ activeChainId: 1, embeddedWallets: [] });
    expect(embeddedWalletState(state)).toEqual({ status: "idle", error: null });
  });

  it("refuses a default chain that is not configured", () => {
    expect(() =>
      createClient({
        appId: APP_ID,
        apiUrl: "http://localhost:8787",
        chains: [chain(50312)],
        defaultChainId: 5,
      }),
    ).toThrow(
      "Chain ID 5 is not supported. It must be added to the config.supportedChains property of the PrivyProvider.",
    );
  });
});
