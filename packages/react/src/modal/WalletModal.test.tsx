import type { WalletConfirmationRequest } from "@symbolon/core";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { useContext } from "react";
import { describe, expect, it, onTestFinished } from "vitest";
import { PrivyContext } from "../provider/PrivyContext";
import { PrivyProvider } from "../provider/PrivyProvider";
import { startTestServer, TEST_APP_ID } from "../test/startTestServer";

const ADDRESS = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const REQUEST: WalletConfirmationRequest = {
  kind: "send-transaction",
  address: ADDRESS,
  chain: {
    id: 50312,
    name: "Somnia Testnet",
    rpcUrl: "http://127.0.0.1:8545",
    nativeCurrency: { name: "Somnia Testnet Token", symbol: "STT", decimals: 18 },
  },
  transaction: {
    to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    value: 10n ** 16n,
    gas: 21_000n,
    maxFeePerGas: 10n,
  },
};

/** A page that asks for confirmations and exports through the provider's modal controller. */
function Asker({ answers }: { answers: boolean[] }) {
  const controller = useContext(PrivyContext)?.controller;
  return (
    <>
      <button type="button" onClick={() => void controller?.confirm(REQUEST).then((ok) => answers.push(ok))}>
        Pay
      </button>
      <button type="button" onClick={() => controller?.openExport(ADDRESS)}>
        Export
      </button>
    </>
  );
}

async function renderHost() {
  const server = await startTestServer();
  onTestFinished(() => server.close());
  const answers: boolean[] = [];
  render(
    <PrivyProvider appId={TEST_APP_ID} apiUrl={server.url} config={{ appearance: { theme: "dark" } }}>
      <Asker answers={answers} />
    </PrivyProvider>,
  );
  await waitFor(() => expect(screen.getByRole("button", { name: "Pay" })).toBeTruthy());
  return answers;
}

async function ask() {
  fireEvent.click(screen.getByRole("button", { name: "Pay" }));
  return screen.findByRole("dialog", { name: "Send transaction" });
}

const closed = () => waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());

describe("wallet modal (provider's controller)", () => {
  it("opens the confirmation in the lazily loaded wallet chunk, styled, and resolves true on Send", async () => {
    const answers = await renderHost();
    const dialog = await ask();
    expect(dialog.dataset.theme).toBe("dark");
    expect(document.getElementById("symbolon-wallet-styles")?.textContent).toContain(".symbolon-details");
    expect(within(dialog).getAllByText("0.01 STT").length).toBeGreaterThan(0);
    fireEvent.click(within(dialog).getByRole("button", { name: "Send" }));
    await closed();
    expect(answers).toEqual([true]);
  });

  it("resolves false on Cancel", async () => {
    const answers = await renderHost();
    fireEvent.click(within(await ask()).getByRole("button", { name: "Cancel" }));
    await closed();
    expect(answers).toEqual([false]);
  });

  it("resolves false on Escape and returns focus to the page", async () => {
    const answers = await renderHost();
    const trigger = screen.getByRole("button", { name: "Pay" });
    trigger.focus();
    fireEvent.keyDown(await ask(), { key: "Escape" });
    await closed();
    expect(answers).toEqual([false]);
    expect(document.activeElement).toBe(trigger);
  });

  it("shows the export screen and closes it with Done", async () => {
    await renderHost();
    fireEvent.click(screen.getByRole("button", { name: "Export" }));
    const dialog = await screen.findByRole("dialog", { name: "Export wallet" });
    // Nobody is signed in here, so core refuses to mount the key frame; the screen says so.
    expect(within(dialog).getByRole("alert").textContent).toBe("Something went wrong. Please try again.");
    fireEvent.click(within(dialog).getByRole("button", { name: "Done" }));
    await closed();
  });
});
