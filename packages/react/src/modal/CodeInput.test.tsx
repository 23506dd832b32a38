import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderApp } from "../test/renderApp";

const digit = (n: number) => screen.getByLabelText(`Digit ${n}`) as HTMLInputElement;
const values = () => [1, 2, 3, 4, 5, 6].map((n) => digit(n).value).join("|");
const paste = (target: HTMLElement, text: string) =>
  fireEvent.paste(target, { clipboardData: { getData: () => text } });

/** Moves this page's clock `ms` ahead (the Resend countdown reads `Date.now`). */
function passTime(ms: number) {
  const now = Date.now.bind(Date);
  vi.spyOn(Date, "now").mockImplementation(() => now() + ms);
}

afterEach(() => vi.restoreAllMocks());

async function openCodeScreen(options: Parameters<typeof renderApp>[0] = {}) {
  const app = await renderApp(options);
  fireEvent.click(screen.getByRole("button", { name: "Log in" }));
  const input = await screen.findByLabelText("Email address");
  fireEvent.change(input, { target: { value: "ada@example.com" } });
  fireEvent.submit(input);
  await screen.findByRole("heading", { name: "Enter confirmation code" });
  return { app, dialog: screen.getByRole("dialog") };
}

describe("code screen", () => {
  it("shows six labelled numeric boxes, the first with one-time-code autocomplete and focus", async () => {
    await openCodeScreen({ appName: "Acme" });
    for (const n of [1, 2, 3, 4, 5, 6]) expect(digit(n).inputMode).toBe("numeric");
    expect(digit(1).getAttribute("autocomplete")).toBe("one-time-code");
    expect(document.activeElement).toBe(digit(1));
    expect(screen.getByText(/Check/).textContent).toBe(
      "Check ada@example.com for an email from Acme and enter the code below.",
    );
  });

  it("refuses a typed non-digit with 'Passcode can only be numbers'", async () => {
    const { dialog } = await openCodeScreen();
    fireEvent.change(digit(1), { target: { value: "a" } });
    expect(within(dialog).getByRole("alert").textContent).toBe("Passcode can only be numbers");
    expect(digit(1).value).toBe("");
  });

  it("moves to the next box as digits are typed, and Backspace moves back", async () => {
    await openCodeScreen();
    fireEvent.change(digit(1), { target: { value: "4" } });
    expect(document.activeElement).toBe(digit(2));
    fireEvent.change(digit(2), { target: { value: "2" } });
    expect(document.activeElement).toBe(digit(3));
    fireEvent.keyDown(digit(3), { key: "Backspace" });
    expect(document.activeElement).toBe(digit(2));
    expect(values()).toBe("4|||||");
  });

  it("refuses a paste of more than 6 digits with 'Passcode must be exactly 6 numbers'", async () => {
    const { app, dialog } = await openCodeScreen();
    paste(digit(1), "1234567");
    expect(within(dialog).getByRole("alert").textContent).toBe("Passcode must be exactly 6 numbers");
    expect(values()).toBe("|||||");
    expect(app.server.submitted).toEqual([]);
  });

  it("refuses a paste with letters with 'Passcode can only be numbers'", async () => {
    const { dialog } = await openCodeScreen();
    paste(digit(1), "12ab56");
    expect(within(dialog).getByRole("alert").textContent).toBe("Passcode can only be numbers");
  });

  it("strips whitespace on paste and fills across boxes", async () => {
    const { app } = await openCodeScreen();
    paste(digit(1), " 12 3\n4 ");
    expect(values()).toBe("1|2|3|4||");
    expect(document.activeElement).toBe(digit(5));
    expect(app.server.submitted).toEqual([]);
  });

  it("submits by itself once all six digits are present", async () => {
    const { app } = await openCodeScreen();
    paste(digit(1), "1234");
    fireEvent.change(digit(5), { target: { value: "5" } });
    fireEvent.change(digit(6), { target: { value: "6" } });
    await screen.findByText("You're logged in");
    expect(app.server.submitted).toEqual(["123456"]);
  });

  it("after a wrong code explains it, clears the boxes and focuses Digit 1", async () => {
    const { app, dialog } = await openCodeScreen();
    paste(digit(3), "999 999");
    await waitFor(() =>
      expect(within(dialog).getByRole("alert").textContent).toBe(
        "That code is not valid. Check it and try again.",
      ),
    );
    expect(app.server.submitted).toEqual(["999999"]);
    expect(values()).toBe("|||||");
    expect(document.activeElement).toBe(digit(1));
  });

  it("resends the code and then cools down", async () => {
    const { app, dialog } = await openCodeScreen();
    const resend = within(dialog).getByRole("button", { name: "Resend code" }) as HTMLButtonElement;
    fireEvent.click(resend);
    await waitFor(() => expect(app.server.sentTo).toHaveLength(2));
    await waitFor(() => expect(resend.getAttribute("aria-disabled")).toBe("true"));
    expect(within(dialog).getByRole("status").textContent).toBe(
      "A new code was sent. You can ask for another code in 20\u00a0seconds.",
    );
    // A second press during the wait sends nothing.
    fireEvent.click(resend);
    expect(app.server.sentTo).toHaveLength(2);
  });

  it("Resend code right after 'No attempts left' shows the wait, never a red 429", async () => {
    const { app, dialog } = await openCodeScreen();
    app.server.on("POST /api/v1/passwordless/authenticate", () => ({
      status: 401,
      json: { error: "Invalid code. No attempts left: request a new code.", code: "invalid_credentials" },
    }));
    app.server.on("POST /api/v1/passwordless/init", () => ({
      status: 429,
      json: { error: "Too many requests", code: "too_many_requests" },
      headers: { "retry-after": "7" },
    }));
    paste(digit(1), "999999");
    await waitFor(() =>
      expect(within(dialog).getByRole("alert").textContent).toBe(
        "Invalid code. No attempts left: request a new code.",
      ),
    );
    const resend = within(dialog).getByRole("button", { name: "Resend code" }) as HTMLButtonElement;
    await waitFor(() => expect(document.activeElement).toBe(resend));
    // The server's cooldown from the first send is still running: its 429 is not an error to show, only the
    // wait (its Retry-After) under the button, which waits it out.
    fireEvent.click(resend);
    await waitFor(() => expect(app.server.sentTo).toHaveLength(2));
    await waitFor(() =>
      expect(within(dialog).getByRole("status").textContent).toBe(
        "You can ask for another code in 7\u00a0seconds.",
      ),
    );
    expect(within(dialog).queryByText(/Too many requests/)).toBeNull();
    expect(within(dialog).queryByRole("alert")).toBeNull();
    expect(resend.getAttribute("aria-disabled")).toBe("true");
    expect(document.activeElement).toBe(resend);
    // Pressed again during the wait: nothing is asked of the server.
    fireEvent.click(resend);
    expect(app.server.sentTo).toHaveLength(2);
    // Once the wait is over, Resend sends a new code.
    app.server.on("POST /api/v1/passwordless/init", () => ({ json: { success: true } }));
    passTime(8_000);
    await waitFor(() => expect(resend.getAttribute("aria-disabled")).toBe("false"), { timeout: 3000 });
    fireEvent.click(resend);
    await waitFor(() => expect(app.server.sentTo).toHaveLength(3));
  });

  it("logging in again with the same address goes to the code screen (the server answers success)", async () => {
    const { app, dialog } = await openCodeScreen();
    fireEvent.click(within(dialog).getByRole("button", { name: "Change email" }));
    const input = (await screen.findByLabelText("Email address")) as HTMLInputElement;
    // "Change email" is for the address: the field, with it in, takes focus (not the title).
    await waitFor(() => expect(document.activeElement).toBe(input));
    expect(input.value).toBe("ada@example.com");
    fireEvent.change(input, { target: { value: "ada@example.com" } });
    fireEvent.submit(input);
    await screen.findByRole("heading", { name: "Enter confirmation code" });
    expect(app.server.sentTo).toEqual(["ada@example.com", "ada@example.com"]);
    expect(within(dialog).queryByRole("alert")).toBeNull();
  });
});
