import { ApiError, type ServerErrorCode } from "@symbolon/core";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { REFUSAL_TEXTS } from "./RefusalScreen";
import { renderModal, USER } from "./renderModal";

vi.mock("./accountActions", () => ({ sendCode: vi.fn(), submitCode: vi.fn(), transfer: vi.fn() }));
vi.mock("./checkPhone", () => ({
  checkPhone: vi.fn(async (national: string, country: string) =>
    national.replace(/\D/g, "").length === 10
      ? `+${country === "GB" ? "44" : "1"}${national.replace(/\D/g, "")}`
      : null,
  ),
}));

vi.mock("@symbolon/core", async (original) => ({
  ...(await original<typeof import("@symbolon/core")>()),
  acceptTerms: vi.fn(),
}));

const { sendCode, submitCode, transfer } = await import("./accountActions");
const { acceptTerms } = await import("@symbolon/core");

/** A refusal as core throws it. */
const refusal = (code: ServerErrorCode, data?: unknown) =>
  new ApiError(code, `refused: ${code}`, 403, data === undefined ? {} : { data });

async function enterCode(dialog: HTMLElement) {
  await within(dialog).findByRole("heading", { name: "Enter confirmation code" });
  fireEvent.paste(within(dialog).getByLabelText("Digit 1"), { clipboardData: { getData: () => "123456" } });
}

describe("link and update flows", () => {
  beforeEach(() => {
    vi.mocked(sendCode).mockReset().mockResolvedValue(undefined);
    vi.mocked(submitCode).mockReset();
    vi.mocked(transfer).mockReset();
  });

  it("update email: the spec's texts, the current address as placeholder, Enter submits, then code and success", async () => {
    vi.mocked(submitCode).mockResolvedValue({ type: "saved", user: USER });
    const { dialog, outcomes } = await renderModal((c) => c.openUpdate("email"), { user: USER });
    expect(dialog.getAttribute("aria-labelledby")).toBeTruthy();
    expect(screen.getByRole("dialog", { name: "Update your email" })).toBe(dialog);
    expect(within(dialog).getByRole("heading", { level: 2 }).textContent).toBe("Update your email");
    expect(
      within(dialog).getByText(
        "Add the email address you'd like to use going forward. We'll send you a confirmation code",
      ),
    ).toBeTruthy();
    const input = within(dialog).getByLabelText("Email address") as HTMLInputElement;
    expect(input.placeholder).toBe("ada@example.com");
    expect(within(dialog).getByRole("button", { name: "Submit" })).toBeTruthy();
    fireEvent.change(input, { target: { value: "new@example.com" } });
    fireEvent.submit(input);
    await enterCode(dialog);
    expect(submitCode).toHaveBeenCalledWith(
      expect.anything(),
      "update",
      "email",
      "new@example.com",
      "123456",
    );
    await within(dialog).findByText("Email updated");
    await waitFor(() => expect(outcomes).toHaveLength(1), { timeout: 3000 });
    expect(outcomes[0]).toMatchObject({ type: "complete", flow: "update", kind: "email" });
  });

  it("update email to the current address is refused at once (any case), and no code is sent", async () => {
    const { dialog } = await renderModal((c) => c.openUpdate("email"), { user: USER });
    const input = within(dialog).getByLabelText("Email address") as HTMLInputElement;
    fireEvent.change(input, { target: { value: " ADA@example.com " } });
    expect(within(dialog).getByRole("alert").textContent).toBe(
      "This is already your email address. Enter a different one.",
    );
    const submit = within(dialog).getByRole("button", { name: "Submit" }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    fireEvent.submit(input);
    expect(sendCode).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: "new@example.com" } });
    expect(within(dialog).queryByRole("alert")).toBeNull();
    expect(submit.disabled).toBe(false);
  });

  it("update phone: the spec's texts and an 'Update' button that says 'Submitting' while busy", async () => {
    vi.spyOn(navigator, "language", "get").mockReturnValue("en-US");
    vi.mocked(sendCode).mockImplementation(() => new Promise(() => {}));
    const { dialog } = await renderModal((c) => c.openUpdate("phone"), { user: USER });
    expect(await within(dialog).findByRole("heading", { name: "Update your phone number" })).toBeTruthy();
    expect(
      within(dialog).getByText(
        "Add the phone number you'd like to use going forward. We'll send you a confirmation code",
      ),
    ).toBeTruthy();
    const button = within(dialog).getByRole("button", { name: "Update" }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText("Phone number"), { target: { value: "2015550199" } });
    await waitFor(() => expect(button.disabled).toBe(false));
    fireEvent.click(button);
    expect(button.textContent).toBe("Submitting");
    expect(button.disabled).toBe(true);
    expect(sendCode).toHaveBeenCalledWith(expect.anything(), "sms", "+12015550199");
  });

  it("update email without an email says so (spec §5) and offers no field", async () => {
    const { dialog } = await renderModal((c) => c.openUpdate("email"), {
      user: { ...USER, linked_accounts: [] },
    });
    expect(within(dialog).getByRole("alert").textContent).toBe(
      "User is required to have an email address to update it.",
    );
    expect(within(dialog).queryByLabelText("Email address")).toBeNull();
  });

  it("link email: address, code, done; the code goes to the link call", async () => {
    vi.mocked(submitCode).mockResolvedValue({ type: "saved", user: USER });
    const { dialog } = await renderModal((c) => c.openLink("email"), { user: USER });
    expect(within(dialog).getByRole("heading", { name: "Add your email" })).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText("Email address"), { target: { value: "b@example.com" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Submit" }));
    await enterCode(dialog);
    await within(dialog).findByText("Email added");
    expect(submitCode).toHaveBeenCalledWith(expect.anything(), "link", "email", "b@example.com", "123456");
  });

  it("closing a link flow reports USER_EXITED_LINK_FLOW", async () => {
    const { dialog, outcomes } = await renderModal((c) => c.openLink("phone"), { user: USER });
    fireEvent.keyDown(dialog, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(outcomes).toEqual([{ type: "error", flow: "link", code: "exited_link_flow", kind: "phone" }]);
  });

  it.each([
    ["allowlist_rejected", "login"],
    ["max_accounts_reached", "login"],
    ["user_does_not_exist", "login"],
    ["signup_disabled", "login"],
    ["linked_to_another_user", "link"],
  ] as const)("routes %s to its screen, focused on its heading", async (code, flow) => {
    vi.mocked(submitCode).mockRejectedValue(refusal(code));
    const { dialog } = await renderModal((c) => (flow === "login" ? c.login() : c.openLink("email")), {
      user: flow === "login" ? null : USER,
    });
    fireEvent.change(within(dialog).getByLabelText("Email address"), {
      target: { value: "ada@example.com" },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Submit" }));
    await enterCode(dialog);
    const heading = await within(dialog).findByRole("heading", { name: REFUSAL_TEXTS[code].title });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(within(dialog).getByRole("alert").textContent).toBe(
      REFUSAL_TEXTS[code].body("Acme", "ada@example.com"),
    );
    if (code === "linked_to_another_user") {
      expect(within(dialog).getByRole("alert").textContent).toBe(
        "This account has already been linked to another user.",
      );
    }
    // Another try goes back to where the account was chosen.
    fireEvent.click(
      within(dialog).getByRole("button", { name: flow === "login" ? "Try another account" : "Try another" }),
    );
    expect(await within(dialog).findByLabelText("Email address")).toBeTruthy();
  });

  it("a refusal when sending the code goes to its screen too", async () => {
    vi.mocked(sendCode).mockRejectedValue(refusal("allowlist_rejected"));
    const { dialog } = await renderModal((c) => c.login());
    fireEvent.change(within(dialog).getByLabelText("Email address"), {
      target: { value: "ada@example.com" },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Submit" }));
    expect(
      await within(dialog).findByRole("heading", { name: REFUSAL_TEXTS.allowlist_rejected.title }),
    ).toBeTruthy();
  });

  it("account transfer: shows the account and what happens; Transfer calls transferAccount with the nonce", async () => {
    vi.mocked(submitCode).mockRejectedValue(
      refusal("account_transfer_required", {
        nonce: "nonce-42",
        account_type: "email",
        display_name: "ada@example.com",
        embedded_wallet_address: "0x1234567890abcdef1234567890abcdef12345678",
      }),
    );
    vi.mocked(transfer).mockResolvedValue(USER);
    const { dialog, outcomes } = await renderModal((c) => c.openLink("email"), { user: USER });
    fireEvent.change(within(dialog).getByLabelText("Email address"), {
      target: { value: "ada@example.com" },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Submit" }));
    await enterCode(dialog);
    const heading = await within(dialog).findByRole("heading", { name: "Transfer this email address?" });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(dialog.textContent).toContain("ada@example.com already belongs to another Acme account");
    expect(dialog.textContent).toContain("0x1234…5678 stays with the other account");
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Transfer" }));
    await within(dialog).findByText("Email added");
    expect(transfer).toHaveBeenCalledWith(expect.anything(), "email", "nonce-42", "ada@example.com");
    await waitFor(() => expect(outcomes).toHaveLength(1), { timeout: 3000 });
    expect(outcomes[0]).toMatchObject({ type: "complete", flow: "link" });
  });

  it("account transfer: Cancel closes the link flow as exited", async () => {
    vi.mocked(submitCode).mockRejectedValue(
      refusal("account_transfer_required", {
        nonce: "n",
        account_type: "phone",
        display_name: "+12015550123",
      }),
    );
    const { dialog, outcomes, actions } = await renderModal((c) => c.openLink("phone"), { user: USER });
    actions.code.codeSent("+12015550123", "sms");
    await enterCode(dialog);
    await within(dialog).findByRole("heading", { name: "Transfer this phone number?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(transfer).not.toHaveBeenCalled();
    expect(outcomes).toEqual([{ type: "error", flow: "link", code: "exited_link_flow", kind: "phone" }]);
  });

  it("terms: a login into an app requiring terms shows the terms screen; No thanks ends it as exited", async () => {
    vi.mocked(submitCode).mockResolvedValue({
      type: "login",
      result: {
        user: { ...USER, has_accepted_terms: false },
        isNewUser: true,
        wasAlreadyAuthenticated: false,
      },
    });
    const { dialog, outcomes } = await renderModal((c) => c.login(), {
      appConfig: { require_users_accept_terms: true, terms_and_conditions_url: "https://acme.test/terms" },
    });
    fireEvent.change(within(dialog).getByLabelText("Email address"), {
      target: { value: "ada@example.com" },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Submit" }));
    await enterCode(dialog);
    const heading = await within(dialog).findByRole("heading", { name: "Accept the terms" });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(within(dialog).getByRole("link", { name: "terms of service" }).getAttribute("href")).toBe(
      "https://acme.test/terms",
    );
    fireEvent.click(within(dialog).getByRole("button", { name: "No thanks" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(outcomes).toEqual([{ type: "error", flow: "login", code: "exited_auth_flow" }]);
  });

  it("terms: Accept and continue records the acceptance and finishes the login", async () => {
    const accepted = { ...USER, has_accepted_terms: true };
    vi.mocked(acceptTerms).mockResolvedValue(accepted);
    vi.mocked(submitCode).mockResolvedValue({
      type: "login",
      result: {
        user: { ...USER, has_accepted_terms: false },
        isNewUser: true,
        wasAlreadyAuthenticated: false,
      },
    });
    const { dialog, outcomes } = await renderModal((c) => c.login(), {
      appConfig: { require_users_accept_terms: true },
    });
    fireEvent.change(within(dialog).getByLabelText("Email address"), {
      target: { value: "ada@example.com" },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Submit" }));
    await enterCode(dialog);
    fireEvent.click(await within(dialog).findByRole("button", { name: "Accept and continue" }));
    await within(dialog).findByText("You're logged in");
    expect(acceptTerms).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(outcomes).toHaveLength(1), { timeout: 3000 });
    expect(outcomes[0]).toMatchObject({
      type: "complete",
      flow: "login",
      result: { user: accepted, isNewUser: true },
    });
  });
});
