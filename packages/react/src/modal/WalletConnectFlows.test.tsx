// connectWallet() and connect-or-create, and the WalletConnect pairing screen.
import {
  type Client,
  createClient,
  createMemoryStorage,
  WALLET_CONNECT_ID,
  type WalletOption,
} from "@symbolon/core";
import { createTestEthereumProvider } from "@symbolon/test-wallets";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { Suspense } from "react";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { createModalController } from "../provider/createModalController";
import { PrivyContext } from "../provider/PrivyContext";
import { TEST_APP_ID } from "../test/startTestServer";
import type { WalletOutcome } from "./flows/createWalletFlow";
import { renderModal } from "./renderModal";
import { screenActionsOf } from "./screenActions";
import WalletConnectScreen from "./WalletConnectScreen";
import { ADDRESS, announce, KEY, names, resetWallets, scriptedServer, WALLETS_FIRST } from "./walletTestKit";

resetWallets();

describe("connecting a wallet without signing in", () => {
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
          <WalletConnectScreen
            client={client}
            actions={screenActionsOf(controller, client).wallets}
            walletId={option.id}
            titleId="t"
            onCancel={controller.close}
          />
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
