import { fireEvent, render, screen } from "@testing-library/react";
import { verifyMessage } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { SignMessageForm } from "./SignMessageForm";

const account = privateKeyToAccount(generatePrivateKey());

function renderForm(
  sign = (message: string) => account.signMessage({ message }).then((signature) => ({ signature })),
) {
  const asked: string[] = [];
  render(
    <SignMessageForm
      sign={(message) => {
        asked.push(message);
        return sign(message);
      }}
    />,
  );
  return asked;
}

describe("sign message form", () => {
  it("shows the spec's message inline for an empty message and signs nothing", () => {
    const asked = renderForm();
    fireEvent.click(screen.getByRole("button", { name: "Sign message" }));
    expect(screen.getByRole("alert").textContent).toBe("Write a message to sign first.");
    expect(screen.getByLabelText("Message").getAttribute("aria-invalid")).toBe("true");
    expect(asked).toEqual([]);
  });

  it("a message of only spaces and line breaks counts as empty", () => {
    const asked = renderForm();
    fireEvent.change(screen.getByLabelText("Message"), { target: { value: "  \n  " } });
    fireEvent.click(screen.getByRole("button", { name: "Sign message" }));
    expect(screen.getByRole("alert").textContent).toBe("Write a message to sign first.");
    expect(asked).toEqual([]);
  });

  it("shows the signature, which verifies for the signer", async () => {
    renderForm();
    fireEvent.change(screen.getByLabelText("Message"), { target: { value: "Hello, Symbolon" } });
    fireEvent.click(screen.getByRole("button", { name: "Sign message" }));
    const signature = (await screen.findByTestId("signature")).textContent as `0x${string}`;
    expect(await verifyMessage({ address: account.address, message: "Hello, Symbolon", signature })).toBe(
      true,
    );
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("shows why signing failed (the user rejected it in the modal)", async () => {
    renderForm(() => Promise.reject(Object.assign(new Error("User rejected the request."), { code: 4001 })));
    fireEvent.change(screen.getByLabelText("Message"), { target: { value: "hi" } });
    fireEvent.click(screen.getByRole("button", { name: "Sign message" }));
    expect((await screen.findByRole("alert")).textContent).toBe("User rejected the request.");
    expect(screen.queryByTestId("signature")).toBeNull();
  });
});
