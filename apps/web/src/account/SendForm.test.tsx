import { ProviderRpcError } from "@symbolon/core";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { numberToHex, parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { localChainForFile } from "../test/localChain";
import { SendForm } from "./SendForm";
import { waitForReceipt } from "./waitForReceipt";

const chain = localChainForFile();
const RECIPIENT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

/**
 * The form over a real chain: "sending" is anvil's dev account paying (the embedded wallet's own path is
 * covered end to end in e2e/tests/wallet.test.mjs).
 */
function renderForm(balance: bigint | null = parseEther("1")) {
  const sent: { to: string; wei: bigint }[] = [];
  let refreshed = 0;
  render(
    <SendForm
      balance={balance}
      send={async (to, wei) => {
        sent.push({ to, wei });
        const hash = await chain.request("eth_sendTransaction", [
          { from: chain.funder.address, to, value: numberToHex(wei) },
        ]);
        return String(hash);
      }}
      confirm={(hash) => waitForReceipt(chain.request, hash)}
      onSent={() => refreshed++}
    />,
  );
  return { sent, refreshed: () => refreshed };
}

function fill(recipient: string, amount: string) {
  fireEvent.change(screen.getByLabelText("Recipient"), { target: { value: recipient } });
  fireEvent.change(screen.getByLabelText("Amount (STT)"), { target: { value: amount } });
  fireEvent.click(screen.getByRole("button", { name: "Send" }));
}

const alerts = () => screen.queryAllByRole("alert").map((alert) => alert.textContent);

describe("send form", () => {
  it("refuses a recipient that is not 0x and 40 hex characters", () => {
    const { sent } = renderForm();
    fill("0x1234", "0.01");
    expect(alerts()).toEqual(["Enter a valid address (0x followed by 40 hex characters)"]);
    expect(screen.getByLabelText("Recipient").getAttribute("aria-invalid")).toBe("true");
    expect(sent).toEqual([]);
  });

  it.each(["", "0", "-1"])("refuses the amount %j with 'Enter an amount greater than 0'", (amount) => {
    const { sent } = renderForm();
    fill(RECIPIENT, amount);
    expect(alerts()).toEqual(["Enter an amount greater than 0"]);
    expect(sent).toEqual([]);
  });

  it("refuses more than 18 decimals", () => {
    const { sent } = renderForm();
    fill(RECIPIENT, "0.0000000000000000001");
    expect(alerts()).toEqual(["Amount has more than 18 decimals"]);
    expect(sent).toEqual([]);
  });

  it("refuses more than the balance", () => {
    const { sent } = renderForm(parseEther("0.5"));
    fill(RECIPIENT, "0.6");
    expect(alerts()).toEqual(["Amount exceeds your balance"]);
    expect(sent).toEqual([]);
  });

  it("shows both messages at once, and clears a field's message when it is edited", () => {
    renderForm();
    fill("nope", "0");
    expect(alerts()).toEqual([
      "Enter a valid address (0x followed by 40 hex characters)",
      "Enter an amount greater than 0",
    ]);
    fireEvent.change(screen.getByLabelText("Recipient"), { target: { value: RECIPIENT } });
    expect(alerts()).toEqual(["Enter an amount greater than 0"]);
  });

  it("sends, is disabled as 'Sending…' meanwhile, then shows the hash and the block", async () => {
    const before = await chain.balanceOf(RECIPIENT);
    const form = renderForm();
    fill(RECIPIENT, "0.01");
    const busy = screen.getByRole("button", { name: "Sending…" });
    expect(busy.getAttribute("aria-disabled")).toBe("true");
    const hash = await screen.findByTestId("tx-hash");
    expect(hash.textContent).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await screen.findByText(/^Confirmed in block \d+$/)).getAttribute("role")).toBe("status");
    expect(form.sent).toEqual([{ to: RECIPIENT, wei: parseEther("0.01") }]);
    await waitFor(() => expect(form.refreshed()).toBe(2));
    expect((await chain.balanceOf(RECIPIENT)) - before).toBe(parseEther("0.01"));
    expect(screen.getByRole("button", { name: "Send" }).getAttribute("aria-disabled")).toBe("false");
    // Sent: the fields are empty for the next one.
    expect(screen.getByLabelText("Recipient")).toHaveProperty("value", "");
    expect(screen.getByLabelText("Amount (STT)")).toHaveProperty("value", "");
  });

  it("comes back quietly, fields kept, when the person cancels in the confirmation", async () => {
    render(
      <SendForm
        balance={parseEther("1")}
        send={() => Promise.reject(new ProviderRpcError(4001, "User rejected the request."))}
        confirm={() => Promise.resolve(1)}
        onSent={() => {}}
      />,
    );
    fill(RECIPIENT, "0,5");
    await screen.findByRole("button", { name: "Send" });
    expect(alerts()).toEqual([]);
    expect(screen.getByLabelText("Amount (STT)")).toHaveProperty("value", "0,5");
  });

  it("puts the chain's 'insufficient funds for gas * price + value' in words a person understands", async () => {
    render(
      <SendForm
        balance={parseEther("1")}
        send={() =>
          Promise.reject(
            new ProviderRpcError(-32000, "insufficient funds for gas * price + value: have 1 want 2"),
          )
        }
        confirm={() => Promise.resolve(1)}
        onSent={() => {}}
      />,
    );
    fill(RECIPIENT, "1");
    expect(await screen.findByRole("alert")).toHaveProperty(
      "textContent",
      "Not enough STT to pay for this transaction and its network fee.",
    );
  });

  it("Max fills in the balance less the network fee", async () => {
    render(
      <SendForm
        balance={parseEther("1")}
        send={() => Promise.reject(new Error("not sent"))}
        confirm={() => Promise.resolve(1)}
        onSent={() => {}}
        maxSendable={() => Promise.resolve(parseEther("1") - 21_000n * 2_000_000_000n)}
      />,
    );
    fireEvent.click(screen.getByRole("button", { name: "Max" }));
    await waitFor(() => expect(screen.getByLabelText("Amount (STT)")).toHaveProperty("value", "0.999958"));
  });
});
