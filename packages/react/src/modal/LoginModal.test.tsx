import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderApp } from "../test/renderApp";

function stubMatchMedia(matches: (query: string) => boolean) {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: matches(query),
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

async function openModal() {
  const trigger = screen.getByRole("button", { name: "Log in" });
  trigger.focus();
  fireEvent.click(trigger);
  return screen.findByRole("dialog", { name: "Log in or sign up" });
}

describe("login modal", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("opens as a labelled modal dialog with its styles injected", async () => {
    await renderApp();
    const dialog = await openModal();
    expect(dialog.getAttribute("aria-modal")).toBe("true");
    expect(dialog.dataset.state).toBe("open");
    expect(dialog.dataset.layout).toBe("dialog");
    expect(document.getElementById("symbolon-modal-styles")?.textContent).toContain(".symbolon-modal");
    expect(document.activeElement).toBe(screen.getByLabelText("Email address"));
  });

  it("shows the appearance settings: logo and app name in the header, landingHeader and loginMessage", async () => {
    await renderApp({
      appName: "Acme",
      config: {
        appearance: {
          logo: "https://acme.test/logo.png",
          landingHeader: "Welcome to Acme",
          loginMessage: "Use your work email.",
          accentColor: "#ffcc00",
        },
      },
    });
    const dialog = await openModal();
    await within(dialog).findByText("Acme");
    expect(dialog.querySelector(".symbolon-logo img")?.getAttribute("src")).toBe(
      "https://acme.test/logo.png",
    );
    expect(within(dialog).getByRole("heading", { level: 2 }).textContent).toBe("Welcome to Acme");
    expect(within(dialog).getByText("Use your work email.")).toBeTruthy();
    // A light accent gets dark text on it, so the button stays readable.
    expect(dialog.style.getPropertyValue("--symbolon-accent-text")).toBe("#0f1115");
  });

  it("is a bottom sheet below 440 px", async () => {
    stubMatchMedia((query) => query.startsWith("(max-width: 439"));
    await renderApp();
    expect((await openModal()).dataset.layout).toBe("sheet");
  });

  it("follows the system theme when the theme is system", async () => {
    stubMatchMedia((query) => query === "(prefers-color-scheme: dark)");
    await renderApp({ config: { appearance: { theme: "system" } } });
    expect((await openModal()).dataset.theme).toBe("dark");
  });

  it("closes on Escape, reports exited_auth_flow and returns focus to the trigger", async () => {
    const app = await renderApp();
    const dialog = await openModal();
    fireEvent.keyDown(dialog, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(app.errors).toEqual(["exited_auth_flow"]);
    expect(app.completed).toEqual([]);
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Log in" }));
  });

  it("closes with the Close button and reports exited_auth_flow", async () => {
    const app = await renderApp();
    const dialog = await openModal();
    fireEvent.click(within(dialog).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(app.errors).toEqual(["exited_auth_flow"]);
  });

  it("traps Tab focus inside the dialog", async () => {
    await renderApp();
    const dialog = await openModal();
    fireEvent.change(screen.getByLabelText("Email address"), { target: { value: "ada@example.com" } });
    const close = within(dialog).getByRole("button", { name: "Close" });
    const submit = within(dialog).getByRole("button", { name: "Submit" });
    submit.focus();
    fireEvent.keyDown(document.activeElement ?? dialog, { key: "Tab" });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(close, { key: "Tab", shiftKey: true });
    expect(document.activeElement).toBe(submit);
  });

  it("signs in with an emailed code, shows success, closes and reports onComplete", async () => {
    const app = await renderApp({ appName: "Acme" });
    await openModal();
    fireEvent.change(screen.getByLabelText("Email address"), { target: { value: "Ada@Example.com" } });
    fireEvent.submit(screen.getByLabelText("Email address"));
    await screen.findByRole("heading", { name: "Enter confirmation code" });
    expect(app.server.sentTo).toEqual(["Ada@Example.com"]);
    expect(screen.getByText(/for an email from Acme/).textContent).toContain("Ada@Example.com");
    fireEvent.paste(screen.getByLabelText("Digit 1"), { clipboardData: { getData: () => "123456" } });
    await screen.findByText("You're logged in");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull(), { timeout: 3000 });
    expect(app.errors).toEqual([]);
    expect(app.completed).toHaveLength(1);
    const [done] = app.completed;
    expect(done?.loginMethod).toBe("email");
    expect(done?.isNewUser).toBe(true);
    expect(done?.wasAlreadyAuthenticated).toBe(false);
    expect(done?.user.email?.address).toBe("ada@example.com");
    expect(done?.loginAccount).toMatchObject({ type: "email", address: "ada@example.com" });
    expect(screen.getByTestId("status").textContent).toBe("signed-in");
  });

  it("opens only after the 15 ms delay", async () => {
    await renderApp();
    vi.useFakeTimers();
    try {
      fireEvent.click(screen.getByRole("button", { name: "Log in" }));
      await act(async () => vi.advanceTimersByTime(10));
      expect(screen.queryByRole("dialog")).toBeNull();
      await act(async () => vi.advanceTimersByTime(10));
    } finally {
      vi.useRealTimers();
    }
    expect(await screen.findByRole("dialog")).toBeTruthy();
  });
});
