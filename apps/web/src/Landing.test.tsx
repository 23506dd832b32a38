// The signed-in page as a whole: a guest's logout warns first; the did is shown once.
import { APP_ID, scriptApp, startScriptedServer } from "@symbolon/core/testing";
import { PrivyProvider } from "@symbolon/react";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, onTestFinished } from "vitest";
import { Landing } from "./Landing";

async function renderGuest() {
  const server = await startScriptedServer();
  onTestFinished(() => server.close());
  const app = scriptApp(server, { config: { guest_auth: true } });
  render(
    <PrivyProvider appId={APP_ID} apiUrl={server.url}>
      <Landing theme="light" onThemeChange={() => {}} security={false} />
    </PrivyProvider>,
  );
  const guest = (await screen.findByRole("button", { name: "Continue as guest" })) as HTMLButtonElement;
  await waitFor(() => expect(guest.disabled).toBe(false), { timeout: 5000 });
  fireEvent.click(guest);
  await screen.findByRole("heading", { name: "Your account" }, { timeout: 5000 });
  return { server, app };
}

describe("Landing, signed in as a guest", () => {
  it("shows the did once, and Log out warns that the guest account and its wallet will be lost before it logs out", async () => {
    const { server, app } = await renderGuest();
    expect(screen.getByTestId("user-email").textContent).toBe("Guest");
    expect(screen.getAllByText(app.user.id)).toHaveLength(1);

    fireEvent.click(screen.getByRole("button", { name: "Log out" }));
    expect(screen.getByRole("alert").textContent).toMatch(/guest account.*wallet.*lost/);
    fireEvent.click(screen.getByRole("button", { name: "Stay signed in" }));
    expect(screen.getByRole("heading", { name: "Your account" })).toBeTruthy();
    expect(server.hitsOf("POST /api/v1/sessions/logout")).toHaveLength(0);

    fireEvent.click(screen.getByRole("button", { name: "Log out" }));
    fireEvent.click(screen.getByRole("button", { name: "Log out and lose the guest account" }));
    await screen.findByRole("button", { name: "Continue as guest" });
  });
});
