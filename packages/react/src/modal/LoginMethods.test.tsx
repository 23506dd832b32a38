import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { renderModal } from "./renderModal";

vi.mock("./accountActions", () => ({ sendCode: vi.fn(), submitCode: vi.fn(), transfer: vi.fn() }));
vi.mock("./checkPhone", () => ({
  checkPhone: vi.fn(async (national: string, country: string) =>
    national.replace(/\D/g, "").length === 10
      ? `+${country === "GB" ? "44" : "1"}${national.replace(/\D/g, "")}`
      : null,
  ),
}));

const { sendCode } = await import("./accountActions");

describe("login screen methods", () => {
  beforeEach(() => {
    vi.mocked(sendCode).mockReset().mockResolvedValue(undefined);
  });

  it("defaults to email only when the app has no method list", async () => {
    const { dialog } = await renderModal((c) => c.login());
    expect(within(dialog).getByLabelText("Email address")).toBeTruthy();
    expect(within(dialog).queryByRole("button", { name: "More options" })).toBeNull();
    expect(within(dialog).queryByLabelText("Phone number")).toBeNull();
  });

  it("shows the first primary method inline, the others as buttons in order, unknown names skipped", async () => {
    const { dialog } = await renderModal((c) => c.login(), {
      appConfig: { login_methods_and_order: { primary: ["smart_wallet", "sms", "email"], overflow: [] } },
    });
    expect(await within(dialog).findByLabelText("Phone number")).toBeTruthy();
    expect(within(dialog).getByText("Enter your phone number to continue to Acme.")).toBeTruthy();
    const buttons = within(dialog)
      .getAllByRole("button")
      .map((button) => button.getAttribute("aria-label") ?? button.textContent);
    expect(buttons).toEqual(["Close", "Submit", "Continue with email"]);
  });

  it("puts the overflow behind More options, reachable by keyboard, with Back returning", async () => {
    const { dialog } = await renderModal((c) => c.login(), {
      appConfig: { login_methods_and_order: { primary: ["email"], overflow: ["sms", "smart_wallet"] } },
    });
    const more = within(dialog).getByRole("button", { name: "More options" });
    expect(more.tabIndex).toBe(0);
    fireEvent.click(more);
    const heading = await within(dialog).findByRole("heading", { name: "More options" });
    // Keyboard focus moves to the new screen's heading.
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(within(dialog).getByRole("button", { name: "Continue with SMS" })).toBeTruthy();
    expect(within(dialog).queryByRole("button", { name: /smart/i })).toBeNull();
    fireEvent.click(within(dialog).getByRole("button", { name: "Back" }));
    const title = await within(dialog).findByRole("heading", { name: "Log in or sign up" });
    await waitFor(() => expect(document.activeElement).toBe(title));
    expect(within(dialog).getByLabelText("Email address")).toBeTruthy();
  });

  it("opens the phone screen from More options and sends the code by SMS", async () => {
    const { dialog, controller } = await renderModal((c) => c.login(), {
      appConfig: { login_methods_and_order: { primary: ["email"], overflow: ["sms"] } },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "More options" }));
    fireEvent.click(await within(dialog).findByRole("button", { name: "Continue with SMS" }));
    const number = await within(dialog).findByLabelText("Phone number");
    await waitFor(() => expect(document.activeElement).toBe(number));
    fireEvent.change(within(dialog).getByLabelText("Country"), { target: { value: "US" } });
    fireEvent.change(number, { target: { value: "201 555 0123" } });
    const submit = within(dialog).getByRole("button", { name: "Submit" }) as HTMLButtonElement;
    await waitFor(() => expect(submit.disabled).toBe(false));
    fireEvent.submit(number);
    await screen.findByRole("heading", { name: "Enter confirmation code" });
    expect(sendCode).toHaveBeenCalledWith(expect.anything(), "sms", "+12015550123");
    expect(controller.getState()).toMatchObject({ channel: "sms", phoneNumber: "+12015550123" });
  });
});
