import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { act, screen } from "@testing-library/react";
import type { Root } from "react-dom/client";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { start } from "./start";

const APP_ID = "cm0testapp0000000000000ab";

/** A real server that knows the app and has nobody signed in. */
async function startServer(): Promise<string> {
  const server = createServer((req, res) => {
    const signedOut = req.url === "/api/v1/users/me";
    const known = req.url === `/api/v1/apps/${APP_ID}`;
    res.writeHead(signedOut ? 401 : known ? 200 : 404, { "content-type": "application/json" });
    res.end(
      JSON.stringify(
        known
          ? { id: APP_ID, name: "Symbolon", disable_plus_emails: false }
          : { error: "no", code: signedOut ? "missing_or_invalid_token" : "not_found" },
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function boot(runtimeEnv: Record<string, unknown>) {
  const container = document.createElement("div");
  document.body.appendChild(container);
  let root: Root | undefined;
  await act(async () => {
    root = start(container, runtimeEnv);
  });
  onTestFinished(() => {
    act(() => root?.unmount());
    container.remove();
  });
}

describe("start", () => {
  it("shows the invalid environment instead of a blank page", async () => {
    await boot({ VITE_APP_URL: "nope" });
    expect(screen.getByRole("alert").textContent).toContain(
      'Invalid environment variables: VITE_APP_URL must be a valid URL (got "nope"); VITE_PRIVY_APP_ID is required',
    );
  });

  it("shows a provider configuration error (wrong app id length)", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    await boot({ VITE_APP_URL: "http://localhost:5173", VITE_PRIVY_APP_ID: "short" });
    expect(screen.getByRole("alert").textContent).toContain(
      "appId must be exactly 25 characters long; got 5",
    );
  });

  it("shows 'Loading…' disabled until ready, then an enabled 'Log in'", async () => {
    const apiUrl = await startServer();
    await boot({
      VITE_APP_URL: "http://localhost:5173",
      VITE_PRIVY_APP_ID: APP_ID,
      VITE_PRIVY_API_URL: apiUrl,
    });
    const loading = screen.getByRole("button", { name: "Loading…" }) as HTMLButtonElement;
    expect(loading.disabled).toBe(true);
    const login = (await screen.findByRole("button", { name: "Log in" })) as HTMLButtonElement;
    expect(login.disabled).toBe(false);
    expect(screen.getByRole("heading", { name: "Symbolon" })).toBeTruthy();
    expect(screen.getByRole("radiogroup", { name: "Theme" })).toBeTruthy();
  });
});
