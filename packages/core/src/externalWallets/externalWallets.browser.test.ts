// @vitest-environment jsdom
// The external-wallet layer against the real test wallets (an EIP-1193 provider backed by a viem local
// account, announced by EIP-6963; a Wallet Standard ed25519 wallet) and a scripted HTTP server.
import { ed25519 } from "@noble/curves/ed25519";
import {
  controlOn,
  createTestEthereumProvider,
  DEV_ETHEREUM_KEY,
  DEV_SOLANA_KEY,
  installTestWallets,
  type TestWalletControl,
} from "@symbolon/test-wallets";
import bs58 from "bs58";
import { getAddress, type Hex, verifyMessage } from "viem";
import { parseSiweMessage } from "viem/siwe";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { transferAccount } from "../actions/transferAccount.ts";
import type { ChainConfig } from "../chain/ChainConfig.ts";
import type { ClientOptions } from "../client/createClient.ts";
import { SIWE_STATEMENT, type User } from "../generated/protocol.ts";
import { storageKey } from "../session/storageKey.ts";
import { createMemoryStorage } from "../storage/createMemoryStorage.ts";
import { embeddedWalletAccount } from "../test/fakeWalletFrame.ts";
import { APP_ID, makeUser } from "../test/fixtures.ts";
import { makeClient, useScriptedApp } from "../test/harness.ts";
import { connectWallet, disconnectWallet, retryConnectWallet } from "./connectWallet.ts";
import { discoverWallets } from "./discoverWallets.ts";
import { fetchWalletDirectory } from "./fetchWalletDirectory.ts";
import { handleWalletDeepLink } from "./handleWalletDeepLink.ts";
import { restoreWalletConnections } from "./restoreWalletConnections.ts";
import { linkWithSiwe, loginWithSiwe, loginWithSiws, unlinkWallet } from "./siwe.ts";
import {
  EMBEDDED_LOGIN_MESSAGE,
  EMBEDDED_UNLINK_MESSAGE,
  INJECTED_INIT_WAIT_MS,
  UNABLE_TO_CONNECT_MESSAGE,
  type WalletConnectionStatus,
} from "./types.ts";

const scripted = useScriptedApp();
const TEST_RDNS = "dev.symbolon.testwallet";
const SOLANA_ID = "solana:symbolon_test_solana_wallet";
let control: TestWalletControl;
let ethAddress: `0x${string}`;
let solanaAddress: string;

const SOMNIA: ChainConfig = {
  id: 50312,
  name: "Somnia Testnet",
  rpcUrl: "http://127.0.0.1:1/rpc",
  nativeCurrency: { name: "STT", symbol: "STT", decimals: 18 },
};
const MAINNET: ChainConfig = { ...SOMNIA, id: 1, name: "Ethereum" };

beforeAll(() => {
  installTestWallets({
    ethereum: { privateKey: DEV_ETHEREUM_KEY, storage: null },
    solana: { secretKey: DEV_SOLANA_KEY },
  });
  control = controlOn(window);
  ethAddress = control.address as `0x${string}`;
  solanaAddress = control.solanaAddress as string;
});

afterEach(async () => {
  control.reject = false;
  control.requests.length = 0;
  const provider = (window as unknown as { ethereum: { request(a: unknown): Promise<unknown> } }).ethereum;
  await provider.request({ method: "wallet_revokePermissions", params: [{ eth_accounts: {} }] });
  window.history.replaceState(null, "", "/");
});

/** A client whose injected wait is instant, on mainnet by default. */
function client(options: Partial<ClientOptions> = {}) {
  return makeClient(scripted.server, { chains: [MAINNET], ...options });
}

/** Every connection status the store went through. */
function recordStatuses(c: ReturnType<typeof client>): WalletConnectionStatus[] {
  const seen: WalletConnectionStatus[] = [];
  c.store.subscribe((state, previous) => {
    const status = state.externalWallets.connection.status;
    if (status !== previous.externalWallets.connection.status) seen.push(status);
  });
  return seen;
}

describe("discoverWallets", () => {
  it("finds the EIP-6963 test wallet and the Wallet Standard Solana wallet, installed first, then Coinbase and WalletConnect", async () => {
    const c = client();
    const options = await discoverWallets(c);
    expect(options.map((o) => [o.id, o.walletClientType, o.connectorType, o.installed])).toEqual([
      [TEST_RDNS, "symbolon_test_wallet", "injected", true],
      [SOLANA_ID, "symbolon_test_solana_wallet", "solana_adapter", true],
      ["coinbase_wallet", "coinbase_wallet", "coinbase_wallet", false],
      ["wallet_connect", "wallet_connect", "wallet_connect", false],
    ]);
    expect(options[0]?.icon).toMatch(/^data:image\//);
    // window.ethereum is the announced provider: no duplicate "injected" option; idempotent.
    expect(await discoverWallets(c)).toEqual(options);
  });

  it("offers a legacy window.ethereum (named by its flags) after the injected wait when nobody announced it", async () => {
    const original = (window as unknown as { ethereum: unknown }).ethereum;
    const legacy = { isRabby: true, isMetaMask: true, request: async () => [] };
    (window as unknown as { ethereum: unknown }).ethereum = legacy;
    const waits: number[] = [];
    try {
      const c = client({ sleep: async (ms) => void waits.push(ms) });
      const options = await discoverWallets(c);
      // The wait counts from the client's start-up: a fresh client waits (almost) the whole 1000 ms.
      expect(waits).toHaveLength(1);
      expect(waits[0]).toBeGreaterThan(INJECTED_INIT_WAIT_MS - 500);
      expect(waits[0]).toBeLessThanOrEqual(INJECTED_INIT_WAIT_MS);
      expect(options.find((o) => o.id === "injected")).toMatchObject({
        walletClientType: "rabby_wallet",
        installed: true,
      });
    } finally {
      (window as unknown as { ethereum: unknown }).ethereum = original;
    }
  });
});

describe("connectWallet", () => {
  it("goes connecting → connected, stores the spec's wallet connection, and lists the wallet with its provider", async () => {
    const storage = createMemoryStorage();
    const c = client({ storage });
    const seen = recordStatuses(c);
    const wallet = await connectWallet(c, { walletId: TEST_RDNS });
    expect(seen).toEqual(["connecting", "connected"]);
    expect(wallet).toMatchObject({
      address: ethAddress,
      chainType: "ethereum",
      chainId: "eip155:1",
      connectorType: "injected",
      walletClientType: "symbolon_test_wallet",
      id: TEST_RDNS,
    });
    const stored = JSON.parse(storage.getItem(storageKey(APP_ID, "wallet_connections")) ?? "[]");
    expect(stored).toEqual([
      {
        address: ethAddress,
        connectorType: "injected",
        walletClientType: "symbolon_test_wallet",
        connectedAt: wallet.connectedAt,
        id: TEST_RDNS,
      },
    ]);
    const provider = await wallet.getEthereumProvider();
    expect(await provider.request({ method: "eth_accounts" })).toEqual([ethAddress]);
    expect(c.store.getState().externalWallets.connected.map((w) => w.address)).toEqual([ethAddress]);
  });

  it("a rejection (4001) returns to disconnected with 'Unable to connect to wallet.' as a user rejection; retry connects", async () => {
    const c = client();
    const seen = recordStatuses(c);
    control.reject = true;
    const error = await connectWallet(c, { walletId: TEST_RDNS }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "user_rejected_request",
      rpcCode: 4001,
      message: UNABLE_TO_CONNECT_MESSAGE,
      userRejected: true,
    });
    const { connection } = c.store.getState().externalWallets;
    expect(connection).toMatchObject({ status: "disconnected", walletId: TEST_RDNS, error });
    control.reject = false;
    const wallet = await retryConnectWallet(c);
    expect(wallet.address).toBe(ethAddress);
    expect(seen).toEqual(["connecting", "disconnected", "connecting", "connected"]);
    expect(c.store.getState().externalWallets.connection.error).toBeNull();
  });

  it("a wallet on an unconfigured chain is switched; a chain it does not know (4902) is added from the client's config", async () => {
    // A second wallet, announced by its own EIP-6963 announcer, that knows only mainnet.
    const fresh = createTestEthereumProvider({ privateKey: DEV_ETHEREUM_KEY, chainId: 1 }, controlOn({}));
    const info = { uuid: "fresh", name: "Fresh Wallet", icon: "", rdns: "test.fresh" };
    const announce = () =>
      window.dispatchEvent(
        new CustomEvent("eip6963:announceProvider", { detail: { info, provider: fresh } }),
      );
    window.addEventListener("eip6963:requestProvider", announce);
    try {
      const c = client({ chains: [SOMNIA] });
      const seen = recordStatuses(c);
      const requests: string[] = [];
      const original = fresh.request.bind(fresh);
      fresh.request = (args) => {
        requests.push(args.method);
        return original(args);
      };
      const wallet = await connectWallet(c, { walletId: "test.fresh" });
      expect(seen).toEqual(["connecting", "switching_to_supported_chain", "connected"]);
      expect(requests).toEqual([
        "eth_requestAccounts",
        "eth_chainId",
        "wallet_switchEthereumChain",
        "wallet_addEthereumChain",
        "eth_chainId",
      ]);
      expect(wallet.chainId).toBe("eip155:50312");
      expect(await fresh.request({ method: "eth_chainId" })).toBe("0xc488");
    } finally {
      window.removeEventListener("eip6963:requestProvider", announce);
    }
  });

  it("accountsChanged to none (the user disconnected in the wallet) forgets the connection", async () => {
    const storage = createMemoryStorage();
    const c = client({ storage });
    await connectWallet(c, { walletId: TEST_RDNS });
    const provider = (window as unknown as { ethereum: { request(a: unknown): Promise<unknown> } }).ethereum;
    await provider.request({ method: "wallet_revokePermissions", params: [{ eth_accounts: {} }] });
    expect(c.store.getState().externalWallets.connected).toEqual([]);
    expect(storage.getItem(storageKey(APP_ID, "wallet_connections"))).toBeNull();
  });

  it("disconnectWallet forgets the wallet", async () => {
    const c = client();
    await connectWallet(c, { walletId: TEST_RDNS });
    await disconnectWallet(c, ethAddress.toLowerCase());
    expect(c.store.getState().externalWallets.connected).toEqual([]);
    expect(c.store.getState().externalWallets.connection.status).toBe("disconnected");
  });
});

describe("restoreWalletConnections", () => {
  it("reconnects a stored connection on reload with eth_accounts (no prompt); a revoked one is forgotten", async () => {
    const storage = createMemoryStorage();
    await connectWallet(client({ storage }), { walletId: TEST_RDNS });
    control.requests.length = 0;
    const reloaded = client({ storage });
    const restored = await restoreWalletConnections(reloaded);
    expect(restored.map((w) => w.address)).toEqual([ethAddress]);
    expect(control.requests).not.toContain("eth_requestAccounts");
    expect(control.requests).toContain("eth_accounts");
    expect(reloaded.store.getState().externalWallets.connection.status).toBe("connected");

    const provider = await restored[0]?.getEthereumProvider();
    await provider?.request({ method: "wallet_revokePermissions", params: [{ eth_accounts: {} }] });
    const again = client({ storage: copy(storage) });
    expect(await restoreWalletConnections(again)).toEqual([]);
  });

  it("restores a Solana wallet with a silent standard:connect", async () => {
    const storage = createMemoryStorage();
    await connectWallet(client({ storage }), { walletId: SOLANA_ID });
    const restored = await restoreWalletConnections(client({ storage }));
    expect(restored.map((w) => [w.address, w.chainType, w.chainId])).toEqual([
      [solanaAddress, "solana", "solana:mainnet"],
    ]);
  });
});

describe("handleWalletDeepLink", () => {
  it("connects the wallet the parameters name and removes them from the address bar (other parameters stay)", async () => {
    window.history.replaceState(
      null,
      "",
      "/page?x=1&privy_connector=injected&privy_wallet_client=symbolon_test_wallet&privy_connect_only=true",
    );
    const c = client();
    const wallet = await handleWalletDeepLink(c);
    expect(wallet?.address).toBe(ethAddress);
    expect(window.location.search).toBe("?x=1");
    expect(c.store.getState().authenticated).toBe(false);
    expect(scripted.server.hitsOf("POST /api/v1/siwe/init")).toEqual([]);
  });

  it("removes the parameters even when the named wallet is not there", async () => {
    window.history.replaceState(
      null,
      "",
      "/?privy_connector=injected&privy_wallet_client=nowallet&privy_connect_only=true",
    );
    vi.spyOn(console, "warn").mockImplementation(() => {});
    control.reject = true;
    await handleWalletDeepLink(client());
    expect(window.location.search).toBe("");
  });
});

describe("fetchWalletDirectory", () => {
  const listing = (id: string, name: string, slug: string) => ({
    id,
    name,
    slug,
    image_url: { sm: `https://img/${slug}-sm.png`, md: `https://img/${slug}.png` },
    mobile: { native: `${slug}://`, universal: `https://${slug}.app/wc` },
  });

  it("reads /v3/wallets with the project id and puts rainbow and metamask first", async () => {
    scripted.server.on("GET /v3/wallets", () => ({
      json: {
        listings: {
          a: listing("a", "Trust Wallet", "trust-wallet"),
          b: listing("b", "MetaMask", "metamask"),
          c: listing("c", "Zerion", "zerion"),
          d: listing("d", "Rainbow", "rainbow"),
        },
      },
    }));
    const c = client({ walletExplorerUrl: scripted.server.url, walletConnectCloudProjectId: "proj-1" });
    const options = await fetchWalletDirectory(c);
    expect(options.map((o) => o.walletClientType)).toEqual(["rainbow", "metamask", "trust_wallet", "zerion"]);
    expect(options[0]).toMatchObject({
      id: "wc:d",
      connectorType: "wallet_connect",
      installed: false,
      icon: "https://img/rainbow.png",
    });
    expect(options[0]?.links?.mobile).toBe("https://rainbow.app/wc");
    const hit = scripted.server.hitsOf("GET /v3/wallets")[0];
    expect(hit).toBeDefined();
    expect(scripted.server.hits.some((h) => h.path === "/v3/wallets")).toBe(true);
  });

  it("logs a failure and answers []", async () => {
    scripted.server.on("GET /v3/wallets", () => ({ status: 500, json: { error: "down" } }));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const c = client({ walletExplorerUrl: scripted.server.url, walletConnectCloudProjectId: "proj-1" });
    expect(await fetchWalletDirectory(c)).toEqual([]);
    expect(warn).toHaveBeenCalled();
  });
});

/** Scripts SIWE/SIWS: init answers a nonce, authenticate a session for `user`. */
function scriptSignIn(prefix: "siwe" | "siws", user: User) {
  scripted.app.user = user;
  scripted.server.on(`POST /api/v1/${prefix}/init`, () => ({ json: { nonce: "nonce12345678" } }));
  scripted.server.on(`POST /api/v1/${prefix}/authenticate`, () => ({ json: scripted.app.issue() }));
}

describe("SIWE", () => {
  it("login: init → EIP-4361 message for this page → personal_sign → authenticate, through the flow states", async () => {
    scriptSignIn("siwe", makeUser({ linked_accounts: [] }));
    const c = client();
    await connectWallet(c, { walletId: TEST_RDNS });
    const states: string[] = [];
    c.store.subscribe((s, p) => {
      if (s.externalWallets.siwe !== p.externalWallets.siwe) states.push(s.externalWallets.siwe.status);
    });
    const result = await loginWithSiwe(c);
    expect(states).toEqual(["generating-message", "awaiting-signature", "submitting-signature", "done"]);
    expect(result.user.id).toBe(scripted.app.user.id);
    expect(c.store.getState().authenticated).toBe(true);
    expect(scripted.server.hitsOf("POST /api/v1/siwe/init")[0]?.body).toEqual({ address: ethAddress });
    const body = scripted.server.hitsOf("POST /api/v1/siwe/authenticate")[0]?.body as Record<string, string>;
    expect(body).toMatchObject({
      chainId: "eip155:1",
      walletClientType: "symbolon_test_wallet",
      connectorType: "injected",
      mode: "login-or-sign-up",
    });
    const message = parseSiweMessage(body.message ?? "");
    expect(message).toMatchObject({
      address: getAddress(ethAddress),
      domain: window.location.host,
      uri: window.location.origin,
      chainId: 1,
      nonce: "nonce12345678",
      version: "1",
      statement: SIWE_STATEMENT,
    });
    expect(message.issuedAt).toBeInstanceOf(Date);
    expect(
      await verifyMessage({
        address: ethAddress,
        message: body.message ?? "",
        signature: body.signature as Hex,
      }),
    ).toBe(true);
  });

  it("a rejected signature (4001) ends in the error state as a user rejection", async () => {
    scriptSignIn("siwe", makeUser({ linked_accounts: [] }));
    const c = client();
    await connectWallet(c, { walletId: TEST_RDNS });
    control.reject = ["personal_sign"];
    const error = await loginWithSiwe(c).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "user_rejected_request", rpcCode: 4001 });
    expect(c.store.getState().externalWallets.siwe).toMatchObject({
      status: "error",
      chainType: "ethereum",
      error,
    });
    expect(scripted.server.hitsOf("POST /api/v1/siwe/authenticate")).toEqual([]);
  });

  it("without a connected wallet: 'Wallet is not connected'", async () => {
    const error = await loginWithSiwe(client()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "wallet_not_connected", message: "Wallet is not connected" });
  });

  it("refuses to link the user's embedded wallet address, and to unlink an embedded wallet", async () => {
    const user = makeUser();
    user.linked_accounts.push(embeddedWalletAccount(ethAddress, 0));
    scriptSignIn("siws", user);
    scriptSignIn("siwe", user);
    const c = client();
    // Signed in with the Solana wallet; the user's embedded Ethereum wallet has the test wallet's address.
    await connectWallet(c, { walletId: SOLANA_ID });
    await loginWithSiws(c);
    await connectWallet(c, { walletId: TEST_RDNS });
    await expect(linkWithSiwe(c)).rejects.toMatchObject({ message: EMBEDDED_LOGIN_MESSAGE });
    expect(scripted.server.hitsOf("POST /api/v1/siwe/init")).toEqual([]);
    await expect(unlinkWallet(c, ethAddress)).rejects.toMatchObject({ message: EMBEDDED_UNLINK_MESSAGE });
    expect(scripted.server.hitsOf("POST /api/v1/siwe/unlink")).toEqual([]);
  });
});

describe("wallet account transfer", () => {
  it("a link refused with account_transfer_required keeps the proof; transferAccount moves the wallet with its metadata", async () => {
    scriptSignIn("siws", makeUser({ linked_accounts: [] }));
    scriptSignIn("siwe", scripted.app.user);
    const data = {
      nonce: "t1",
      account_type: "wallet",
      display_name: ethAddress,
      embedded_wallet_address: null,
    };
    scripted.server.on("POST /api/v1/siwe/link", () => ({
      status: 400,
      json: { error: "This wallet belongs to another user.", code: "account_transfer_required", data },
    }));
    const c = client();
    await connectWallet(c, { walletId: SOLANA_ID });
    await loginWithSiws(c);
    await connectWallet(c, { walletId: TEST_RDNS });
    const refusal = await linkWithSiwe(c).catch((e: unknown) => e);
    expect(refusal).toMatchObject({
      code: "account_transfer_required",
      data: { nonce: "t1", walletClientType: "symbolon_test_wallet", connectorType: "injected" },
    });
    scripted.server.on("POST /api/v1/siwe/transfer", () => ({ json: scripted.app.user }));
    await transferAccount(c, {
      accountType: "wallet",
      nonce: "t1",
      subject: ethAddress,
      metadata: { walletClientType: "symbolon_test_wallet", connectorType: "injected" },
    });
    expect(scripted.server.hitsOf("POST /api/v1/siwe/transfer")[0]?.body).toEqual({
      nonce: "t1",
      address: ethAddress,
      metadata: { walletClientType: "symbolon_test_wallet", connectorType: "injected" },
    });
  });
});

describe("SIWS", () => {
  it("login: the Sign-In With Solana text signed with solana:signMessage, signature base64, verifiable with the key", async () => {
    scriptSignIn("siws", makeUser({ linked_accounts: [] }));
    const c = client();
    await connectWallet(c, { walletId: SOLANA_ID });
    await loginWithSiws(c);
    expect(c.store.getState().externalWallets.siwe).toMatchObject({ status: "done", chainType: "solana" });
    const body = scripted.server.hitsOf("POST /api/v1/siws/authenticate")[0]?.body as Record<string, string>;
    expect(body).toMatchObject({
      walletClientType: "symbolon_test_solana_wallet",
      connectorType: "solana_adapter",
      mode: "login-or-sign-up",
    });
    const lines = (body.message ?? "").split("\n");
    expect(lines.slice(0, 4)).toEqual([
      `${window.location.host} wants you to sign in with your Solana account:`,
      solanaAddress,
      "",
      SIWE_STATEMENT,
    ]);
    expect(lines).toContain("Nonce: nonce12345678");
    expect(lines).toContain(`URI: ${window.location.origin}`);
    const signature = Uint8Array.from(atob(body.signature ?? ""), (ch) => ch.charCodeAt(0));
    const ok = ed25519.verify(signature, new TextEncoder().encode(body.message), bs58.decode(solanaAddress));
    expect(ok).toBe(true);
  });
});

function copy(storage: ReturnType<typeof createMemoryStorage>) {
  const key = storageKey(APP_ID, "wallet_connections");
  const next = createMemoryStorage();
  const value = storage.getItem(key);
  if (value !== null) next.setItem(key, value);
  return next;
}
