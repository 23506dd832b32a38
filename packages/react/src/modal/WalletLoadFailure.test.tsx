import { fireEvent, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { renderModal } from "./renderModal";

// The wallet actions' chunk cannot load (a deploy replaced it, the network dropped).
vi.mock("@symbolon/core/externalWallets", () => {
  throw new Error("Failed to fetch dynamically imported module");
});

describe("wallet actions that cannot load", () => {
  it("show 'Unable to connect to wallet.' with Try again instead of waiting forever", async () => {
    const { dialog, controller, actions } = await renderModal((c) => c.openConnectWallet());
    // Discovery needs the same code: the list stays empty and the wallet goes unnamed.
    actions.wallets.chooseWallet("wallet_connect");
    const title = await within(dialog).findByRole("heading", { name: "Could not connect to your wallet" });
    expect(title).toBeTruthy();
    expect(within(dialog).getByRole("alert").textContent).toBe("Unable to connect to wallet.");
    fireEvent.click(within(dialog).getByRole("button", { name: "Try again" }));
    // Still failing: the same screen, not a spinner.
    expect(await within(dialog).findByRole("alert")).toBeTruthy();
    expect(controller.getState()).toMatchObject({ screen: "wallet-connect", walletPending: false });
  });
});
