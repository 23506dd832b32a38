import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { renderModal, USER } from "./renderModal";

vi.mock("./accountActions", () => ({ sendCode: vi.fn(), submitCode: vi.fn(), transfer: vi.fn() }));
vi.mock("./checkPhone", () => ({
  // Ten digits are a valid number here; the real check is core's (libphonenumber-js).
  checkPhone: vi.fn(async (national: string, country: string) =>
    national.replace(/\D/g, "").length === 10
      ? `+${country === "GB" ? "44" : "1"}${national.replace(/\D/g, "")}`
      : null,
  ),
}));

const { sendCode, submitCode } = await import("./accountActions");

const smsLogin = { login_methods_and_order: { primary: ["sms"], overflow: [] } };

describe("phone screen", () => {
  beforeEach(() => {
    vi.mocked(sendCode).mockReset().mockResolvedValue(undefined);
    vi.mocked(submitCode).mockReset();
  });

  it("picks the reader's country by default and lists countries by name with their calling codes", async () => {
    vi.spyOn(navigator, "language", "get").mockReturnValue("en-GB");
    const { dialog } = await renderModal((c) => c.login(), { appConfig: smsLogin });
    const country = (await within(dialog).findByLabelText("Country")) as HTMLSelectElement;
    expect(country.value).toBe("GB");
    expect(country.selectedOptions[0]?.textContent).toBe("United Kingdom (+44)");
    const names = Array.from(country.options, (option) => option.textContent ?? "");
    expect(names).toContain("United States (+1)");
    expect([...names].sort((a, b) => a.localeCompare(b, "en"))).toEqual(names);
  });

  it("falls back to the United States when the language names no known region", async () => {
    vi.spyOn(navigator, "language", "get").mockReturnValue("zz");
    const { dialog } = await renderModal((c) => c.login(), { appConfig: smsLogin });
    expect(((await within(dialog).findByLabelText("Country")) as HTMLSelectElement).value).toBe("US");
  });

  it("enables Submit only for a valid number and not while submitting, which shows 'Submitting'", async () => {
    vi.spyOn(navigator, "language", "get").mockReturnValue("en-US");
    let finish: () => void = () => {};
    vi.mocked(sendCode).mockImplementation(() => new Promise<void>((resolve) => (finish = resolve)));
    const { dialog } = await renderModal((c) => c.login(), { appConfig: smsLogin });
    const number = await within(dialog).findByLabelText("Phone number");
    const submit = within(dialog).getByRole("button", { name: "Submit" }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    fireEvent.change(number, { target: { value: "201 555" } });
    await act(async () => {});
    expect(submit.disabled).toBe(true);
    fireEvent.blur(number);
    expect(within(dialog).getByRole("alert").textContent).toBe("Please enter a valid phone number.");
    fireEvent.change(number, { target: { value: "201 555 0123" } });
    await waitFor(() => expect(submit.disabled).toBe(false));
    expect(within(dialog).queryByRole("alert")).toBeNull();
    fireEvent.submit(number);
    expect(submit.disabled).toBe(true);
    expect(submit.textContent).toBe("Submitting");
    expect(sendCode).toHaveBeenCalledWith(expect.anything(), "sms", "+12015550123");
    await act(async () => finish());
    expect(await screen.findByRole("heading", { name: "Enter confirmation code" })).toBeTruthy();
  });

  it("SMS code screen: names the number, submits the code as an SMS login, Change number goes back", async () => {
    vi.spyOn(navigator, "language", "get").mockReturnValue("en-US");
    vi.mocked(submitCode).mockResolvedValue({
      type: "login",
      result: { user: USER, isNewUser: false, wasAlreadyAuthenticated: false },
    });
    const { dialog, outcomes } = await renderModal((c) => c.login(), { appConfig: smsLogin });
    fireEvent.change(await within(dialog).findByLabelText("Phone number"), {
      target: { value: "2015550123" },
    });
    const submit = within(dialog).getByRole("button", { name: "Submit" }) as HTMLButtonElement;
    await waitFor(() => expect(submit.disabled).toBe(false));
    fireEvent.click(submit);
    await within(dialog).findByRole("heading", { name: "Enter confirmation code" });
    expect(within(dialog).getByText(/for a text message from Acme/).textContent).toContain("+12015550123");
    expect(document.activeElement).toBe(within(dialog).getByLabelText("Digit 1"));
    fireEvent.click(within(dialog).getByRole("button", { name: "Change number" }));
    const number = (await within(dialog).findByLabelText("Phone number")) as HTMLInputElement;
    expect(number.value).toBe("2015550123");
    const again = within(dialog).getByRole("button", { name: "Submit" }) as HTMLButtonElement;
    await waitFor(() => expect(again.disabled).toBe(false));
    fireEvent.click(again);
    await within(dialog).findByRole("heading", { name: "Enter confirmation code" });
    fireEvent.paste(within(dialog).getByLabelText("Digit 1"), { clipboardData: { getData: () => "123456" } });
    await within(dialog).findByText("You're logged in");
    expect(submitCode).toHaveBeenCalledWith(expect.anything(), "login", "sms", "+12015550123", "123456");
    await waitFor(() => expect(outcomes).toHaveLength(1), { timeout: 3000 });
    expect(outcomes[0]).toMatchObject({ type: "complete", flow: "login" });
  });

  it("Resend on the SMS code screen texts a new code", async () => {
    const { dialog, actions } = await renderModal((c) => c.login());
    act(() => actions.code.codeSent("+12015550123", "sms"));
    await within(dialog).findByRole("heading", { name: "Enter confirmation code" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Resend code" }));
    await waitFor(() => expect(sendCode).toHaveBeenCalledWith(expect.anything(), "sms", "+12015550123"));
    expect(await within(dialog).findByText(/A new code was sent/)).toBeTruthy();
  });
});
