import { startWalletConnectRelay, startWalletConnectWallet } from "@symbolon/stack";
import { createWalletClient, custom, verifyMessage } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Client, createClient } from "../../client/createClient.ts";
import { ClientError } from "../../errors/ClientError.ts";
import { ProviderRpcError } from "../../wallet/ProviderRpcError.ts";
import {
  connectWalletConnect,
  requireWalletConnectProjectId,
  restoreWalletConnect,
  walletConnectRelayUrl,
} from "./index.ts";

// The real connector (`@walletconnect/universal-provider`) against the local relay stand-in
// (tools/stack walletConnectRelay.mjs) and a Node wallet on the real Sign client (walletConnectWallet.mjs): the
// QR code's URI is handed to the wallet as a phone would scan it. Nothing leaves the machine but the SDK's Verify
// lookup, which fails fast offline.
const WALLET_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"; // anvil dev account 1
const CHAIN = {
  id: 50312,
  name: "Somnia Testnet",
  // Never called: the wallet answers signing; reads would go here.
  rpcUrl: "http://127.0.0.1:9",
  nativeCurrency: { name: "Somnia Testnet Token", symbol: "STT", decimals: 18 },
};

let relay: Awaited<ReturnType<typeof startWalletConnectRelay>>;
let wallet: Awaited<ReturnType<typeof startWalletConnectWallet>>;
let appCount = 0;
const clients: Client[] = [];

/** A client of a fresh app (the library keeps one core per app id in a process). */
function newClient(appId = `wcapp${String(++appCount).padStart(20, "0")}`) {
  const client = createClient({
    appId,
    apiUrl: "http://127.0.0.1:9",
    chains: [CHAIN],
    walletConnectRelayUrl: relay.relayUrl,
    walletConnectCloudProjectId: "symbolon-test",
    broadcast: false,
  });
  clients.push(client);
  return client;
}

/** Connects `client`, the wallet pairing with the URI as soon as it is shown. */
async function connect(client: Client) {
  let paired: Promise<unknown> | undefined;
  const provider = await connectWalletConnect(client, {
    onPairingUri: (uri) => {
      paired = wallet.pair(uri);
    },
  });
  await paired;
  return provider;
}

beforeAll(async () => {
  relay = await startWalletConnectRelay();
  wallet = await startWalletConnectWallet({ relayUrl: relay.relayUrl, privateKey: WALLET_KEY });
});
afterEach(() => {
  wallet.reject = false;
});
afterAll(async () => {
  for (const client of clients) client.destroy();
  await wallet?.stop();
  await relay?.stop();
});

describe("connectWalletConnect", () => {
  it("pairs through the relay and signs with personal_sign", async () => {
    const uris: string[] = [];
    const client = newClient();
    let paired: Promise<unknown> | undefined;
    const provider = await connectWalletConnect(client, {
      onPairingUri: (uri) => {
        uris.push(uri);
        paired = wallet.pair(uri);
      },
    });
    await paired;
    expect(uris).toHaveLength(1);
    expect(uris[0]).toMatch(/^wc:[0-9a-f]{64}@2\?/);
    expect(uris[0]).toContain("symKey=");

    expect(await provider.request({ method: "eth_accounts" })).toEqual([wallet.address]);
    expect(await provider.request({ method: "eth_chainId" })).toBe("0xc488");

    const walletClient = createWalletClient({ account: wallet.address, transport: custom(provider) });
    const message = "Sign in to Symbolon\nnonce: 1234";
    const signature = await walletClient.signMessage({ message });
    expect(await verifyMessage({ address: wallet.address, message, signature })).toBe(true);
    expect(wallet.requests.at(-1)?.method).toBe("personal_sign");
  });

  it("turns the wallet's rejection of a request into ProviderRpcError 4001, then signs after", async () => {
    const provider = await connect(newClient());
    wallet.reject = true;
    const rejected = await provider
      .request({ method: "personal_sign", params: ["0x68656c6c6f", wallet.address] })
      .catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(ProviderRpcError);
    expect((rejected as ProviderRpcError).code).toBe(4001);

    wallet.reject = false;
    const signature = await provider.request({
      method: "personal_sign",
      params: ["0x68656c6c6f", wallet.address],
    });
    expect(await verifyMessage({ address: wallet.address, message: "hello", signature })).toBe(true);
  });

  it("a rejected session proposal is the user's rejection (4001)", async () => {
    wallet.reject = true;
    const client = newClient();
    const error = await connectWalletConnect(client, {
      onPairingUri: (uri) => void wallet.pair(uri),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderRpcError);
    expect((error as ProviderRpcError).code).toBe(4001);
  });

  it("stops waiting when the signal aborts (QR screen closed)", async () => {
    const controller = new AbortController();
    const error = await connectWalletConnect(newClient(), {
      onPairingUri: () => controller.abort(new Error("closed")),
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect((error as Error).message).toBe("closed");
  });

  it("keeps the session for the page (restore) and disconnect ends it on the wallet too", async () => {
    const client = newClient();
    expect(await restoreWalletConnect(client)).toBeNull();
    const provider = await connect(client);
    const topics = new Set(wallet.sessions().map((s) => s.topic));

    const restored = await restoreWalletConnect(client);
    expect(restored).not.toBeNull();
    expect(await restored?.request({ method: "eth_accounts" })).toEqual([wallet.address]);

    const before = wallet.sessions().length;
    await provider.disconnect();
    await expect.poll(() => wallet.sessions().length, { timeout: 5_000 }).toBe(before - 1);
    expect(topics.size).toBeGreaterThan(0);
    expect(await restoreWalletConnect(client)).toBeNull();
  });
});

describe("events", () => {
  it("a session ended by the wallet is an EIP-1193 disconnect (4900)", async () => {
    const provider = await connect(newClient());
    const disconnected = new Promise<unknown>((resolve) => provider.on("disconnect", resolve));
    await wallet.disconnectAll();
    const error = await disconnected;
    expect(error).toBeInstanceOf(ProviderRpcError);
    expect((error as ProviderRpcError).code).toBe(4900);
  });
});

describe("one session at a time", () => {
  it("a new connection ends the previous session: its provider reports a disconnect and refuses requests", async () => {
    const client = newClient();
    const first = await connect(client);
    const firstEnded = new Promise<unknown>((resolve) => first.on("disconnect", resolve));
    const second = await connect(client);
    expect(((await firstEnded) as ProviderRpcError).code).toBe(4900);
    const refused = await first.request({ method: "eth_accounts" }).catch((e: unknown) => e);
    expect((refused as ProviderRpcError).code).toBe(4900);
    expect(await second.request({ method: "eth_accounts" })).toEqual([wallet.address]);
    await second.disconnect();
  });
});

describe("settings", () => {
  it("takes the project id from the client option, else the app config, else refuses", () => {
    const client = newClient();
    expect(requireWalletConnectProjectId(client)).toBe("symbolon-test");
    expect(walletConnectRelayUrl(client)).toBe(relay.relayUrl);

    const bare = createClient({
      appId: "wcbare0000000000000000001",
      apiUrl: "http://127.0.0.1:9",
      broadcast: false,
    });
    clients.push(bare);
    expect(walletConnectRelayUrl(bare)).toBe("wss://relay.walletconnect.org");
    expect(() => requireWalletConnectProjectId(bare)).toThrow(ClientError);
    bare.store.setState({
      appConfig: { wallet_connect_cloud_project_id: "from-config" } as never,
    });
    expect(requireWalletConnectProjectId(bare)).toBe("from-config");
  });
});
