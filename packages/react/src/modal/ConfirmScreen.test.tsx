import type { WalletConfirmationRequest } from "@symbolon/core";
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ConfirmScreen } from "./ConfirmScreen";
import { ModalFrame } from "./ModalFrame";

const ADDRESS = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const RECIPIENT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const CHAIN: WalletConfirmationRequest["chain"] = {
  id: 50312,
  name: "Somnia Testnet",
  rpcUrl: "http://127.0.0.1:8545",
  nativeCurrency: { name: "Somnia Testnet Token", symbol: "STT", decimals: 18 },
};

/** Renders the screen in the real dialog shell; `answer()` is what the user chose, if anything. */
function renderConfirm(request: Partial<WalletConfirmationRequest>) {
  let answer: boolean | undefined;
  const decide = (value: boolean) => {
    answer ??= value;
  };
  render(
    <ModalFrame
      layout="dialog"
      theme="light"
      height={620}
      labelledBy="confirm-title"
      onClose={() => decide(false)}
    >
      <ConfirmScreen
        request={{ kind: "sign-message", address: ADDRESS, chain: CHAIN, ...request }}
        titleId="confirm-title"
        onConfirm={() => decide(true)}
        onCancel={() => decide(false)}
      />
    </ModalFrame>,
  );
  return { answer: () => answer, dialog: screen.getByRole("dialog") };
}

describe("confirmation screen", () => {
  it("labels the dialog with the default title and shows wallet, network and message", () => {
    const { dialog } = renderConfirm({ message: "Hello\nSymbolon" });
    expect(screen.getByRole("dialog", { name: "Sign message" })).toBe(dialog);
    expect(within(dialog).getByText("0xf39F…2266")).toBeTruthy();
    expect(within(dialog).getByText(ADDRESS)).toBeTruthy();
    expect(within(dialog).getByTitle(ADDRESS)).toBeTruthy();
    expect(within(dialog).getByText("Somnia Testnet")).toBeTruthy();
    const message = within(within(dialog).getByRole("region", { name: "Message" })).getByText(/Hello/);
    expect(message.textContent).toBe("Hello\nSymbolon");
  });

  it("a message of only blank space is shown as visible marks and said in words, not as an empty box", () => {
    const { dialog } = renderConfirm({ message: "  \n " });
    const shown = within(dialog).getByRole("region", { name: "Message" }).querySelector("pre");
    expect(shown?.textContent).toBe("··⏎\n·");
    expect(within(dialog).getByTestId("blank-message").textContent).toBe(
      "This message is only blank space (4 characters).",
    );
  });

  it("shows a hex message as hex", () => {
    renderConfirm({ message: "0x68656c6c6f" });
    expect(screen.getByText("0x68656c6c6f")).toBeTruthy();
  });

  it("resolves true on Sign", () => {
    const { answer } = renderConfirm({ message: "hi" });
    fireEvent.click(screen.getByRole("button", { name: "Sign" }));
    expect(answer()).toBe(true);
  });

  it("resolves false on Cancel", () => {
    const { answer } = renderConfirm({ message: "hi" });
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(answer()).toBe(false);
  });

  it("resolves false on Escape", () => {
    const first = renderConfirm({ message: "hi" });
    fireEvent.keyDown(first.dialog, { key: "Escape" });
    expect(first.answer()).toBe(false);
  });

  it("resolves false on the Close button", () => {
    const { answer, dialog } = renderConfirm({ message: "hi" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Close" }));
    expect(answer()).toBe(false);
  });

  it("uses the caller's title, description and button text", () => {
    renderConfirm({
      message: "hi",
      uiOptions: { title: "Prove it's you", description: "No fee is charged.", buttonText: "Approve" },
    });
    expect(screen.getByRole("dialog", { name: "Prove it's you" })).toBeTruthy();
    expect(screen.getByText("No fee is charged.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Approve" })).toBeTruthy();
  });

  it("shows typed data as labelled rows (domain, fields, nested structs) with the raw JSON behind Details", () => {
    renderConfirm({
      kind: "sign-typed-data",
      typedData: {
        domain: { name: "Symbolon Demo", version: "1", chainId: 50312, verifyingContract: RECIPIENT },
        types: {
          Person: [
            { name: "name", type: "string" },
            { name: "wallet", type: "address" },
          ],
          Mail: [
            { name: "from", type: "Person" },
            { name: "contents", type: "string" },
            { name: "amount", type: "uint256" },
          ],
        },
        primaryType: "Mail",
        message: { from: { name: "Alice", wallet: ADDRESS }, contents: "Hello, Bob!", amount: 5n },
      },
    });
    expect(screen.getByRole("dialog", { name: "Sign typed data" })).toBeTruthy();
    const row = (label: string) => screen.getByText(label, { selector: "dt" }).nextElementSibling;
    expect(row("App")?.textContent).toBe("Symbolon Demo");
    expect(row("Chain")?.textContent).toContain("Somnia Testnet");
    expect(row("Contract")?.textContent).toContain(RECIPIENT);
    expect(row("Type")?.textContent).toBe("Mail");
    expect(row("contents")?.textContent).toBe("Hello, Bob!");
    expect(row("amount")?.textContent).toBe("5");
    // The nested struct's fields sit inside its own indented list under "from".
    const from = row("from");
    expect(from?.querySelector("dl.symbolon-fields--nested")).toBeTruthy();
    expect(within(from as HTMLElement).getByText("Alice")).toBeTruthy();
    // The raw JSON is there, folded away behind Details.
    const details = screen.getByText("Details").closest("details") as HTMLDetailsElement;
    expect(details.open).toBe(false);
    const tree = within(details).getByTestId("confirm-typed-data");
    expect(tree.textContent).toContain('"contents": "Hello, Bob!",\n    "amount": "5"');
    expect(JSON.parse(tree.textContent ?? "")).toMatchObject({
      primaryType: "Mail",
      domain: { chainId: 50312 },
    });
  });

  it("refuses a send whose amount and max fee do not fit in the balance, saying by how much", () => {
    renderConfirm({
      kind: "send-transaction",
      balance: 1_000_000_000_000_000_000n,
      transaction: {
        to: RECIPIENT,
        value: 1_000_000_000_000_000_000n,
        gas: 21_000n,
        maxFeePerGas: 2_000_000_000n,
      },
    });
    expect(screen.getByRole("alert").textContent).toBe(
      "Not enough STT to cover the network fee. You need 0.000042 STT more.",
    );
    expect((screen.getByRole("button", { name: "Send" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("lets a send go when amount and max fee fit, and rounds long amounts with the exact one on hover", () => {
    const { answer } = renderConfirm({
      kind: "send-transaction",
      balance: 1_000_000_000_000_000_000n,
      transaction: {
        to: RECIPIENT,
        value: 999_957_999_999_999_999n,
        gas: 21_000n,
        maxFeePerGas: 2_000_000_000n,
      },
    });
    expect(screen.queryByRole("alert")).toBeNull();
    const amount = screen.getByText("0.999958 STT");
    expect(amount.getAttribute("title")).toBe("0.999957999999999999 STT");
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(answer()).toBe(true);
  });

  it("shows a transfer's recipient, amount in STT, max fee and total, with Send", () => {
    const { answer } = renderConfirm({
      kind: "send-transaction",
      transaction: {
        to: RECIPIENT,
        value: 10_000_000_000_000_000n,
        gas: 21_000n,
        maxFeePerGas: 2_000_000_000n,
        maxPriorityFeePerGas: 1_000_000_000n,
      },
    });
    expect(screen.getByRole("dialog", { name: "Send transaction" })).toBeTruthy();
    expect(screen.getByText(RECIPIENT)).toBeTruthy();
    expect(screen.getByText("0.01 STT")).toBeTruthy();
    expect(screen.getByText("0.000042 STT")).toBeTruthy();
    expect(screen.getByText("0.010042 STT")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(answer()).toBe(true);
  });

  it("titles a sign-only transaction 'Sign transaction', shows its calldata and uses a legacy gas price", () => {
    renderConfirm({
      kind: "sign-transaction",
      transaction: { to: RECIPIENT, value: 0n, gas: 50_000n, gasPrice: 1_000_000_000n, data: "0xa9059cbb" },
    });
    expect(screen.getByRole("dialog", { name: "Sign transaction" })).toBeTruthy();
    expect(screen.getByText("0 STT")).toBeTruthy();
    expect(screen.getAllByText("0.00005 STT")).toHaveLength(2);
    expect(within(screen.getByRole("region", { name: "Data" })).getByText("0xa9059cbb")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Sign" })).toBeTruthy();
  });
});
