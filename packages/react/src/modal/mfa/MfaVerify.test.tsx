import { ApiError, type Client, ClientError, initialMfaState, promptMfa, type User } from "@symbolon/core";
import { fireEvent, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { renderModal, USER } from "../renderModal";
import {
  MFA_CODE_USED_TEXT,
  MFA_MAX_ATTEMPTS_TEXT,
  MFA_NOT_VALID_TEXT,
  MFA_SOMETHING_WRONG_TEXT,
  MFA_TIME_LIMIT_TEXT,
} from "./mfaTexts";

vi.mock("./mfaActions", () => ({
  initMfa: vi.fn(),
  submitMfa: vi.fn(),
  cancelMfa: vi.fn(),
  initMfaEnrollment: vi.fn(),
  submitMfaEnrollment: vi.fn(),
  unenrollMfa: vi.fn(),
}));
const { initMfa, submitMfa } = await import("./mfaActions");

type Method = "totp" | "sms" | "passkey";

const userWith = (methods: Method[]): User => ({
  ...USER,
  mfa_methods: methods.map((type) => ({ type, verified_at: 0 })) as User["mfa_methods"],
});

/** What core's retry loop sets when a wallet operation needs verification. */
function askForVerification(client: Client, methods: Method[], error: unknown = null) {
  const now = Date.now();
  client.store.setState({
    mfaState: {
      ...initialMfaState,
      modal: "verify",
      pending: {
        methods,
        attempt: 1,
        maxAttempts: 4,
        deadline: now + 300_000,
        overallDeadline: now + 1_260_000,
        error: error as never,
      },
    },
  });
}

/** Core's state once the wait ended without success. */
function endVerification(client: Client, error: unknown) {
  const { mfaState } = client.store.getState();
  client.store.setState({
    mfaState: {
      ...mfaState,
      pending: null,
      verification: { status: "error", method: "totp", error: error as never },
    },
  });
}

async function openVerification(methods: Method[]) {
  const rendered = await renderModal((_c, client) => askForVerification(client, methods), {
    user: userWith(methods),
  });
  await within(rendered.dialog).findByRole("heading", { name: "Verify your identity" });
  return rendered;
}

const paste = (dialog: HTMLElement, text: string) =>
  fireEvent.paste(within(dialog).getByLabelText("Digit 1"), { clipboardData: { getData: () => text } });

describe("MFA verification", () => {
  beforeEach(() => {
    vi.mocked(initMfa).mockReset().mockResolvedValue(undefined);
    vi.mocked(submitMfa).mockReset().mockResolvedValue(undefined);
  });

  it("opens on core's request as 'Verify your identity', the first method preselected, focus on Digit 1", async () => {
    const { dialog, client } = await openVerification(["totp", "sms", "passkey"]);
    expect(within(document.body).getByRole("dialog", { name: "Verify your identity" })).toBe(dialog);
    const group = within(dialog).getByRole("group", { name: "Verification method" });
    const pressed = within(group)
      .getAllByRole("button")
      .map((b) => [b.textContent, b.getAttribute("aria-pressed")]);
    expect(pressed).toEqual([
      ["Authenticator app", "true"],
      ["SMS", "false"],
      ["Passkey", "false"],
    ]);
    expect(within(dialog).getByText("Enter the 6-digit code from your authenticator app.")).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByLabelText("Digit 1")));
    expect(initMfa).not.toHaveBeenCalled();
    fireEvent.click(within(group).getByRole("button", { name: "SMS" }));
    expect(initMfa).toHaveBeenCalledWith(client, "sms");
  });

  it("submits the six digits; a wrong code says 'The code you entered is not valid' and clears the boxes", async () => {
    vi.mocked(submitMfa).mockRejectedValueOnce(new ClientError("missing_or_invalid_mfa", MFA_NOT_VALID_TEXT));
    const { dialog, client } = await openVerification(["totp"]);
    expect(within(dialog).queryByRole("group")).toBeNull();
    paste(dialog, " 123 456 ");
    await waitFor(() => expect(within(dialog).getByRole("alert").textContent).toBe(MFA_NOT_VALID_TEXT));
    expect(submitMfa).toHaveBeenCalledWith(client, "totp", "123456");
    const first = within(dialog).getByLabelText("Digit 1") as HTMLInputElement;
    expect(first.value).toBe("");
    expect(first.readOnly).toBe(false);
    await waitFor(() => expect(document.activeElement).toBe(first));
    // Typing again clears the message (not blocking).
    fireEvent.change(first, { target: { value: "1" } });
    expect(within(dialog).queryByRole("alert")).toBeNull();
  });

  it("keeps the passcode rules of spec §5", async () => {
    const { dialog } = await openVerification(["totp"]);
    fireEvent.change(within(dialog).getByLabelText("Digit 1"), { target: { value: "a" } });
    expect(within(dialog).getByRole("alert").textContent).toBe("Passcode can only be numbers");
    paste(dialog, "1234567");
    expect(within(dialog).getByRole("alert").textContent).toBe("Passcode must be exactly 6 numbers");
    expect(submitMfa).not.toHaveBeenCalled();
  });

  it("choosing SMS sends a code first (by keyboard too); Resend sends another", async () => {
    let sent: () => void = () => {};
    vi.mocked(initMfa).mockImplementation(async (_client, method) => {
      if (method === "sms") await new Promise<void>((resolve) => (sent = resolve));
      return undefined;
    });
    const { dialog, client } = await openVerification(["totp", "sms"]);
    const sms = within(dialog).getByRole("button", { name: "SMS" });
    sms.focus();
    fireEvent.click(sms);
    expect(sms.getAttribute("aria-pressed")).toBe("true");
    expect(initMfa).toHaveBeenLastCalledWith(client, "sms");
    expect(within(dialog).getByRole("status").textContent).toBe("Sending a code to your phone…");
    expect(within(dialog).queryByLabelText("Digit 1")).toBeNull();
    sent();
    await within(dialog).findByLabelText("Digit 1");
    expect(within(dialog).getByText("Enter the 6-digit code we sent to your phone.")).toBeTruthy();
    paste(dialog, "654321");
    await waitFor(() => expect(submitMfa).toHaveBeenCalledWith(client, "sms", "654321"));
    fireEvent.click(within(dialog).getByRole("button", { name: "Resend code" }));
    expect(initMfa).toHaveBeenCalledTimes(2);
  });

  it("a passkey first prompts by itself and submits the assertion; a refused prompt offers Try again", async () => {
    const assertion = { id: "cred", type: "public-key" } as never;
    vi.mocked(initMfa)
      .mockRejectedValueOnce(new Error("Passkey request timed out or rejected by user."))
      .mockResolvedValueOnce(assertion);
    const { dialog, client } = await openVerification(["passkey", "totp"]);
    expect(initMfa).toHaveBeenCalledWith(client, "passkey");
    await waitFor(() =>
      expect(within(dialog).getByRole("alert").textContent).toBe(
        "Passkey request timed out or rejected by user.",
      ),
    );
    fireEvent.click(within(dialog).getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(submitMfa).toHaveBeenCalledWith(client, "passkey", assertion));
  });

  it("max attempts: the blocking line, no code boxes, Close", async () => {
    vi.mocked(submitMfa).mockImplementationOnce(async (client) => {
      endVerification(client, new ClientError("mfa_verification_max_attempts_reached"));
      throw new ClientError("missing_or_invalid_mfa", MFA_NOT_VALID_TEXT);
    });
    const { dialog, controller } = await openVerification(["totp"]);
    paste(dialog, "111111");
    await waitFor(() => expect(within(dialog).getByRole("alert").textContent).toBe(MFA_MAX_ATTEMPTS_TEXT));
    expect(within(dialog).queryByLabelText("Digit 1")).toBeNull();
    const title = within(dialog).getByRole("heading", { name: "Verify your identity" });
    await waitFor(() => expect(document.activeElement).toBe(title));
    // The screen's own Close (the dialog's × comes first).
    fireEvent.click(within(dialog).getAllByRole("button", { name: "Close" })[1] as HTMLElement);
    await waitFor(() => expect(controller.getState().open).toBe(false));
  });

  it("a server lock-out says how long is left: the spec line for the first (10 s), the longer ones theirs", async () => {
    const lockedFor = (seconds: number) =>
      new ClientError("mfa_verification_max_attempts_reached", undefined, { retryAfterSeconds: seconds });
    vi.mocked(submitMfa).mockImplementationOnce(async (client) => {
      endVerification(client, lockedFor(10));
      throw lockedFor(10);
    });
    const { dialog, client } = await openVerification(["totp"]);
    paste(dialog, "111111");
    await waitFor(() => expect(within(dialog).getByRole("alert").textContent).toBe(MFA_MAX_ATTEMPTS_TEXT));
    expect(within(dialog).queryByLabelText("Digit 1")).toBeNull();
    // A later lock (the backoff), or the time left when the form is used again while locked.
    endVerification(client, lockedFor(30));
    await waitFor(() =>
      expect(within(dialog).getByRole("alert").textContent).toBe(
        "You have exceeded the maximum number of attempts. Please close this window and try again in 30 seconds.",
      ),
    );
    endVerification(client, lockedFor(7));
    await waitFor(() =>
      expect(within(dialog).getByRole("alert").textContent).toContain("try again in 7 seconds."),
    );
    endVerification(client, lockedFor(300));
    await waitFor(() =>
      expect(within(dialog).getByRole("alert").textContent).toContain("try again in 5 minutes."),
    );
  });

  it("an authenticator code already used says so and keeps the code boxes (it is no failed attempt)", async () => {
    vi.mocked(submitMfa).mockRejectedValueOnce(
      new ClientError("embedded_wallet_request_error", MFA_CODE_USED_TEXT),
    );
    const { dialog } = await openVerification(["totp"]);
    paste(dialog, "123456");
    await waitFor(() => expect(within(dialog).getByRole("alert").textContent).toBe(MFA_CODE_USED_TEXT));
    expect(MFA_CODE_USED_TEXT).toBe("This code was already used. Wait for the next one.");
    expect(within(dialog).getByLabelText("Digit 1")).toBeTruthy();
  });

  it("the time limit and anything else have their spec lines", async () => {
    const { dialog, client } = await openVerification(["totp"]);
    // The next attempt, after an error the screens cannot name.
    askForVerification(client, ["totp"], new ApiError("internal_error", "x", 500, {}));
    await waitFor(() => expect(within(dialog).getByRole("alert").textContent).toBe(MFA_SOMETHING_WRONG_TEXT));
    endVerification(client, new ClientError("mfa_timeout"));
    await waitFor(() => expect(within(dialog).getByRole("alert").textContent).toBe(MFA_TIME_LIMIT_TEXT));
    expect(within(dialog).queryByLabelText("Digit 1")).toBeNull();
  });

  it("closes once core says verified, and lets the next verification open it again", async () => {
    const { client, controller } = await openVerification(["totp"]);
    const { mfaState } = client.store.getState();
    client.store.setState({
      mfaState: {
        ...mfaState,
        pending: null,
        verification: { status: "verified", method: "totp", error: null },
      },
    });
    await waitFor(() => expect(controller.getState().open).toBe(false));
    expect(client.store.getState().mfaState.modal).toBeNull();
    askForVerification(client, ["totp"]);
    await waitFor(() =>
      expect(controller.getState()).toMatchObject({ open: true, flow: "mfa", verifying: true }),
    );
  });

  it("closing before success fails the waiting operation with 'Canceled MFA verification.'", async () => {
    let waiting: Promise<void> = Promise.resolve();
    const rendered = await renderModal(
      (_c, client) => {
        waiting = promptMfa(client);
        waiting.catch(() => {});
      },
      { user: userWith(["totp"]) },
    );
    const dialog = await within(document.body).findByRole("dialog", { name: "Verify your identity" });
    expect(dialog).toBe(rendered.dialog);
    fireEvent.click(within(dialog).getByRole("button", { name: "Close" }));
    await expect(waiting).rejects.toThrow("Canceled MFA verification.");
    expect(rendered.client.store.getState().mfaState.modal).toBeNull();
  });

  it("by keyboard: the methods are buttons in the Tab order, Escape cancels like Close", async () => {
    let waiting: Promise<void> = Promise.resolve();
    const { dialog } = await renderModal(
      (_c, client) => {
        waiting = promptMfa(client);
        waiting.catch(() => {});
      },
      { user: userWith(["sms", "totp"]) },
    );
    const group = await within(dialog).findByRole("group", { name: "Verification method" });
    for (const button of within(group).getAllByRole("button")) {
      expect(button.tagName).toBe("BUTTON");
      expect(button.tabIndex).toBe(0);
    }
    fireEvent.keyDown(dialog, { key: "Escape" });
    await expect(waiting).rejects.toThrow("Canceled MFA verification.");
  });

  it("shows over the screen of the flow that needs it, which stays mounted, and returns to it once verified", async () => {
    const { dialog, client, controller } = await renderModal((c) => c.openLink("email"), {
      user: userWith(["totp"]),
    });
    askForVerification(client, ["totp"]);
    await within(dialog).findByRole("heading", { name: "Verify your identity" });
    expect(within(document.body).getByRole("dialog", { name: "Verify your identity" })).toBe(dialog);
    expect(controller.getState()).toMatchObject({ flow: "link", screen: "email", verifying: true });
    const email = within(dialog).getByLabelText("Email address", { selector: "input" }) as HTMLInputElement;
    expect(email.closest("[hidden]")).not.toBeNull();
    const { mfaState } = client.store.getState();
    client.store.setState({
      mfaState: {
        ...mfaState,
        pending: null,
        verification: { status: "verified", method: "totp", error: null },
      },
    });
    await waitFor(() =>
      expect(within(dialog).queryByRole("heading", { name: "Verify your identity" })).toBeNull(),
    );
    expect(controller.getState()).toMatchObject({ open: true, flow: "link", verifying: false });
    expect(email.isConnected).toBe(true);
    expect(email.closest("[hidden]")).toBeNull();
    // Focus goes on from the title of the screen underneath.
    await waitFor(() =>
      expect(document.activeElement).toBe(within(dialog).getByRole("heading", { name: "Add your email" })),
    );
  });
});
