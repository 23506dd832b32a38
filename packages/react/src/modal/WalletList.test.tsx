// The login screen's wallet button and the wallet list (installed first, the directory, keyboard).
import {
  createTestEthereumProvider,
  installSolanaTestWallet,
  TEST_SOLANA_WALLET_NAME,
} from "@symbolon/test-wallets";
import { cleanup, fireEvent, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderModal } from "./renderModal";

import {
  announce,
  expectLabelled,
  ICON,
  KEY,
  names,
  resetWallets,
  scriptedServer,
  WALLETS_FIRST,
} from "./walletTestKit";

resetWallets();

describe("the wallet list", () => {
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
