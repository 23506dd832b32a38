import { ApiError, type User } from "@symbolon/core";
import { fireEvent, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { renderModal, USER } from "../renderModal";

vi.mock("./passkeyActions", () => ({
  runPasskeyLogin: vi.fn(),
  addPasskey: vi.fn(),
  removePasskey: vi.fn(),
}));
const { runPasskeyLogin, addPasskey, removePasskey } = await import("./passkeyActions");

const REJECTED = "Passkey request timed out or rejected by user.";
const PASSKEY_APP = { login_methods_and_order: { primary: ["email", "passkey"], overflow: [] } };

/** A user with `count` passkeys (server form), the first `inMfa` enrolled in MFA. */
function userWithPasskeys(count: number, inMfa = 0): User {
  const passkeys = Array.from({ length: count }, (_, i) => ({
    type: "passkey",
    credential_id: `cred-${i + 1}`,
    authenticator_name: `Key ${i + 1}`,
    created_with_browser: "Chrome",
    created_with_os: "macOS",
    created_with_device: "desktop",
    enrolled_in_mfa: i < inMfa,
    verified_at: 1_700_000_000,
    first_verified_at: 1_700_000_000,
    latest_verified_at: 1_700_000_000,
  }));
  return { ...USER, linked_accounts: [...USER.linked_accounts, ...passkeys] as User["linked_accounts"] };
}

/** Opens the login modal, chooses "Continue with a passkey", then "Log in" (or "Sign up") with a passkey. */
async function openPasskeyScreen(
  choice: "Log in with a passkey" | "Sign up with a passkey" = "Log in with a passkey",
) {
  const rendered = await renderModal((c) => c.login(), { appConfig: PASSKEY_APP });
  fireEvent.click(within(rendered.dialog).getByRole("button", { name: "Continue with a passkey" }));
  fireEvent.click(await within(rendered.dialog).findByRole("button", { name: choice }));
  return rendered;
}

describe("passkey login and sign-up", () => {
  beforeEach(() => {
    vi.mocked(runPasskeyLogin).mockReset();
  });

  it("'Continue with a passkey' asks Log in or Sign up before any browser prompt; Back returns", async () => {
    const { dialog } = await renderModal((c) => c.login(), { appConfig: PASSKEY_APP });
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue with a passkey" }));
    const title = await within(dialog).findByRole("heading", { name: "Continue with a passkey" });
    await waitFor(() => expect(document.activeElement).toBe(title));
    expect(within(dialog).getByRole("button", { name: "Log in with a passkey" })).toBeTruthy();
    expect(within(dialog).getByRole("button", { name: "Sign up with a passkey" })).toBeTruthy();
    expect(within(dialog).queryByRole("alert")).toBeNull();
    expect(runPasskeyLogin).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole("button", { name: "Back" }));
    expect(await within(dialog).findByRole("button", { name: "Continue with a passkey" })).toBeTruthy();
    expect(runPasskeyLogin).not.toHaveBeenCalled();
  });

  it("'Sign up with a passkey' on the first screen signs up straight away", async () => {
    vi.mocked(runPasskeyLogin).mockResolvedValueOnce({
      user: USER,
      isNewUser: true,
      wasAlreadyAuthenticated: false,
    });
    const { dialog, client } = await openPasskeyScreen("Sign up with a passkey");
    await within(dialog).findByText("You're logged in");
    expect(runPasskeyLogin).toHaveBeenCalledTimes(1);
    expect(runPasskeyLogin).toHaveBeenCalledWith(client, "signup");
  });

  it("'Log in with a passkey' starts the login; its steps are announced; success logs in", async () => {
    let finish: (value: Awaited<ReturnType<typeof runPasskeyLogin>>) => void = () => {};
    vi.mocked(runPasskeyLogin).mockImplementation(() => new Promise((resolve) => (finish = resolve)));
    const { dialog, client, outcomes } = await openPasskeyScreen();
    const title = await within(dialog).findByRole("heading", { name: "Log in with a passkey" });
    await waitFor(() => expect(document.activeElement).toBe(title));
    expect(runPasskeyLogin).toHaveBeenCalledWith(client, "login");
    expect(within(dialog).getByRole("status").textContent).toBe("Getting your passkey request ready…");
    client.store.setState({ passkeyFlow: { status: "awaiting-passkey", intent: "login", error: null } });
    await waitFor(() =>
      expect(within(dialog).getByRole("status").textContent).toBe(
        "Use your passkey in the browser's prompt to continue",
      ),
    );
    finish({ user: USER, isNewUser: false, wasAlreadyAuthenticated: false });
    await within(dialog).findByText("You're logged in");
    await waitFor(() => expect(outcomes).toHaveLength(1), { timeout: 3000 });
    expect(outcomes[0]).toMatchObject({ type: "complete", flow: "login" });
  });

  it("a refused prompt shows the spec line with Try again; 'Sign up with a passkey' signs up", async () => {
    vi.mocked(runPasskeyLogin).mockRejectedValueOnce(new Error(REJECTED));
    const { dialog } = await openPasskeyScreen();
    expect(
      await within(dialog).findByRole("heading", { name: "Could not log in with a passkey" }),
    ).toBeTruthy();
    expect(within(dialog).getByRole("alert").textContent).toBe(REJECTED);

    vi.mocked(runPasskeyLogin).mockRejectedValueOnce(new TypeError("boom"));
    fireEvent.click(within(dialog).getByRole("button", { name: "Try again" }));
    await waitFor(() =>
      expect(within(dialog).getByRole("alert").textContent).toBe("Unknown error occurred."),
    );
    expect(runPasskeyLogin).toHaveBeenNthCalledWith(2, expect.anything(), "login");

    vi.mocked(runPasskeyLogin).mockResolvedValueOnce({
      user: USER,
      isNewUser: true,
      wasAlreadyAuthenticated: false,
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Sign up with a passkey" }));
    await within(dialog).findByText("You're logged in");
    expect(runPasskeyLogin).toHaveBeenLastCalledWith(expect.anything(), "signup");
  });

  it("a sign-up that fails says so and offers the login back", async () => {
    vi.mocked(runPasskeyLogin)
      .mockRejectedValueOnce(new Error(REJECTED))
      .mockRejectedValueOnce(new Error(REJECTED));
    const { dialog } = await openPasskeyScreen();
    await within(dialog).findByRole("heading", { name: "Could not log in with a passkey" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Sign up with a passkey" }));
    expect(
      await within(dialog).findByRole("heading", { name: "Could not sign up with a passkey" }),
    ).toBeTruthy();
    expect(within(dialog).getByRole("button", { name: "Log in with a passkey" })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Back" }));
    expect(await within(dialog).findByRole("button", { name: "Continue with a passkey" })).toBeTruthy();
  });

  it("a refusal with a screen of its own goes there (allowlist)", async () => {
    vi.mocked(runPasskeyLogin).mockRejectedValueOnce(new ApiError("allowlist_rejected", "no", 403, {}));
    const { dialog } = await openPasskeyScreen();
    expect(await within(dialog).findByRole("heading", { name: /access/i })).toBeTruthy();
  });
});

describe("passkey management", () => {
  beforeEach(() => {
    vi.mocked(addPasskey).mockReset();
    vi.mocked(removePasskey).mockReset();
  });

  it("lists the first 2 until View all; Remove names its passkey", async () => {
    const { dialog } = await renderModal((c) => c.openPasskeys(), { user: userWithPasskeys(3) });
    const title = await within(dialog).findByRole("heading", { name: "Your passkeys" });
    await waitFor(() => expect(document.activeElement).toBe(title));
    const list = within(dialog).getByRole("list", { name: "Your passkeys" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(2);
    expect(within(list).getAllByText(/^Chrome on macOS · Last used /)).toHaveLength(2);
    fireEvent.click(within(dialog).getByRole("button", { name: "View all" }));
    expect(within(list).getAllByRole("listitem")).toHaveLength(3);
    await waitFor(() => expect(document.activeElement).toBe(list));
    expect(within(dialog).queryByRole("button", { name: "View all" })).toBeNull();
    expect(within(dialog).getByRole("button", { name: "Remove Key 3" })).toBeTruthy();
    expect(within(dialog).getByRole("button", { name: "Add a passkey" })).toBeTruthy();
  });

  it("hides Add a passkey at 5", async () => {
    const { dialog } = await renderModal((c) => c.openPasskeys(), { user: userWithPasskeys(5) });
    await within(dialog).findByRole("heading", { name: "Your passkeys" });
    expect(within(dialog).queryByRole("button", { name: "Add a passkey" })).toBeNull();
  });

  it("adding one shows 'Passkeys updated' and closes", async () => {
    vi.mocked(addPasskey).mockResolvedValue(userWithPasskeys(2));
    const { dialog, controller } = await renderModal((c) => c.openPasskeys(), { user: userWithPasskeys(1) });
    fireEvent.click(await within(dialog).findByRole("button", { name: "Add a passkey" }));
    expect(await within(dialog).findByText("Passkeys updated")).toBeTruthy();
    await waitFor(() => expect(controller.getState().open).toBe(false), { timeout: 3000 });
  });

  it("unlinking a passkey enrolled in MFA shows the rule", async () => {
    vi.mocked(removePasskey).mockRejectedValue(new Error("Cannot unlink a passkey enrolled in MFA"));
    const { dialog, client } = await renderModal((c) => c.openPasskeys(), { user: userWithPasskeys(2, 1) });
    fireEvent.click(await within(dialog).findByRole("button", { name: "Remove Key 1" }));
    await waitFor(() =>
      expect(within(dialog).getByRole("alert").textContent).toBe("Cannot unlink a passkey enrolled in MFA"),
    );
    expect(removePasskey).toHaveBeenCalledWith(client, "cred-1");
    expect(within(dialog).getByRole("heading", { name: "Your passkeys" })).toBeTruthy();
  });
});
