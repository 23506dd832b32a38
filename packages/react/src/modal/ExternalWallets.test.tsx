import {
  type Client,
  createClient,
  createMemoryStorage,
  type User,
  WALLET_CONNECT_ID,
  type WalletOption,
} from "@symbolon/core";
import {
  APP_ID,
  makeUser,
  type ScriptedApp,
  type ScriptedServer,
  scriptApp,
  startScriptedServer,
} from "@symbolon/core/testing";
import {
  controlOn,
  createTestEthereumProvider,
  installSolanaTestWallet,
  TEST_SOLANA_WALLET_NAME,
} from "@symbolon/test-wallets";
import { act, cleanup, configure, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { Suspense } from "react";
import { type Hex, verifyMessage } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { parseSiweMessage } from "viem/siwe";
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { usePrivy } from "../hooks/usePrivy";
import { createModalController, type WalletOutcome } from "../provider/createModalController";
import { PrivyContext } from "../provider/PrivyContext";
import { PrivyProvider } from "../provider/PrivyProvider";
import { TEST_APP_ID } from "../test/startTestServer";
import { renderModal } from "./renderModal";
import WalletConnectScreen from "./WalletConnectScreen";

// Wallet discovery waits for injected wallets (spec §9, 1000 ms), and the machine is shared: wait longer.
configure({ asyncUtilTimeout: 5000 });

const KEY = generatePrivateKey();
const ADDRESS = privateKeyToAccount(KEY).address;
const WALLETS_FIRST = { login_methods_and_order: { primary: ["wallet", "email"], overflow: [] } };
const ICON = "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=";

type Request = { method: string; params?: unknown };
type Provider = { request(args: Request): Promise<unknown> };

/**
 * Announces `provider` through EIP-6963 (now and on every request) like a browser extension; the
 * listener goes when the test ends.
 */
function announce(provider: Provider, info: { name: string; rdns: string; icon?: string }) {
  const detail = Object.freeze({
    info: { uuid: crypto.randomUUID(), icon: ICON, ...info },
    provider,
  });
  const send = () => window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail }));
  window.addEventListener("eip6963:requestProvider", send);
  onTestFinished(() => window.removeEventListener("eip6963:requestProvider", send));
  send();
}

/**
 * The test wallet (a viem local account behind a real EIP-1193 provider) with the person's prompts
 * held until the test approves them: `approve("personal_sign")` lets the waiting request go on.
 */
function heldTestWallet({
  hold = ["eth_requestAccounts", "personal_sign"],
  chainId = 1,
  chains = [] as { id: number }[],
} = {}) {
  const inner = createTestEthereumProvider(
    { privateKey: KEY, storage: null, chainId, chains },
    controlOn(window),
  );
  const waiting = new Map<string, () => void>();
  const held = new Set(hold);
  const provider: Provider = {
    ...inner,
    async request(args) {
      if (held.has(args.method)) await new Promise<void>((go) => waiting.set(args.method, go));
      return inner.request(args as Parameters<typeof inner.request>[0]);
    },
  };
  announce(provider, { name: "Symbolon Test Wallet", rdns: "dev.symbolon.testwallet" });
  return {
    async approve(method: string) {
      await waitFor(() => expect(waiting.has(method)).toBe(true));
      const go = waiting.get(method);
      waiting.delete(method);
      await act(async () => go?.());
    },
  };
}

/** The scripted server's SIWE routes: a nonce per address, and a real EIP-4361 + signature check. */
function scriptSiwe(server: ScriptedServer, app: ScriptedApp) {
  const nonces = new Map<string, string>();
  server.on("POST /api/v1/siwe/init", (hit) => {
    const nonce = `nonce${nonces.size + 1}abcdefgh`;
    nonces.set(nonce, String((hit.body as { address: string }).address).toLowerCase());
    return { json: { nonce } };
  });
  /** The address a signed EIP-4361 message proves, when its nonce is one we gave that address. */
  const verified = async (body: unknown) => {
    const { message, signature } = body as { message: string; signature: Hex };
    const fields = parseSiweMessage(message);
    const bound = fields.nonce ? nonces.get(fields.nonce) : undefined;
    const valid =
      fields.address !== undefined &&
      bound === fields.address.toLowerCase() &&
      (await verifyMessage({ address: fields.address, message, signature }));
    if (!valid) return null;
    nonces.delete(fields.nonce as string);
    return fields.address as string;
  };
  const refused = { status: 401, json: { error: "Invalid signature", code: "invalid_credentials" } };
  server.on("POST /api/v1/siwe/authenticate", async (hit) => {
    const address = await verified(hit.body);
    if (!address) return refused;
    app.user = { ...app.user, linked_accounts: [walletAccount(address)] };
    return { json: app.issue({ is_new_user: true }) };
  });
  server.on("POST /api/v1/siwe/link", async (hit) => {
    const address = await verified(hit.body);
    if (!address) return refused;
    app.user = { ...app.user, linked_accounts: [...app.user.linked_accounts, walletAccount(address)] };
    return { json: app.user };
  });
}

/** A linked external wallet (server form). */
function walletAccount(address: string): User["linked_accounts"][number] {
  return {
    type: "wallet",
    id: null,
    address,
    chain_type: "ethereum",
    wallet_client_type: "symbolon_test_wallet",
    connector_type: "injected",
    wallet_index: null,
    recovery_method: null,
    imported: false,
    delegated: false,
    verified_at: 1,
    first_verified_at: 1,
    latest_verified_at: 1,
  } as unknown as User["linked_accounts"][number];
}

async function scriptedServer(user?: User) {
  const server = await startScriptedServer();
  onTestFinished(() => server.close());
  const app = scriptApp(server, { config: WALLETS_FIRST, ...(user ? { user } : {}) });
  scriptSiwe(server, app);
  return server;
}

function LinkHost() {
  const { ready, authenticated, user, linkWallet } = usePrivy();
  const wallets = user?.linkedAccounts.filter((a) => a.type === "wallet").length ?? 0;
  return (
    <main>
      <p data-testid="status">
        {ready ? (authenticated ? `signed-in:${wallets}` : "signed-out") : "loading"}
      </p>
      <button type="button" onClick={linkWallet}>
        Link a wallet
      </button>
    </main>
  );
}

const names = (root: HTMLElement) =>
  within(root)
    .getAllByRole("button")
    .map((b) => b.getAttribute("aria-label") ?? b.textContent);

/** What an accessibility checker would flag first: unnamed buttons, images without alt, unnamed svgs. */
function expectLabelled(root: HTMLElement) {
  for (const button of within(root).getAllByRole("button"))
    expect(button.getAttribute("aria-label") ?? button.textContent?.trim()).toBeTruthy();
  for (const img of root.querySelectorAll("img")) expect(img.hasAttribute("alt")).toBe(true);
  for (const svg of root.querySelectorAll("svg")) {
    const named = svg.getAttribute("role") === "img" && svg.getAttribute("aria-label");
    expect(named || svg.getAttribute("aria-hidden") === "true").toBeTruthy();
  }
}

beforeEach(() => {
  controlOn(window).reject = false;
});
afterEach(() => vi.restoreAllMocks());

describe("external wallets in the modal", () => {
  it("offers 'Continue with a wallet' (with its glyph) only when the app lists `wallet`", async () => {
    const plain = await renderModal((c) => c.login(), {
      appConfig: { login_methods_and_order: { primary: ["email"], overflow: [] } },
    });
    expect(within(plain.dialog).queryByRole("button", { name: "Continue with a wallet" })).toBeNull();
    plain.controller.destroy();
    cleanup();

    const { dialog } = await renderModal((c) => c.login(), { appConfig: WALLETS_FIRST });
    const button = within(dialog).getByRole("button", { name: "Continue with a wallet" });
    expect(button.querySelector("svg[aria-hidden='true']")).not.toBeNull();
    expect(names(dialog)).toEqual(["Close", "Continue with a wallet", "Continue with email"]);
  });

  it("an app whose only method is a wallet opens straight on the wallet list (no Back)", async () => {
    const { dialog } = await renderModal((c) => c.login(), {
      appConfig: { login_methods_and_order: { primary: ["wallet"], overflow: [] } },
    });
    await within(dialog).findByRole("heading", { name: "Log in with a wallet" });
    expect(within(dialog).getByRole("list", { name: "Wallets" })).toBeTruthy();
    expect(within(dialog).queryByRole("button", { name: "Back" })).toBeNull();
  });

  it("moves between wallets with the arrow keys, Home and End; the title takes focus first", async () => {
    announce(createTestEthereumProvider({ privateKey: KEY, storage: null }), {
      name: "Symbolon Test Wallet",
      rdns: "dev.symbolon.testwallet",
    });
    const { dialog } = await renderModal((c) => c.openConnectWallet());
    const title = await within(dialog).findByRole("heading", { name: "Connect a wallet" });
    await waitFor(() => expect(document.activeElement).toBe(title));
    // The dialog is named by the screen's title.
    expect(dialog.getAttribute("aria-labelledby")).toBe(title.id);
    const list = within(dialog).getByRole("list", { name: "Wallets" });
    // Discovery ends after the injected-wallet wait (spec §9, 1000 ms).
    await waitFor(
      () => expect(within(dialog).getByRole("status").textContent).toMatch(/found in this browser$/),
      { timeout: 5000 },
    );
    const rows = within(list).getAllByRole("button");
    const last = rows.at(-1) as HTMLElement;
    expect(rows.length).toBeGreaterThanOrEqual(3);
    rows[0]?.focus();
    fireEvent.keyDown(rows[0] as HTMLElement, { key: "ArrowDown" });
    expect(document.activeElement).toBe(rows[1]);
    fireEvent.keyDown(rows[1] as HTMLElement, { key: "End" });
    expect(document.activeElement).toBe(last);
    fireEvent.keyDown(last, { key: "ArrowDown" });
    expect(document.activeElement).toBe(last);
    fireEvent.keyDown(last, { key: "Home" });
    expect(document.activeElement).toBe(rows[0]);
    fireEvent.keyDown(rows[0] as HTMLElement, { key: "ArrowUp" });
    expect(document.activeElement).toBe(rows[0]);
  });

  it("logs in with an injected wallet: waiting → signing (SIWE) → done", async () => {
    const server = await scriptedServer();
    const wallet = heldTestWallet();
    const { dialog, client, outcomes } = await renderModal((c) => c.login(), {
      appConfig: WALLETS_FIRST,
      clientOptions: { apiUrl: server.url },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue with a wallet" }));
    fireEvent.click(await within(dialog).findByRole("button", { name: /^Symbolon Test Wallet/ }));

    const waiting = await within(dialog).findByRole("heading", { name: "Waiting for Symbolon Test Wallet" });
    await waitFor(() => expect(document.activeElement).toBe(waiting));
    expect(within(dialog).getByText("Open Symbolon Test Wallet to continue")).toBeTruthy();
    expect(within(dialog).getByRole("img", { name: "Symbolon Test Wallet logo" }).getAttribute("src")).toBe(
      ICON,
    );
    expectLabelled(dialog);

    await wallet.approve("eth_requestAccounts");
    await within(dialog).findByRole("heading", { name: "Sign in with Symbolon Test Wallet" });
    await within(dialog).findByText("Sign the message in your wallet to continue");
    expect(within(dialog).getByTitle(ADDRESS)).toBeTruthy();

    await wallet.approve("personal_sign");
    await within(dialog).findByRole("heading", { name: "You're logged in" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull(), { timeout: 3000 });
    expect(outcomes).toEqual([expect.objectContaining({ type: "complete", flow: "login" })]);
    expect(client.store.getState().authenticated).toBe(true);
    const [sent] = server.hitsOf("POST /api/v1/siwe/authenticate");
    expect(sent?.body).toMatchObject({ walletClientType: "symbolon_test_wallet", connectorType: "injected" });
  });

  it("after signing, an app that requires terms shows them first, like every login (spec §4)", async () => {
    const server = await scriptedServer(makeUser({ has_accepted_terms: false }));
    announce(createTestEthereumProvider({ privateKey: KEY, storage: null }), {
      name: "Symbolon Test Wallet",
      rdns: "dev.symbolon.testwallet",
    });
    const { dialog } = await renderModal((c) => c.login(), {
      appConfig: { ...WALLETS_FIRST, require_users_accept_terms: true },
      clientOptions: { apiUrl: server.url },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue with a wallet" }));
    fireEvent.click(await within(dialog).findByRole("button", { name: /^Symbolon Test Wallet/ }));
    await within(dialog).findByRole("heading", { name: "Accept the terms" });
    expect(server.hitsOf("POST /api/v1/siwe/authenticate")).toHaveLength(1);
  });

  it("shows 'Switching network' while the wallet moves to the app's chain, then signs for that chain", async () => {
    const server = await scriptedServer();
    const wallet = heldTestWallet({ hold: ["wallet_switchEthereumChain"], chains: [{ id: 50312 }] });
    const chain = {
      id: 50312,
      name: "Somnia Testnet",
      rpcUrl: "http://127.0.0.1:1",
      nativeCurrency: { name: "STT", symbol: "STT", decimals: 18 },
    };
    const { dialog, client } = await renderModal((c) => c.login(), {
      appConfig: WALLETS_FIRST,
      clientOptions: { apiUrl: server.url, chains: [chain] },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue with a wallet" }));
    fireEvent.click(await within(dialog).findByRole("button", { name: /^Symbolon Test Wallet/ }));
    await within(dialog).findByRole("heading", { name: "Switching network" });
    expect(within(dialog).getByRole("status").textContent).toBe(
      "Approve the network switch in Symbolon Test Wallet",
    );
    await wallet.approve("wallet_switchEthereumChain");
    await within(dialog).findByRole("heading", { name: "You're logged in" });
    expect(client.store.getState().authenticated).toBe(true);
    const [sent] = server.hitsOf("POST /api/v1/siwe/authenticate");
    expect(sent?.body).toMatchObject({ chainId: "eip155:50312" });
  });

  it("connect-or-create: the login screen offers wallets that only connect, next to the other methods", async () => {
    const server = await scriptedServer();
    announce(createTestEthereumProvider({ privateKey: KEY, storage: null }), {
      name: "Symbolon Test Wallet",
      rdns: "dev.symbolon.testwallet",
    });
    const walletOutcomes: WalletOutcome[] = [];
    const { dialog, controller, client, outcomes } = await renderModal((c) => c.openConnectOrCreate(), {
      appConfig: WALLETS_FIRST,
      clientOptions: { apiUrl: server.url },
    });
    controller.onWalletOutcome((outcome) => walletOutcomes.push(outcome));
    expect(names(dialog)).toEqual(["Close", "Continue with a wallet", "Continue with email"]);
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue with a wallet" }));
    await within(dialog).findByRole("heading", { name: "Connect a wallet" });
    fireEvent.click(await within(dialog).findByRole("button", { name: /^Symbolon Test Wallet/ }));
    await within(dialog).findByRole("heading", { name: "Wallet connected" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull(), { timeout: 3000 });
    expect(walletOutcomes).toEqual([
      expect.objectContaining({ type: "complete", flow: "connect-or-create", result: null }),
    ]);
    // No sign-in: neither a SIWE call nor a login outcome.
    expect(server.hitsOf("POST /api/v1/siwe/init")).toHaveLength(0);
    expect(outcomes).toEqual([]);
    expect(client.store.getState().authenticated).toBe(false);
  });

  it("shows a 4001 as a decline (never the raw error) and Try again connects, then signs", async () => {
    const server = await scriptedServer();
    announce(createTestEthereumProvider({ privateKey: KEY, storage: null }, controlOn(window)), {
      name: "Symbolon Test Wallet",
      rdns: "dev.symbolon.testwallet",
    });
    const control = controlOn(window);
    control.reject = true;
    const { dialog, client } = await renderModal((c) => c.login(), {
      appConfig: WALLETS_FIRST,
      clientOptions: { apiUrl: server.url },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue with a wallet" }));
    fireEvent.click(await within(dialog).findByRole("button", { name: /^Symbolon Test Wallet/ }));

    await within(dialog).findByRole("heading", { name: "Could not connect to Symbolon Test Wallet" });
    expect(within(dialog).getByRole("alert").textContent).toBe(
      "You declined the connection request. Try again to connect.",
    );
    expect(dialog.textContent).not.toMatch(/User rejected|4001/);

    // Connect now, but say no to the signature.
    control.reject = ["personal_sign"];
    fireEvent.click(within(dialog).getByRole("button", { name: "Try again" }));
    await within(dialog).findByRole("heading", { name: "Could not sign in" });
    expect(within(dialog).getByRole("alert").textContent).toBe(
      "You declined the signature request. Try again to sign in.",
    );
    expect(dialog.textContent).not.toMatch(/User rejected|4001/);

    control.reject = false;
    fireEvent.click(within(dialog).getByRole("button", { name: "Try again" }));
    await within(dialog).findByRole("heading", { name: "You're logged in" });
    expect(client.store.getState().authenticated).toBe(true);
    expect(server.hitsOf("POST /api/v1/siwe/authenticate")).toHaveLength(1);
  });

  it("shows the Phantom multichain failure with Try again and Cancel when Phantom's Ethereum side fails", async () => {
    const server = await scriptedServer();
    const inner = createTestEthereumProvider({ privateKey: KEY, storage: null });
    let failures = 2;
    announce(
      {
        async request(args) {
          if (args.method === "eth_requestAccounts" && failures-- > 0)
            throw Object.assign(new Error("Ethereum is not enabled"), { code: -32603 });
          return inner.request(args as Parameters<typeof inner.request>[0]);
        },
      },
      { name: "Phantom", rdns: "app.phantom" },
    );
    const { dialog, outcomes } = await renderModal((c) => c.login(), {
      appConfig: WALLETS_FIRST,
      clientOptions: { apiUrl: server.url },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue with a wallet" }));
    fireEvent.click(await within(dialog).findByRole("button", { name: /^Phantom/ }));

    const title = await within(dialog).findByRole("heading", { name: "Could not connect with wallet" });
    await waitFor(() => expect(document.activeElement).toBe(title));
    expect(within(dialog).getByRole("alert").textContent).toBe(
      "Please check that Phantom multichain is enabled and try again.",
    );
    expect(names(dialog)).toEqual(["Close", "Try again", "Cancel"]);
    // Try again asks Phantom again (and it fails again here).
    fireEvent.click(within(dialog).getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(failures).toBe(0));
    await within(dialog).findByRole("heading", { name: "Could not connect with wallet" });
    // Cancel closes: the login reports the user's exit.
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(outcomes).toEqual([{ type: "error", flow: "login", code: "exited_auth_flow" }]);
  });

  it("Phantom's Try again goes on to the signature once Ethereum answers", async () => {
    const server = await scriptedServer();
    const inner = createTestEthereumProvider({ privateKey: KEY, storage: null });
    let failures = 1;
    announce(
      {
        async request(args) {
          if (args.method === "eth_requestAccounts" && failures-- > 0)
            throw Object.assign(new Error("Ethereum is not enabled"), { code: -32603 });
          return inner.request(args as Parameters<typeof inner.request>[0]);
        },
      },
      { name: "Phantom", rdns: "app.phantom" },
    );
    const { dialog, client } = await renderModal((c) => c.login(), {
      appConfig: WALLETS_FIRST,
      clientOptions: { apiUrl: server.url },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue with a wallet" }));
    fireEvent.click(await within(dialog).findByRole("button", { name: /^Phantom/ }));
    fireEvent.click(await within(dialog).findByRole("button", { name: "Try again" }));
    await within(dialog).findByRole("heading", { name: "You're logged in" });
    expect(client.store.getState().authenticated).toBe(true);
  });

  it("connectWallet() connects without signing in and reports the wallet", async () => {
    const server = await scriptedServer();
    announce(createTestEthereumProvider({ privateKey: KEY, storage: null }), {
      name: "Symbolon Test Wallet",
      rdns: "dev.symbolon.testwallet",
    });
    const walletOutcomes: WalletOutcome[] = [];
    const { dialog, controller, client } = await renderModal((c) => c.openConnectWallet(), {
      clientOptions: { apiUrl: server.url },
    });
    controller.onWalletOutcome((outcome) => walletOutcomes.push(outcome));
    fireEvent.click(await within(dialog).findByRole("button", { name: /^Symbolon Test Wallet/ }));
    await within(dialog).findByRole("heading", { name: "Wallet connected" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull(), { timeout: 3000 });
    expect(walletOutcomes).toEqual([
      expect.objectContaining({ type: "complete", flow: "connect", result: null }),
    ]);
    const [outcome] = walletOutcomes;
    expect(outcome?.type === "complete" && outcome.wallet?.address).toBe(ADDRESS);
    expect(server.hitsOf("POST /api/v1/siwe/init")).toHaveLength(0);
    expect(client.store.getState().authenticated).toBe(false);
  });

  it("closing connectWallet() after a failure the wallet gave no code for reports unknown_connect_wallet_error", async () => {
    announce(
      {
        async request() {
          throw new Error("extension context invalidated");
        },
      },
      { name: "Broken Wallet", rdns: "example.broken" },
    );
    const walletOutcomes: WalletOutcome[] = [];
    const { dialog, controller } = await renderModal((c) => c.openConnectWallet());
    controller.onWalletOutcome((outcome) => walletOutcomes.push(outcome));
    fireEvent.click(await within(dialog).findByRole("button", { name: /^Broken Wallet/ }));
    await within(dialog).findByRole("heading", { name: "Could not connect to Broken Wallet" });
    // The spec §8 sentence, not the wallet's own message.
    expect(within(dialog).getByRole("alert").textContent).toBe("Unable to connect to wallet.");
    fireEvent.click(within(dialog).getByRole("button", { name: "Close" }));
    expect(walletOutcomes).toEqual([
      { type: "error", flow: "connect", code: "unknown_connect_wallet_error" },
    ]);
  });

  it("closing connectWallet() without a wallet reports generic_connect_wallet_error", async () => {
    const walletOutcomes: WalletOutcome[] = [];
    const { dialog, controller } = await renderModal((c) => c.openConnectWallet());
    controller.onWalletOutcome((outcome) => walletOutcomes.push(outcome));
    fireEvent.click(within(dialog).getByRole("button", { name: "Close" }));
    expect(walletOutcomes).toEqual([
      { type: "error", flow: "connect", code: "generic_connect_wallet_error" },
    ]);
  });

  it("lists installed wallets first (Ethereum and Solana labelled), then WalletConnect and Coinbase, then the directory", async () => {
    const server = await scriptedServer();
    server.on("GET /v3/wallets", () => ({
      json: {
        listings: {
          a: { id: "a", name: "Zerion", slug: "zerion", image_url: { md: "https://img.example/z.png" } },
          b: { id: "b", name: "MetaMask", slug: "metamask" },
          c: { id: "c", name: "Rainbow", slug: "rainbow" },
        },
      },
    }));
    announce(createTestEthereumProvider({ privateKey: KEY, storage: null }), {
      name: "Symbolon Test Wallet",
      rdns: "dev.symbolon.testwallet",
    });
    // Wallet Standard keeps it for the rest of the file: this test runs last among the list tests.
    installSolanaTestWallet({ secretKey: `0x${"11".repeat(32)}` });
    const { dialog } = await renderModal((c) => c.login(), {
      appConfig: WALLETS_FIRST,
      clientOptions: {
        apiUrl: server.url,
        walletExplorerUrl: server.url,
        walletConnectCloudProjectId: "proj",
      },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue with a wallet" }));
    const list = await within(dialog).findByRole("list", { name: "Wallets" });
    await waitFor(() => expect(within(list).getAllByRole("button").length).toBe(7));
    const rows = within(list)
      .getAllByRole("button")
      .map((b) => b.querySelector(".symbolon-wallet-name")?.textContent);
    // Rainbow and MetaMask first in the directory (spec §7).
    expect(rows).toEqual([
      "Symbolon Test Wallet",
      TEST_SOLANA_WALLET_NAME,
      "Coinbase Wallet",
      "WalletConnect",
      "Rainbow",
      "MetaMask",
      "Zerion",
    ]);
    const row = (name: string) => within(list).getByRole("button", { name: new RegExp(`^${name}`) });
    // Each row is named "<name> <chain> Installed" (the icon is decorative there).
    expect(
      within(list).getByRole("button", { name: "Symbolon Test Wallet Ethereum Installed" }),
    ).toBeTruthy();
    expect(
      within(list).getByRole("button", { name: `${TEST_SOLANA_WALLET_NAME} Solana Installed` }),
    ).toBeTruthy();
    expect(within(list).getByRole("button", { name: "WalletConnect Ethereum" })).toBeTruthy();
    // The EIP-6963 icon is shown as an image (decorative in the row: the text names the wallet).
    expect(row("Symbolon Test Wallet").querySelector("img")?.getAttribute("src")).toBe(ICON);
    expect(row("Zerion").querySelector("img")?.getAttribute("src")).toBe("https://img.example/z.png");
    await waitFor(
      () => expect(within(dialog).getByRole("status").textContent).toBe("2 wallets found in this browser"),
      { timeout: 5000 },
    );
    // Seven rows is few enough: no search field.
    expect(within(dialog).queryByRole("searchbox")).toBeNull();
    expectLabelled(dialog);
  });
});

describe("Sign-In With Solana in the modal", () => {
  /** The Ed25519 public key of a 32-byte seed, through WebCrypto (PKCS #8 in, JWK out). */
  async function verifierOf(seed: Uint8Array) {
    const pkcs8 = new Uint8Array([
      ...[0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20],
      ...seed,
    ]);
    const secret = await crypto.subtle.importKey("pkcs8", pkcs8, { name: "Ed25519" }, true, ["sign"]);
    const { x } = await crypto.subtle.exportKey("jwk", secret);
    return crypto.subtle.importKey("jwk", { kty: "OKP", crv: "Ed25519", x }, { name: "Ed25519" }, false, [
      "verify",
    ]);
  }

  it("signs in with a Wallet Standard wallet: the SIWS message verified with the wallet's key", async () => {
    const seed = crypto.getRandomValues(new Uint8Array(32));
    const wallet = installSolanaTestWallet({ secretKey: seed });
    const key = await verifierOf(seed);
    const server = await startScriptedServer();
    onTestFinished(() => server.close());
    const app = scriptApp(server, { config: WALLETS_FIRST });
    let issued = "";
    server.on("POST /api/v1/siws/init", () => {
      issued = `siws${Date.now()}`;
      return { json: { nonce: issued } };
    });
    server.on("POST /api/v1/siws/authenticate", async (hit) => {
      const { message, signature } = hit.body as { message: string; signature: string };
      const bytes = Uint8Array.from(atob(signature), (c) => c.charCodeAt(0));
      const valid =
        message.split("\n")[1] === wallet.address &&
        message.includes(`Nonce: ${issued}`) &&
        (await crypto.subtle.verify("Ed25519", key, bytes, new TextEncoder().encode(message)));
      if (!valid) return { status: 401, json: { error: "Invalid signature", code: "invalid_credentials" } };
      return { json: app.issue({ is_new_user: true }) };
    });
    const { dialog, client } = await renderModal((c) => c.login(), {
      appConfig: WALLETS_FIRST,
      clientOptions: { apiUrl: server.url },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue with a wallet" }));
    fireEvent.click(
      await within(dialog).findByRole("button", { name: `${TEST_SOLANA_WALLET_NAME} Solana Installed` }),
    );
    await within(dialog).findByRole("heading", { name: "You're logged in" });
    expect(client.store.getState().authenticated).toBe(true);
    const [sent] = server.hitsOf("POST /api/v1/siws/authenticate");
    expect(sent?.body).toMatchObject({ connectorType: "solana_adapter" });
    expect(server.hitsOf("POST /api/v1/siwe/init")).toHaveLength(0);
  });
});

describe("linking an external wallet", () => {
  it("linkWallet() opens the list in link mode; the wallet is linked to the signed-in user with SIWE", async () => {
    const server = await startScriptedServer();
    onTestFinished(() => server.close());
    const app = scriptApp(server, { config: WALLETS_FIRST });
    scriptSiwe(server, app);
    // The session a previous page load left (an email user).
    const session = app.issue();
    localStorage.setItem(`privy:token:${APP_ID}`, session.token ?? "");
    localStorage.setItem(`privy:refresh_token:${APP_ID}`, session.refresh_token ?? "");
    localStorage.setItem(`privy:user:${APP_ID}`, JSON.stringify(session.user));
    onTestFinished(() => localStorage.clear());
    announce(createTestEthereumProvider({ privateKey: KEY, storage: null }), {
      name: "Symbolon Test Wallet",
      rdns: "dev.symbolon.testwallet",
    });
    render(
      <PrivyProvider appId={APP_ID} apiUrl={server.url}>
        <LinkHost />
      </PrivyProvider>,
    );
    await screen.findByText("signed-in:0");
    fireEvent.click(screen.getByRole("button", { name: "Link a wallet" }));
    const dialog = await screen.findByRole("dialog", { name: "Link a wallet" });
    expect(within(dialog).getByText("Choose the wallet to add to your account.")).toBeTruthy();
    fireEvent.click(await within(dialog).findByRole("button", { name: /^Symbolon Test Wallet/ }));
    await within(dialog).findByRole("heading", { name: "Wallet added" });
    await screen.findByText("signed-in:1");
    const [linked] = server.hitsOf("POST /api/v1/siwe/link");
    expect(linked?.body).toMatchObject({
      walletClientType: "symbolon_test_wallet",
      connectorType: "injected",
    });
    expect(linked?.headers.authorization).toBe(`Bearer ${session.token}`);
  });
});

describe("WalletConnect pairing screen", () => {
  const URI = "wc:7f6e5d4c@2?relay-protocol=irn&symKey=0123456789abcdef";

  function renderPairing(option: WalletOption, { narrow = false } = {}) {
    if (narrow)
      vi.stubGlobal("matchMedia", (query: string) => ({
        matches: true,
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      }));
    const client: Client = createClient({
      appId: TEST_APP_ID,
      apiUrl: "http://127.0.0.1:1",
      storage: createMemoryStorage(),
      broadcast: false,
    });
    const slice = client.store.getState().externalWallets;
    client.store.setState({
      externalWallets: {
        ...slice,
        options: [option],
        connection: { status: "connecting", walletId: option.id, error: null, pairingUri: URI },
      },
    });
    const controller = createModalController(client);
    render(
      <PrivyContext.Provider value={{ client, controller, config: {} }}>
        <Suspense fallback={null}>
          <WalletConnectScreen client={client} controller={controller} walletId={option.id} titleId="t" />
        </Suspense>
      </PrivyContext.Provider>,
    );
  }
  const walletConnect: WalletOption = {
    id: WALLET_CONNECT_ID,
    name: "WalletConnect",
    icon: null,
    chainType: "ethereum",
    connectorType: "wallet_connect",
    walletClientType: "wallet_connect",
    installed: false,
  };

  it("shows the pairing URI as a QR code, and Copy link copies it", async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    onTestFinished(() => {
      Reflect.deleteProperty(navigator, "clipboard");
    });
    renderPairing(walletConnect);
    expect(screen.getByRole("heading", { name: "Connect with WalletConnect" })).toBeTruthy();
    const qr = await screen.findByRole("img", { name: "WalletConnect QR code" });
    expect(qr.getAttribute("data-value")).toBe(URI);
    expect(screen.getByRole("status").textContent).toBe("Scan with your wallet app to connect");
    fireEvent.click(screen.getByRole("button", { name: "Copy link" }));
    expect(writeText).toHaveBeenCalledWith(URI);
    await screen.findByText("Link copied");
    // Wide screens get no app link.
    expect(screen.queryByRole("link")).toBeNull();
  });

  it("on narrow screens links to the wallet app: the wc: URI, or the listing's universal link", () => {
    renderPairing(walletConnect, { narrow: true });
    expect(screen.queryByRole("img", { name: "WalletConnect QR code" })).toBeNull();
    expect(screen.getByRole("link", { name: "Open wallet" }).getAttribute("href")).toBe(URI);
    cleanup();
    renderPairing(
      {
        ...walletConnect,
        id: "wc:metamask",
        name: "MetaMask",
        walletClientType: "metamask",
        links: { mobile: "https://metamask.app.link" },
      },
      { narrow: true },
    );
    expect(screen.getByRole("heading", { name: "Connect MetaMask" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Open MetaMask" }).getAttribute("href")).toBe(
      `https://metamask.app.link/wc?uri=${encodeURIComponent(URI)}`,
    );
  });
});
