import {
  APP_ID,
  GOOGLE_ACCOUNT,
  oauthStateCodeOf,
  type ScriptedServer,
  scriptApp,
  startScriptedServer,
} from "@symbolon/core/testing";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import type { LoginCompleteParams } from "../hooks/toLoginComplete";
import { useLinkAccount } from "../hooks/useLinkAccount";
import { useLogin } from "../hooks/useLogin";
import { usePrivy } from "../hooks/usePrivy";
import { PrivyProvider } from "../provider/PrivyProvider";

const PROVIDER_URL = "https://accounts.example/authorize";

interface Harness {
  server: ScriptedServer;
  completed: LoginCompleteParams[];
  errors: string[];
  linked: string[];
}

function Host({ h }: { h: Harness }) {
  const { ready, authenticated, user, linkGithub } = usePrivy();
  const { login } = useLogin({ onComplete: (p) => h.completed.push(p), onError: (c) => h.errors.push(c) });
  const { linkGoogle } = useLinkAccount({
    onSuccess: ({ user }) => h.linked.push(user.google?.subject ?? ""),
  });
  return (
    <main>
      <p data-testid="status">{ready ? (authenticated ? "signed-in" : "signed-out") : "loading"}</p>
      {user?.google && <p data-testid="google">{user.google.email}</p>}
      <button type="button" onClick={login}>
        Log in
      </button>
      <button type="button" onClick={linkGoogle}>
        Link Google
      </button>
      <button type="button" onClick={linkGithub}>
        Link GitHub
      </button>
    </main>
  );
}

/** Starts a scripted server with Google and GitHub on, renders the host app, waits until ready. */
async function renderOAuthApp(config: Record<string, unknown> = {}, signedIn = false) {
  const server = await startScriptedServer();
  onTestFinished(() => server.close());
  const app = scriptApp(server, {
    config: {
      name: "Acme",
      google_oauth: true,
      github_oauth: true,
      login_methods_and_order: { primary: ["google", "email"], overflow: ["github"] },
      ...config,
    },
  });
  server.on("POST /api/v1/oauth/init", () => ({ json: { url: PROVIDER_URL } }));
  server.on("POST /api/v1/oauth/authenticate", () => {
    app.user = { ...app.user, linked_accounts: [GOOGLE_ACCOUNT] as typeof app.user.linked_accounts };
    return { json: app.issue({ is_new_user: true }) };
  });
  if (signedIn) {
    // The session a previous page load left (an email user).
    const session = app.issue();
    localStorage.setItem(`privy:token:${APP_ID}`, session.token ?? "");
    localStorage.setItem(`privy:refresh_token:${APP_ID}`, session.refresh_token ?? "");
    localStorage.setItem(`privy:user:${APP_ID}`, JSON.stringify(session.user));
  }
  const h: Harness = { server, completed: [], errors: [], linked: [] };
  const view = render(
    <PrivyProvider appId={APP_ID} apiUrl={server.url}>
      <Host h={h} />
    </PrivyProvider>,
  );
  await screen.findByText(/signed-(in|out)/);
  return { ...h, app, view };
}

function fakePopup() {
  const popup = { closed: false, location: { href: "" }, close: vi.fn(() => (popup.closed = true)) };
  vi.spyOn(window, "open").mockReturnValue(popup as unknown as Window);
  return popup;
}

/** The popup's page answering its opener with the state the client sent to init. */
async function popupReturns(
  server: ScriptedServer,
  popup: { location: { href: string } },
  extra: object = {},
) {
  await waitFor(() => expect(popup.location.href).toBe(PROVIDER_URL));
  const stateCode = oauthStateCodeOf(server);
  const data = { type: "PRIVY_OAUTH_RESPONSE", stateCode, authorizationCode: "code-1", ...extra };
  act(() => window.dispatchEvent(new MessageEvent("message", { data, origin: window.location.origin })));
}

async function openLogin() {
  fireEvent.click(screen.getByRole("button", { name: "Log in" }));
  // The first opening loads the lazy modal chunk, slower while other suites run on a shared machine.
  return screen.findByRole("dialog", {}, { timeout: 5000 });
}

beforeEach(() => window.history.replaceState(null, "", "/"));
afterEach(() => vi.restoreAllMocks());

describe("OAuth in the login modal", () => {
  it("lists the providers in the app's order with their marks; Google logs in through the popup", async () => {
    const h = await renderOAuthApp();
    const dialog = await openLogin();
    const google = within(dialog).getByRole("button", { name: "Continue with Google" });
    expect(google.querySelector("svg[aria-hidden='true']")).not.toBeNull();
    // Google first (primary), then email as a button; GitHub behind More options.
    const names = within(dialog)
      .getAllByRole("button")
      .map((b) => b.getAttribute("aria-label") ?? b.querySelector("span")?.textContent ?? b.textContent);
    expect(names).toEqual(["Close", "Continue with Google", "Continue with email", "More options"]);

    const popup = fakePopup();
    fireEvent.click(google);
    expect(
      await within(dialog).findByRole("heading", { name: "Verifying connection to Google" }),
    ).toBeTruthy();
    expect(within(dialog).getByText("Just a few moments more")).toBeTruthy();
    await popupReturns(h.server, popup);
    expect(
      await within(dialog).findByRole("heading", { name: "Successfully connected with Google" }),
    ).toBeTruthy();
    expect(within(dialog).getByText("You're good to go!")).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull(), { timeout: 3000 });
    expect(h.completed).toHaveLength(1);
    expect(h.completed[0]).toMatchObject({
      loginMethod: "google",
      isNewUser: true,
      loginAccount: { subject: "g-1" },
    });
    expect(screen.getByTestId("google").textContent).toBe("ada@gmail.com");
  });

  it("a refusal shows 'Authentication failed' with the spec's line; Retry only when it can help", async () => {
    const h = await renderOAuthApp();
    h.server.on("POST /api/v1/oauth/authenticate", () => ({
      status: 400,
      json: { error: "Taken", code: "linked_to_another_user" },
    }));
    const dialog = await openLogin();
    const popup = fakePopup();
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue with Google" }));
    await popupReturns(h.server, popup);
    expect(await within(dialog).findByRole("heading", { name: "Authentication failed" })).toBeTruthy();
    expect(within(dialog).getByRole("alert").textContent).toBe(
      "This account has already been linked to another user.",
    );
    expect(within(dialog).queryByRole("button", { name: "Retry" })).toBeNull();

    // invalid_credentials is retryable: Retry starts the same provider again.
    h.server.on("POST /api/v1/oauth/authenticate", () => ({
      status: 401,
      json: { error: "Bad code", code: "invalid_credentials" },
    }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(h.errors).toEqual(["exited_auth_flow"]);
    const again = await openLogin();
    const second = fakePopup();
    fireEvent.click(within(again).getByRole("button", { name: "Continue with Google" }));
    await popupReturns(h.server, second);
    expect(await within(again).findByText("Something went wrong. Try again.")).toBeTruthy();
    const third = fakePopup();
    fireEvent.click(within(again).getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(third.location.href).toBe(PROVIDER_URL));
    expect(h.server.hitsOf("POST /api/v1/oauth/init")).toHaveLength(3);
  });

  it("our server's rate limit on OAuth init shows the wait, then offers Retry", async () => {
    const h = await renderOAuthApp();
    h.server.on("POST /api/v1/oauth/init", () => ({
      status: 429,
      json: { error: "Too many requests", code: "too_many_requests" },
      headers: { "retry-after": "3" },
    }));
    const dialog = await openLogin();
    fakePopup();
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue with Google" }));
    expect(await within(dialog).findByRole("heading", { name: "Authentication failed" })).toBeTruthy();
    expect(within(dialog).getByRole("alert").textContent).toBe(
      "Too many requests. Please wait before trying again.",
    );
    expect(within(dialog).getByText("Try again in 3 seconds.")).toBeTruthy();
    const retry = within(dialog).getByRole("button", { name: "Retry" }) as HTMLButtonElement;
    expect(retry.disabled).toBe(true);
    // The wait passes: Retry starts the same provider again.
    const now = Date.now.bind(Date);
    vi.spyOn(Date, "now").mockImplementation(() => now() + 4_000);
    await waitFor(() => expect(retry.disabled).toBe(false), { timeout: 3000 });
    expect(within(dialog).getByText("You can try again now.")).toBeTruthy();
    h.server.on("POST /api/v1/oauth/init", () => ({ json: { url: PROVIDER_URL } }));
    const popup = fakePopup();
    fireEvent.click(retry);
    await waitFor(() => expect(popup.location.href).toBe(PROVIDER_URL));
    expect(h.server.hitsOf("POST /api/v1/oauth/init")).toHaveLength(2);
  });

  it("a tampered state shows the phishing message", async () => {
    const h = await renderOAuthApp();
    const dialog = await openLogin();
    const popup = fakePopup();
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue with Google" }));
    await popupReturns(h.server, popup, { stateCode: "tampered" });
    expect(
      await within(dialog).findByText("Unexpected auth flow. This may be a phishing attempt."),
    ).toBeTruthy();
    expect(h.server.hitsOf("POST /api/v1/oauth/authenticate")).toHaveLength(0);
  });

  it("the user refusing at the provider is a calm 'cancelled' screen with the spec's line, Try again and Back", async () => {
    const h = await renderOAuthApp();
    const dialog = await openLogin();
    const popup = fakePopup();
    fireEvent.click(within(dialog).getByRole("button", { name: "More options" }));
    fireEvent.click(await within(dialog).findByRole("button", { name: "Continue with GitHub" }));
    await waitFor(() => expect(popup.location.href).toBe(PROVIDER_URL));
    const data = { type: "PRIVY_OAUTH_ERROR", error: "access_denied" };
    act(() => window.dispatchEvent(new MessageEvent("message", { data, origin: window.location.origin })));
    expect(
      await within(dialog).findByText(
        "Retry and check the requested permissions to finish connecting your account.",
      ),
    ).toBeTruthy();
    expect(within(dialog).getByRole("heading", { name: "GitHub login cancelled" })).toBeTruthy();
    // Not announced as an error, and not the failure's red mark.
    expect(within(dialog).queryByRole("alert")).toBeNull();
    expect(dialog.querySelector(".symbolon-failed")).toBeNull();
    expect(within(dialog).getByRole("button", { name: "Try again" })).toBeTruthy();
    expect(h.server.hitsOf("POST /api/v1/oauth/init")[0]?.body).toMatchObject({ provider: "github" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Back to login options" }));
    expect(await within(dialog).findByRole("button", { name: "Continue with Google" })).toBeTruthy();
  });

  it("a failure screen (suspended account) offers Back to the other methods, not only ×", async () => {
    const h = await renderOAuthApp();
    h.server.on("POST /api/v1/oauth/authenticate", () => ({
      status: 403,
      json: { error: "Suspended", code: "oauth_account_suspended" },
    }));
    const dialog = await openLogin();
    const popup = fakePopup();
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue with Google" }));
    await popupReturns(h.server, popup);
    expect(await within(dialog).findByRole("heading", { name: "Authentication failed" })).toBeTruthy();
    expect(within(dialog).queryByRole("button", { name: "Retry" })).toBeNull();
    fireEvent.click(within(dialog).getByRole("button", { name: "Back to login options" }));
    expect(await within(dialog).findByRole("button", { name: "Continue with Google" })).toBeTruthy();
  });

  it("allowlist refusals go to their own screen", async () => {
    const h = await renderOAuthApp();
    h.server.on("POST /api/v1/oauth/authenticate", () => ({
      status: 403,
      json: { error: "Not allowed", code: "allowlist_rejected" },
    }));
    const dialog = await openLogin();
    const popup = fakePopup();
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue with Google" }));
    await popupReturns(h.server, popup);
    expect(
      await within(dialog).findByRole("heading", { name: "You don't have access to this app" }),
    ).toBeTruthy();
  });

  it("in an in-app browser, Google shows the in-app-browser screen", async () => {
    vi.spyOn(window.navigator, "userAgent", "get").mockReturnValue(
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/450.0.0.0;]",
    );
    await renderOAuthApp();
    const dialog = await openLogin();
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue with Google" }));
    expect(await within(dialog).findByRole("heading", { name: "Could not log in with Google" })).toBeTruthy();
    expect(within(dialog).getByRole("alert").textContent).toBe(
      "It looks like you're using an in-app browser. To log in, please try again using an external browser.",
    );
    fireEvent.click(within(dialog).getByRole("button", { name: "Choose another way" }));
    expect(await within(dialog).findByRole("button", { name: "Continue with Google" })).toBeTruthy();
  });

  it("a blocked popup falls back to a redirect; the return reopens the modal on the status screen", async () => {
    const h = await renderOAuthApp();
    const dialog = await openLogin();
    vi.spyOn(window, "open").mockReturnValue(null);
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue with Google" }));
    await waitFor(() => expect(h.server.hitsOf("POST /api/v1/oauth/init")).toHaveLength(1));
    const stateCode = oauthStateCodeOf(h.server);
    // The page left for the provider (jsdom does not navigate); it comes back with the code.
    h.view.unmount();
    cleanup();
    window.history.replaceState(
      null,
      "",
      `/?privy_oauth_code=c&privy_oauth_state=${stateCode}&privy_oauth_provider=google`,
    );
    render(
      <PrivyProvider appId={APP_ID} apiUrl={h.server.url}>
        <Host h={h} />
      </PrivyProvider>,
    );
    const back = await screen.findByRole("dialog");
    expect(window.location.search).toBe("");
    expect(
      await within(back).findByRole("heading", { name: "Successfully connected with Google" }),
    ).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull(), { timeout: 3000 });
    expect(h.completed[0]).toMatchObject({ loginMethod: "google" });
    expect(screen.getByTestId("status").textContent).toBe("signed-in");
  });

  it("closing the modal mid-flow closes the popup: no login follows, the exit is reported", async () => {
    const h = await renderOAuthApp();
    const dialog = await openLogin();
    const popup = fakePopup();
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue with Google" }));
    await waitFor(() => expect(popup.location.href).toBe(PROVIDER_URL));
    fireEvent.click(within(dialog).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(popup.close).toHaveBeenCalled();
    expect(h.errors).toEqual(["exited_auth_flow"]);
    await popupReturns(h.server, popup);
    expect(h.server.hitsOf("POST /api/v1/oauth/authenticate")).toHaveLength(0);
    expect(screen.getByTestId("status").textContent).toBe("signed-out");
  });

  it("after success, an app requiring terms shows the terms screen before closing", async () => {
    const h = await renderOAuthApp({ require_users_accept_terms: true });
    h.app.user = { ...h.app.user, has_accepted_terms: false };
    const dialog = await openLogin();
    const popup = fakePopup();
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue with Google" }));
    await popupReturns(h.server, popup);
    expect(
      await within(dialog).findByRole("heading", { name: "Successfully connected with Google" }),
    ).toBeTruthy();
    expect(await within(dialog).findByRole("button", { name: /accept/i }, { timeout: 3000 })).toBeTruthy();
    expect(h.completed).toHaveLength(0);
  });

  it("useLinkAccount().linkGoogle links through the status screen and reports the user", async () => {
    const h = await renderOAuthApp({}, true);
    h.server.on("POST /api/v1/oauth/link", () => {
      h.app.user = {
        ...h.app.user,
        linked_accounts: [...h.app.user.linked_accounts, GOOGLE_ACCOUNT] as typeof h.app.user.linked_accounts,
      };
      return { json: h.app.user };
    });
    const popup = fakePopup();
    fireEvent.click(screen.getByRole("button", { name: "Link Google" }));
    const dialog = await screen.findByRole("dialog");
    expect(
      await within(dialog).findByRole("heading", { name: "Verifying connection to Google" }),
    ).toBeTruthy();
    await popupReturns(h.server, popup);
    expect(
      await within(dialog).findByRole("heading", { name: "Successfully connected with Google" }),
    ).toBeTruthy();
    await waitFor(() => expect(h.linked).toEqual(["g-1"]), { timeout: 3000 });
    expect(h.server.hitsOf("POST /api/v1/oauth/link")[0]?.body).toMatchObject({ provider: "google" });
  });

  it("linking another user's Google account offers the transfer; Transfer posts /oauth/transfer with the user info", async () => {
    const h = await renderOAuthApp({}, true);
    const userInfo = {
      provider: "google",
      subject: "g-1",
      email: "ada@gmail.com",
      name: "Ada",
      username: null,
    };
    h.server.on("POST /api/v1/oauth/link", () => ({
      status: 400,
      json: {
        error: "This account belongs to another user.",
        code: "account_transfer_required",
        data: {
          nonce: "n-7",
          account_type: "google_oauth",
          display_name: "ada@gmail.com",
          embedded_wallet_address: null,
          oauth_user_info: userInfo,
        },
      },
    }));
    h.server.on("POST /api/v1/oauth/transfer", () => ({ json: h.app.user }));
    const popup = fakePopup();
    fireEvent.click(screen.getByRole("button", { name: "Link Google" }));
    const dialog = await screen.findByRole("dialog");
    await popupReturns(h.server, popup);
    expect(
      await within(dialog).findByRole("heading", { name: "Transfer this Google account?" }),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Transfer" }));
    await waitFor(() => expect(h.server.hitsOf("POST /api/v1/oauth/transfer")).toHaveLength(1));
    expect(h.server.hitsOf("POST /api/v1/oauth/transfer")[0]?.body).toEqual({ nonce: "n-7", userInfo });
  });
});
