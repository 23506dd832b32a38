import {
  ApiError,
  type AppConfigResponse,
  type Client,
  ClientError,
  initialMfaState,
  SymbolonError,
  type User,
} from "@symbolon/core";
import { act, cleanup, fireEvent, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { renderModal, USER } from "../renderModal";
import { enrollErrorText } from "./enrollErrorText";

vi.mock("./mfaActions", () => ({
  initMfa: vi.fn(),
  submitMfa: vi.fn(),
  cancelMfa: vi.fn(),
  initMfaEnrollment: vi.fn(),
  submitMfaEnrollment: vi.fn(),
  unenrollMfa: vi.fn(),
}));
vi.mock("../checkPhone", () => ({
  checkPhone: vi.fn(async (national: string) => `+1${national.replace(/\D/g, "")}`),
}));
vi.mock("../passkeys/passkeyActions", () => ({
  runPasskeyLogin: vi.fn(),
  addPasskey: vi.fn(),
  removePasskey: vi.fn(),
}));
const { initMfa, cancelMfa, initMfaEnrollment, submitMfaEnrollment, unenrollMfa } = await import(
  "./mfaActions"
);
const { addPasskey } = await import("../passkeys/passkeyActions");

type Method = "totp" | "sms" | "passkey";
const ALL: Method[] = ["totp", "sms", "passkey"];
const SECRET = "JBSWY3DPEHPK3PXP";
const AUTH_URL = `otpauth://totp/Acme:ada%40example.com?secret=${SECRET}&issuer=Acme`;

function user(methods: Method[] = [], passkeys = 0, mfaPasskeys = 0): User {
  const keys = Array.from({ length: passkeys }, (_, i) => ({
    type: "passkey",
    credential_id: `cred-${i + 1}`,
    authenticator_name: `Key ${i + 1}`,
    created_with_browser: null,
    created_with_os: null,
    created_with_device: null,
    enrolled_in_mfa: i < mfaPasskeys,
    verified_at: 0,
    first_verified_at: i === 0 ? 1_767_225_600 : null,
    latest_verified_at: null,
  }));
  return {
    ...USER,
    linked_accounts: [...USER.linked_accounts, ...keys] as User["linked_accounts"],
    mfa_methods: methods.map((type) => ({ type, verified_at: 0 })) as User["mfa_methods"],
  };
}

/** Opens the enrolment as `showMfaEnrollmentModal` does (core sets `mfaState.modal`). */
async function openEnrollment(
  appConfig: Partial<AppConfigResponse>,
  signedIn: User = user(),
): Promise<Awaited<ReturnType<typeof renderModal>>> {
  return renderModal(
    (_c, client) => client.store.setState({ mfaState: { ...initialMfaState, modal: "enroll" } }),
    { user: signedIn, appConfig },
  );
}

async function chooseMethod(dialog: HTMLElement, label: string) {
  fireEvent.click(await within(dialog).findByRole("button", { name: `Set up ${label}` }));
}

const paste = (dialog: HTMLElement, text: string) =>
  fireEvent.paste(within(dialog).getByLabelText("Digit 1"), { clipboardData: { getData: () => text } });

describe("MFA enrolment", () => {
  beforeEach(() => {
    for (const mock of [initMfa, cancelMfa, initMfaEnrollment, submitMfaEnrollment, unenrollMfa, addPasskey])
      vi.mocked(mock).mockReset();
    vi.mocked(submitMfaEnrollment).mockResolvedValue(USER);
  });

  it("an app without methods shows the no-methods screen", async () => {
    const { dialog, controller } = await openEnrollment({ mfa_methods: [] });
    expect(await within(dialog).findByRole("heading", { name: "No verification methods" })).toBeTruthy();
    expect(within(dialog).getByText("Acme has not turned on 2-step verification.")).toBeTruthy();
    fireEvent.click(within(dialog).getAllByRole("button", { name: "Close" })[1] as HTMLElement);
    await waitFor(() => expect(controller.getState().open).toBe(false));
  });

  it("with transaction protection the intro says so; Not now closes (and core's modal state clears)", async () => {
    const { dialog, client, controller } = await openEnrollment({
      mfa_methods: ALL,
      mfa_protect_transactions: true,
    });
    const title = await within(dialog).findByRole("heading", { name: "Protect your transactions" });
    await waitFor(() => expect(document.activeElement).toBe(title));
    expect(within(dialog).getByText(/need to confirm it's you to complete transactions/)).toBeTruthy();
    expect(within(dialog).getByRole("button", { name: "Continue" })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Not now" }));
    await waitFor(() => expect(controller.getState().open).toBe(false));
    expect(client.store.getState().mfaState.modal).toBeNull();
  });

  it("the plain intro leads to the app's methods only", async () => {
    const { dialog } = await openEnrollment({ mfa_methods: ["totp", "passkey", "webauthn_x"] });
    await within(dialog).findByRole("heading", { name: "Add 2-step verification" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue" }));
    const list = await within(dialog).findByRole("list", { name: "Verification methods" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((item) => item.firstChild?.firstChild?.textContent),
    ).toEqual(["Authenticator app", "Passkey"]);
    expect(within(dialog).getByRole("button", { name: "Set up Authenticator app" })).toBeTruthy();
  });

  it("authenticator app: QR code of the otpauth URL, setup key with Copy, then the code, then done", async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    vi.mocked(initMfaEnrollment).mockResolvedValue({ secret: SECRET, authUrl: AUTH_URL });
    vi.mocked(submitMfaEnrollment)
      .mockRejectedValueOnce(new ClientError("missing_or_invalid_mfa", "The code you entered is not valid"))
      .mockResolvedValueOnce(user(["totp"]));
    const { dialog, client, controller } = await openEnrollment({ mfa_methods: ALL }, user([], 0));
    fireEvent.click(await within(dialog).findByRole("button", { name: "Continue" }));
    await chooseMethod(dialog, "Authenticator app");
    expect(initMfaEnrollment).toHaveBeenCalledWith(client, { method: "totp" });
    const qr = await within(dialog).findByRole("img", { name: "Authenticator app QR code" });
    expect(qr.getAttribute("data-value")).toBe(AUTH_URL);
    expect(within(dialog).getByTestId("totp-setup-key").textContent).toBe("JBSW Y3DP EHPK 3PXP");
    fireEvent.click(within(dialog).getByRole("button", { name: "Copy setup key" }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(SECRET));
    expect(await within(dialog).findByText("Setup key copied")).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue" }));
    await within(dialog).findByRole("heading", { name: "Enter the code from your app" });
    paste(dialog, "000000");
    await waitFor(() =>
      expect(within(dialog).getByRole("alert").textContent).toBe("The code you entered is not valid"),
    );
    paste(dialog, "123456");
    expect(await within(dialog).findByRole("heading", { name: "Authenticator app is on" })).toBeTruthy();
    expect(submitMfaEnrollment).toHaveBeenLastCalledWith(client, { method: "totp", mfaCode: "123456" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Done" }));
    await waitFor(() => expect(controller.getState().open).toBe(false));
  });

  it("SMS: the phone number, then the code texted to it, then done", async () => {
    vi.spyOn(navigator, "language", "get").mockReturnValue("en-US");
    vi.mocked(initMfaEnrollment).mockResolvedValue(undefined);
    const { dialog, client } = await openEnrollment({ mfa_methods: ALL }, user(["totp"]));
    await chooseMethod(dialog, "SMS");
    await within(dialog).findByRole("heading", { name: "Set up SMS verification" });
    const number = await within(dialog).findByLabelText("Phone number");
    fireEvent.change(within(dialog).getByLabelText("Country"), { target: { value: "US" } });
    fireEvent.change(number, { target: { value: "201 555 0123" } });
    const submit = within(dialog).getByRole("button", { name: "Submit" }) as HTMLButtonElement;
    await waitFor(() => expect(submit.disabled).toBe(false));
    fireEvent.submit(number);
    await within(dialog).findByText("Enter the 6-digit code we sent to +12015550123.");
    expect(initMfaEnrollment).toHaveBeenCalledWith(client, { method: "sms", phoneNumber: "+12015550123" });
    paste(dialog, "424242");
    expect(await within(dialog).findByRole("heading", { name: "SMS verification is on" })).toBeTruthy();
    expect(submitMfaEnrollment).toHaveBeenCalledWith(client, {
      method: "sms",
      phoneNumber: "+12015550123",
      mfaCode: "424242",
    });
  });

  it("passkey setup lists 3 until View all, hides Add at 5, and Enable passkeys enrols them all", async () => {
    const { dialog, client } = await openEnrollment({ mfa_methods: ALL }, user(["totp"], 5));
    await chooseMethod(dialog, "Passkey");
    await within(dialog).findByRole("heading", { name: "Set up passkey verification" });
    const list = within(dialog).getByRole("list", { name: "Your passkeys" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(3);
    fireEvent.click(within(dialog).getByRole("button", { name: "View all" }));
    expect(within(list).getAllByRole("listitem")).toHaveLength(5);
    expect(within(dialog).queryByRole("button", { name: "Add a passkey" })).toBeNull();
    fireEvent.click(within(dialog).getByRole("button", { name: "Enable passkeys" }));
    expect(await within(dialog).findByRole("heading", { name: "Passkey verification is on" })).toBeTruthy();
    expect(submitMfaEnrollment).toHaveBeenCalledWith(client, {
      method: "passkey",
      credentialIds: ["cred-1", "cred-2", "cred-3", "cred-4", "cred-5"],
    });
  });

  it("passkey setup without passkeys: add one first, then enable it", async () => {
    const { dialog, client } = await openEnrollment({ mfa_methods: ALL }, user(["totp"], 0));
    vi.mocked(addPasskey).mockImplementation(async (c: Client) => {
      const next = user(["totp"], 1);
      c.store.setState({ user: next });
      return next;
    });
    await chooseMethod(dialog, "Passkey");
    await within(dialog).findByRole("heading", { name: "Set up passkey verification" });
    expect(within(dialog).queryByRole("button", { name: "Enable passkeys" })).toBeNull();
    fireEvent.click(within(dialog).getByRole("button", { name: "Add a passkey" }));
    fireEvent.click(await within(dialog).findByRole("button", { name: "Enable passkeys" }));
    await within(dialog).findByRole("heading", { name: "Passkey verification is on" });
    expect(submitMfaEnrollment).toHaveBeenCalledWith(client, {
      method: "passkey",
      credentialIds: ["cred-1"],
    });
  });

  it("with a single passkey method and passkeys already there, the intro leads straight to passkey setup", async () => {
    const { dialog } = await openEnrollment({ mfa_methods: ["passkey"] }, user([], 2));
    fireEvent.click(await within(dialog).findByRole("button", { name: "Continue" }));
    expect(await within(dialog).findByRole("heading", { name: "Set up passkey verification" })).toBeTruthy();
  });

  it("removing a method asks first (Cancel goes back), then unenrols it", async () => {
    vi.mocked(unenrollMfa).mockResolvedValue(user([]));
    const { dialog, client } = await openEnrollment({ mfa_methods: ALL }, user(["totp", "sms"]));
    fireEvent.click(await within(dialog).findByRole("button", { name: "Remove SMS" }));
    expect(await within(dialog).findByRole("heading", { name: "Remove SMS?" })).toBeTruthy();
    expect(
      within(dialog).getByText("You will no longer be asked for a code texted to your phone."),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    fireEvent.click(await within(dialog).findByRole("button", { name: "Remove Authenticator app" }));
    await within(dialog).findByRole("heading", { name: "Remove Authenticator app?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Remove" }));
    await within(dialog).findByRole("heading", { name: "Choose a verification method" });
    expect(unenrollMfa).toHaveBeenCalledWith(client, "totp");
    expect(within(dialog).getByRole("status").textContent).toBe("Authenticator app removed");
  });

  it("removing passkey verification warns, by name, that it deletes those login passkeys, in a destructive style", async () => {
    vi.mocked(unenrollMfa).mockResolvedValue(user([], 1));
    const { dialog, client } = await openEnrollment({ mfa_methods: ALL }, user(["passkey"], 3, 2));
    fireEvent.click(await within(dialog).findByRole("button", { name: "Remove Passkey" }));
    await within(dialog).findByRole("heading", { name: "Remove Passkey?" });
    expect(within(dialog).getByText(/This also deletes these passkeys from your account/)).toBeTruthy();
    const removed = within(dialog).getByRole("list", { name: "Passkeys removed from your login methods" });
    const names = within(removed)
      .getAllByRole("listitem")
      .map((item) => item.textContent);
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(/^Key 1, added .*2026/);
    expect(names[1]).toBe("Key 2");
    const confirm = within(dialog).getByRole("button", { name: "Remove" });
    expect(confirm.className).toContain("symbolon-destructive");
    expect(confirm.getAttribute("aria-describedby")).toBeTruthy();
    fireEvent.click(confirm);
    await within(dialog).findByRole("heading", { name: "Choose a verification method" });
    expect(unenrollMfa).toHaveBeenCalledWith(client, "passkey");
  });

  it("with shouldUnlinkOnUnenrollMfa off, or the passkeys being the only way in, nothing promises a deletion", async () => {
    const kept = await openEnrollment({ mfa_methods: ALL }, user(["passkey"], 1, 1));
    kept.client.store.setState({
      user: { ...user(["passkey"], 1, 1), linked_accounts: user(["passkey"], 1, 1).linked_accounts.slice(2) },
    });
    fireEvent.click(await within(kept.dialog).findByRole("button", { name: "Remove Passkey" }));
    await within(kept.dialog).findByRole("heading", { name: "Remove Passkey?" });
    expect(within(kept.dialog).getByText(/stays as your way to log in/)).toBeTruthy();
    expect(within(kept.dialog).queryByText(/This also deletes/)).toBeNull();
    cleanup();

    const off = await renderModal(
      (_c, client) => client.store.setState({ mfaState: { ...initialMfaState, modal: "enroll" } }),
      {
        user: user(["passkey"], 2, 2),
        appConfig: { mfa_methods: ALL },
        clientOptions: { passkeys: { shouldUnlinkOnUnenrollMfa: false } },
      },
    );
    fireEvent.click(await within(off.dialog).findByRole("button", { name: "Remove Passkey" }));
    await within(off.dialog).findByRole("heading", { name: "Remove Passkey?" });
    expect(
      within(off.dialog).queryByRole("list", { name: "Passkeys removed from your login methods" }),
    ).toBeNull();
  });

  it("a step that needs the user to verify shows the verification over it; Back there says 'Verification canceled'", async () => {
    let reject: (error: unknown) => void = () => {};
    vi.mocked(submitMfaEnrollment).mockImplementation(
      () => new Promise((_resolve, fail) => (reject = fail)) as never,
    );
    const { dialog, client } = await openEnrollment({ mfa_methods: ALL }, user(["totp"], 1));
    vi.mocked(cancelMfa).mockImplementation(() => {
      const { mfaState } = client.store.getState();
      client.store.setState({ mfaState: { ...mfaState, pending: null } });
      reject(new SymbolonError("mfa_canceled", "Canceled MFA verification."));
    });
    await chooseMethod(dialog, "Passkey");
    const enable = await within(dialog).findByRole("button", { name: "Enable passkeys" });
    fireEvent.click(enable);
    // Core's retry loop: the enrolment needs a verification (modal stays "enroll").
    const now = Date.now();
    act(() =>
      client.store.setState({
        mfaState: {
          ...client.store.getState().mfaState,
          pending: {
            methods: ["totp"],
            attempt: 1,
            maxAttempts: 4,
            deadline: now + 300_000,
            overallDeadline: now + 1_260_000,
            error: null,
          },
        },
      }),
    );
    await within(dialog).findByRole("heading", { name: "Verify your identity" });
    expect(enable.closest("[hidden]")).not.toBeNull();
    fireEvent.click(within(dialog).getByRole("button", { name: "Back" }));
    await waitFor(() => expect(within(dialog).getByRole("alert").textContent).toBe("Verification canceled"));
    expect(enable.closest("[hidden]")).toBeNull();
    expect(cancelMfa).toHaveBeenCalledWith(client);
  });
});

describe("enrolment messages (spec §8)", () => {
  it("names what went wrong", () => {
    expect(enrollErrorText(new SymbolonError("mfa_canceled", "Canceled MFA verification."))).toBe(
      "Verification canceled",
    );
    expect(enrollErrorText(new ClientError("invalid_input", "Unsupported MFA method"))).toBe(
      "Unsupported MFA method",
    );
    expect(enrollErrorText(new Error("MFA canceled"))).toBe("MFA canceled");
    expect(enrollErrorText(new ClientError("mfa_verification_max_attempts_reached"))).toBe(
      "You have exceeded the maximum number of attempts. Please close this window and try again in 10 seconds.",
    );
    expect(enrollErrorText(new ApiError("invalid_credentials", "x", 401, {}))).toBe(
      "The code you entered is not valid",
    );
    expect(enrollErrorText(new TypeError("boom"))).toBe("Unknown error");
  });
});
