// Shared by the external-wallet modal tests: the test wallets announced through EIP-6963, a scripted
// server whose SIWE routes check real EIP-4361 messages and signatures, and a few accessibility checks.
import type { User } from "@symbolon/core";
import {
  type ScriptedApp,
  type ScriptedServer,
  scriptApp,
  startScriptedServer,
} from "@symbolon/core/testing";
import { controlOn, createTestEthereumProvider } from "@symbolon/test-wallets";
import { act, configure, waitFor, within } from "@testing-library/react";
import { type Hex, verifyMessage } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { parseSiweMessage } from "viem/siwe";
import { afterEach, beforeEach, expect, onTestFinished, vi } from "vitest";

// Wallet discovery waits for injected wallets (spec §9, 1000 ms), and the machine is shared: wait longer.
configure({ asyncUtilTimeout: 5000 });

export const KEY = generatePrivateKey();
export const ADDRESS = privateKeyToAccount(KEY).address;
export const WALLETS_FIRST = { login_methods_and_order: { primary: ["wallet", "email"], overflow: [] } };
export const ICON = "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=";

type Request = { method: string; params?: unknown };
type Provider = { request(args: Request): Promise<unknown> };

/**
 * Announces `provider` through EIP-6963 (now and on every request) like a browser extension; the
 * listener goes when the test ends.
 */
export function announce(provider: Provider, info: { name: string; rdns: string; icon?: string }) {
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
export function heldTestWallet({
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
export function scriptSiwe(server: ScriptedServer, app: ScriptedApp) {
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
export function walletAccount(address: string): User["linked_accounts"][number] {
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

export async function scriptedServer(user?: User) {
  const server = await startScriptedServer();
  onTestFinished(() => server.close());
  const app = scriptApp(server, { config: WALLETS_FIRST, ...(user ? { user } : {}) });
  scriptSiwe(server, app);
  return server;
}

export const names = (root: HTMLElement) =>
  within(root)
    .getAllByRole("button")
    .map((b) => b.getAttribute("aria-label") ?? b.textContent);

/** What an accessibility checker would flag first: unnamed buttons, images without alt, unnamed svgs. */
export function expectLabelled(root: HTMLElement) {
  for (const button of within(root).getAllByRole("button"))
    expect(button.getAttribute("aria-label") ?? button.textContent?.trim()).toBeTruthy();
  for (const img of root.querySelectorAll("img")) expect(img.hasAttribute("alt")).toBe(true);
  for (const svg of root.querySelectorAll("svg")) {
    const named = svg.getAttribute("role") === "img" && svg.getAttribute("aria-label");
    expect(named || svg.getAttribute("aria-hidden") === "true").toBeTruthy();
  }
}

/** Each test starts with a wallet that says yes, and without the previous test's mocks. */
export function resetWallets() {
  beforeEach(() => {
    controlOn(window).reject = false;
  });
  afterEach(() => vi.restoreAllMocks());
}
