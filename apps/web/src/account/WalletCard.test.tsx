// The Wallet card of a user who signed in with a browser wallet (SIWE): the external wallet as what it is,
// signing through it, no export, and "Create an embedded wallet" (spec §9: no embedded wallet on login for them).
import { APP_ID, makeUser, scriptApp, startScriptedServer } from "@symbolon/core/testing";
import { PrivyProvider, usePrivy } from "@symbolon/react";
import { controlOn, createTestEthereumProvider } from "@symbolon/test-wallets";
import { configure, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { verifyMessage } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it, onTestFinished } from "vitest";
import { somniaTestnet } from "../chains";
import { WalletCard } from "./WalletCard";

// Wallet discovery waits for injected wallets (1000 ms) on a shared machine.
configure({ asyncUtilTimeout: 5000 });

const KEY = generatePrivateKey();
const ADDRESS = privateKeyToAccount(KEY).address;
const WALLETS_FIRST = { login_methods_and_order: { primary: ["wallet", "email"], overflow: [] } };

/** The test wallet, announced through EIP-6963 like a browser extension, already on the app's chain. */
function announceTestWallet() {
  const provider = createTestEthereumProvider(
    { privateKey: KEY, storage: null, chainId: 50312, chains: [{ id: 50312 }] },
    controlOn(window),
  );
  const detail = Object.freeze({
    info: {
      uuid: crypto.randomUUID(),
      icon: "data:,",
      name: "Symbolon Test Wallet",
      rdns: "dev.symbolon.testwallet",
    },
    provider,
  });
  const send = () => window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail }));
  window.addEventListener("eip6963:requestProvider", send);
  onTestFinished(() => window.removeEventListener("eip6963:requestProvider", send));
  send();
}

let login: (() => void) | null = null;
function LoginButton() {
  const privy = usePrivy();
  login = privy.ready ? privy.login : null;
  return null;
}

/** Signs in through the modal with the test wallet (SIWE); the server answers a user with only that wallet. */
async function signInWithBrowserWallet() {
  const server = await startScriptedServer();
  onTestFinished(() => server.close());
  const app = scriptApp(server, { config: WALLETS_FIRST });
  server.on("POST /api/v1/siwe/init", () => ({ json: { nonce: "nonce1abcdefgh" } }));
  server.on("POST /api/v1/siwe/authenticate", () => {
    app.user = makeUser({
      linked_accounts: [
        {
          type: "wallet",
          address: ADDRESS,
          chain_type: "ethereum",
          wallet_client_type: "symbolon_test_wallet",
          connector_type: "injected",
          wallet_index: null,
          imported: false,
          delegated: false,
          verified_at: 1,
          first_verified_at: 1,
          latest_verified_at: 1,
        } as never,
      ],
    });
    return { json: app.issue({ is_new_user: true }) };
  });
  announceTestWallet();
  render(
    <PrivyProvider
      appId={APP_ID}
      apiUrl={server.url}
      config={{ supportedChains: [somniaTestnet("http://127.0.0.1:1")] }}
    >
      <LoginButton />
      <WalletCard faucetRpcUrl={undefined} />
    </PrivyProvider>,
  );
  await waitFor(() => expect(login).not.toBeNull());
  login?.();
  const dialog = await screen.findByRole("dialog");
  fireEvent.click(await within(dialog).findByRole("button", { name: "Continue with a wallet" }));
  fireEvent.click(await within(dialog).findByRole("button", { name: /^Symbolon Test Wallet/ }));
  await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull(), { timeout: 5000 });
  return server;
}

describe("WalletCard for a browser-wallet user", () => {
  it("shows the connected external wallet without Export, signs through it, and offers an embedded wallet", async () => {
    const server = await signInWithBrowserWallet();
    const card = await screen.findByRole("region", { name: "Wallet" });
    expect((await within(card).findByTestId("wallet-kind")).textContent).toBe(
      "Connected wallet (external) · Symbolon Test Wallet",
    );
    expect(within(card).getByTestId("wallet-address").textContent).toBe(ADDRESS);
    expect(within(card).queryByRole("button", { name: "Export private key" })).toBeNull();
    expect(within(card).getByRole("button", { name: "Create an embedded wallet" })).toBeTruthy();

    fireEvent.change(within(card).getByLabelText("Message"), { target: { value: "hello" } });
    fireEvent.click(within(card).getByRole("button", { name: "Sign message" }));
    const signature = (await within(card).findByTestId("signature")).textContent as `0x${string}`;
    expect(await verifyMessage({ address: ADDRESS, message: "hello", signature })).toBe(true);
    // Signed by the browser wallet: the embedded-wallet frame was never asked.
    expect(server.hitsOf("POST /api/v1/embedded_wallets")).toEqual([]);
    expect(within(card).queryByText(/is not an embedded wallet/)).toBeNull();
  });
});
