import {
  APP_ID,
  GOOGLE_ACCOUNT,
  oauthStateCodeOf,
  scriptApp,
  startScriptedServer,
} from "@symbolon/core/testing";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { StrictMode } from "react";
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { PrivyProvider } from "../provider/PrivyProvider";
import type { LoginCompleteParams } from "./toLoginComplete";
import { useGetAccessTokenForProvider } from "./useGetAccessTokenForProvider";
import { useLoginWithOAuth } from "./useLoginWithOAuth";
import { useLogout } from "./useLogout";
import { type OAuthTokens, useOAuthTokens } from "./useOAuthTokens";
import { usePrivy } from "./usePrivy";
import { useUser } from "./useUser";

const PROVIDER_URL = "https://accounts.example/authorize";
const seen = { verified_at: 1, first_verified_at: 1, latest_verified_at: 1 };
const EMAIL = { type: "email", address: "ada@example.com", ...seen };

interface Seen {
  completed: LoginCompleteParams[];
  errors: string[];
  grants: OAuthTokens[];
  tokens: Array<string | null>;
}

function Headless({ seen }: { seen: Seen }) {
  const { authenticated } = usePrivy();
  const { initOAuth, state, loading } = useLoginWithOAuth({
    onComplete: (p) => seen.completed.push(p),
    onError: (code) => seen.errors.push(code),
  });
  useOAuthTokens({ onOAuthTokenGrant: ({ oAuthTokens }) => seen.grants.push(oAuthTokens) });
  const { getAccessTokenForProvider } = useGetAccessTokenForProvider();
  const { logout } = useLogout();
  const { unlinkGoogle } = useUser();
  return (
    <main>
      <p data-testid="state">{`${state.status}${loading ? " loading" : ""}${authenticated ? " signed-in" : ""}`}</p>
      <button type="button" onClick={() => void initOAuth({ provider: "google" }).catch(() => {})}>
        Google
      </button>
      <button
        type="button"
        onClick={() => void initOAuth({ provider: "google", display: "popup" }).catch(() => {})}
      >
        Google popup
      </button>
      <button type="button" onClick={async () => seen.tokens.push(await getAccessTokenForProvider("google"))}>
        Token
      </button>
      <button type="button" onClick={() => void logout()}>
        Log out
      </button>
      <button type="button" onClick={() => void unlinkGoogle("g-1")}>
        Unlink
      </button>
    </main>
  );
}

async function start() {
  const server = await startScriptedServer();
  onTestFinished(() => server.close());
  const app = scriptApp(server, { config: { google_oauth: true } });
  server.on("POST /api/v1/oauth/init", () => ({ json: { url: PROVIDER_URL } }));
  server.on("POST /api/v1/oauth/authenticate", () => {
    app.user = { ...app.user, linked_accounts: [EMAIL, GOOGLE_ACCOUNT] as typeof app.user.linked_accounts };
    return {
      json: app.issue({
        is_new_user: true,
        oauth_tokens: {
          provider: "google",
          access_token: "ya29.token",
          access_token_expires_in_seconds: 3600,
          refresh_token: "1//refresh",
          refresh_token_expires_in_seconds: null,
          scopes: ["email"],
        },
      }),
    };
  });
  const seen: Seen = { completed: [], errors: [], grants: [], tokens: [] };
  // StrictMode, like apps in development: the provider mounts twice; the return is taken once.
  const mount = () =>
    render(
      <StrictMode>
        <PrivyProvider appId={APP_ID} apiUrl={server.url}>
          <Headless seen={seen} />
        </PrivyProvider>
      </StrictMode>,
    );
  return { server, app, seen, mount };
}

beforeEach(() => window.history.replaceState(null, "", "/"));
afterEach(() => vi.restoreAllMocks());

describe("headless OAuth hooks", () => {
  it("useLoginWithOAuth redirects by default; onComplete runs on the return, tokens are granted", async () => {
    const { server, seen, mount } = await start();
    const first = mount();
    await waitFor(() => expect(screen.getByTestId("state").textContent).toBe("initial"));
    fireEvent.click(screen.getByRole("button", { name: "Google" }));
    await waitFor(() => expect(server.hitsOf("POST /api/v1/oauth/init")).toHaveLength(1));
    expect(screen.getByTestId("state").textContent).toBe("loading loading");
    first.unmount();
    cleanup();
    // Back from the provider: a new page load with the code in the address.
    window.history.replaceState(
      null,
      "",
      `/?privy_oauth_code=c&privy_oauth_state=${oauthStateCodeOf(server)}&privy_oauth_provider=google`,
    );
    mount();
    await waitFor(() => expect(seen.completed).toHaveLength(1));
    expect(server.hitsOf("POST /api/v1/oauth/authenticate")).toHaveLength(1);
    expect(seen.completed[0]).toMatchObject({
      loginMethod: "google",
      isNewUser: true,
      loginAccount: { subject: "g-1" },
    });
    expect(screen.getByTestId("state").textContent).toBe("done signed-in");
    expect(window.location.search).toBe("");
    expect(seen.grants).toEqual([
      {
        provider: "google",
        accessToken: "ya29.token",
        accessTokenExpiresInSeconds: 3600,
        refreshToken: "1//refresh",
        refreshTokenExpiresInSeconds: null,
        scopes: ["email"],
      },
    ]);
    fireEvent.click(screen.getByRole("button", { name: "Token" }));
    await waitFor(() => expect(seen.tokens).toEqual(["ya29.token"]));
    // Logout forgets the provider's tokens.
    fireEvent.click(screen.getByRole("button", { name: "Log out" }));
    await waitFor(() => expect(screen.getByTestId("state").textContent).toBe("initial"));
    fireEvent.click(screen.getByRole("button", { name: "Token" }));
    await waitFor(() => expect(seen.tokens).toEqual(["ya29.token", null]));
  });

  it("useLoginWithOAuth reports a popup closed without an answer through onError", async () => {
    const { server, seen, mount } = await start();
    mount();
    await waitFor(() => expect(screen.getByTestId("state").textContent).toBe("initial"));
    const popup = { closed: false, location: { href: "" }, close: vi.fn() };
    vi.spyOn(window, "open").mockReturnValue(popup as unknown as Window);
    fireEvent.click(screen.getByRole("button", { name: "Google popup" }));
    await waitFor(() => expect(popup.location.href).toBe(PROVIDER_URL));
    expect(server.hitsOf("POST /api/v1/oauth/init")).toHaveLength(1);
    popup.closed = true;
    await waitFor(() => expect(seen.errors).toEqual(["oauth_popup_closed"]));
    expect(screen.getByTestId("state").textContent).toBe("error");
  });

  it("unlinkGoogle(subject) posts the provider and subject", async () => {
    const { server, app, mount } = await start();
    const session = app.issue();
    localStorage.setItem(`privy:token:${APP_ID}`, session.token ?? "");
    localStorage.setItem(`privy:refresh_token:${APP_ID}`, session.refresh_token ?? "");
    server.on("POST /api/v1/oauth/unlink", () => ({ json: app.user }));
    mount();
    await waitFor(() => expect(screen.getByTestId("state").textContent).toBe("initial signed-in"));
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Unlink" })));
    await waitFor(() => expect(server.hitsOf("POST /api/v1/oauth/unlink")).toHaveLength(1));
    expect(server.hitsOf("POST /api/v1/oauth/unlink")[0]?.body).toEqual({
      provider: "google",
      subject: "g-1",
    });
  });

  it("the popup's page hands the answer to its opener and closes, without restoring a session", async () => {
    const { server, mount } = await start();
    // What the opener stored before opening the popup (same origin, same storage).
    const pending = {
      provider: "google",
      intent: "login",
      display: "popup",
      stateCode: "st",
      codeVerifier: "v",
    };
    localStorage.setItem(
      `privy:oauth_pending:${APP_ID}`,
      JSON.stringify({ ...pending, disableSignup: false, ui: "modal", startedAt: Date.now() }),
    );
    window.history.replaceState(
      null,
      "",
      "/?privy_oauth_code=c&privy_oauth_state=st&privy_oauth_provider=google",
    );
    const heard: unknown[] = [];
    const channel = new BroadcastChannel(`privy:oauth:${APP_ID}`);
    channel.onmessage = (event) => heard.push(event.data);
    onTestFinished(() => channel.close());
    const close = vi.spyOn(window, "close").mockImplementation(() => {});
    mount();
    await waitFor(() => expect(close).toHaveBeenCalled());
    await waitFor(() =>
      expect(heard).toEqual([{ type: "PRIVY_OAUTH_RESPONSE", stateCode: "st", authorizationCode: "c" }]),
    );
    expect(window.location.search).toBe("");
    expect(server.hitsOf("GET /api/v1/users/me")).toHaveLength(0);
    expect(server.hitsOf(`GET /api/v1/apps/${APP_ID}`)).toHaveLength(0);
    expect(server.hitsOf("POST /api/v1/oauth/authenticate")).toHaveLength(0);
  });
});
