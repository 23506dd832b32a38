// Signing in and linking with an external wallet: SIWE and SIWS, declines, the Phantom screen.
import { APP_ID, makeUser, scriptApp, startScriptedServer } from "@symbolon/core/testing";
import {
  controlOn,
  createTestEthereumProvider,
  installSolanaTestWallet,
  TEST_SOLANA_WALLET_NAME,
} from "@symbolon/test-wallets";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, onTestFinished } from "vitest";
import { usePrivy } from "../hooks/usePrivy";
import { PrivyProvider } from "../provider/PrivyProvider";
import { renderModal } from "./renderModal";

import {
  ADDRESS,
  announce,
  expectLabelled,
  heldTestWallet,
  ICON,
  KEY,
  names,
  resetWallets,
  scriptedServer,
  scriptSiwe,
  WALLETS_FIRST,
} from "./walletTestKit";

resetWallets();

describe("signing in with a wallet", () => {
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
