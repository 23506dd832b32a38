import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { crossAppSignMessage } from "../actions/crossAppSignMessage.ts";
import { type Client, createClient } from "../client/createClient.ts";
import { CrossAppError } from "../errors/CrossAppError.ts";
import type { CrossAppConnection, LinkedAccount } from "../generated/protocol.ts";
import { createMemoryStorage } from "../storage/createMemoryStorage.ts";
import { APP_ID, makeUser } from "../test/fixtures.ts";
import { requestCrossAppAction } from "./requestCrossAppAction.ts";
import { waitForCrossAppAnswer } from "./waitForCrossAppAnswer.ts";

const PROVIDER = "clproviderapp000000000001";
const PROVIDER_ORIGIN = "http://id.test";
const WALLET = "0x1111111111111111111111111111111111111111";

/** A popup the test closes by hand. */
function fakePopup() {
  return {
    closed: false,
    close: vi.fn(function (this: { closed: boolean }) {
      this.closed = true;
    }),
  };
}

function post(target: EventTarget, origin: string, data: unknown) {
  target.dispatchEvent(new MessageEvent("message", { origin, data }));
}

describe("waitForCrossAppAnswer", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("resolves with the provider page's response", async () => {
    const target = new EventTarget();
    const answer = waitForCrossAppAnswer({ popup: fakePopup(), providerOrigin: PROVIDER_ORIGIN, target });
    post(target, PROVIDER_ORIGIN, { type: "PRIVY_CROSS_APP_ACTION_RESPONSE", data: { signature: "0xsig" } });
    await expect(answer).resolves.toEqual({ signature: "0xsig" });
  });

  it("ignores messages from another origin, so a foreign page cannot answer", async () => {
    const target = new EventTarget();
    const popup = fakePopup();
    const answer = waitForCrossAppAnswer({ popup, providerOrigin: PROVIDER_ORIGIN, target });
    post(target, "http://evil.test", {
      type: "PRIVY_CROSS_APP_ACTION_RESPONSE",
      data: { signature: "0xforged" },
    });
    post(target, PROVIDER_ORIGIN, { type: "SOMETHING_ELSE" });
    post(target, PROVIDER_ORIGIN, { type: "PRIVY_CROSS_APP_ACTION_RESPONSE", data: { signature: "0xreal" } });
    await expect(answer).resolves.toEqual({ signature: "0xreal" });
  });

  it("rejects with the page's error", async () => {
    const target = new EventTarget();
    const answer = waitForCrossAppAnswer({ popup: fakePopup(), providerOrigin: PROVIDER_ORIGIN, target });
    post(target, PROVIDER_ORIGIN, { type: "PRIVY_CROSS_APP_ACTION_ERROR", error: "User rejected request" });
    await expect(answer).rejects.toMatchObject({ code: "user_rejected", message: "User rejected request" });
  });

  it("a closed popup is a rejection, noticed within 300 ms", async () => {
    const target = new EventTarget();
    const popup = fakePopup();
    const answer = waitForCrossAppAnswer({ popup, providerOrigin: PROVIDER_ORIGIN, target });
    const settled = vi.fn();
    answer.catch(settled);
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(299);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await expect(answer).rejects.toThrow("User rejected request");
  });

  it("times out after 120 s and closes the popup", async () => {
    const target = new EventTarget();
    const popup = fakePopup();
    const answer = waitForCrossAppAnswer({ popup, providerOrigin: PROVIDER_ORIGIN, target });
    const settled = vi.fn();
    answer.catch(settled);
    await vi.advanceTimersByTimeAsync(119_999);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await expect(answer).rejects.toMatchObject({ code: "request_timeout", message: "Request timeout" });
    expect(popup.close).toHaveBeenCalled();
  });
});

describe("requestCrossAppAction", () => {
  let client: Client;
  let connections: CrossAppConnection[];

  function connection(readOnly: boolean): CrossAppConnection {
    return {
      provider_app_id: PROVIDER,
      provider_app_name: "Provider",
      provider_app_icon_url: null,
      provider_app_custom_api_url: PROVIDER_ORIGIN,
      read_only: readOnly,
      provider_app_custom_auth_authorize_url: null,
      provider_app_custom_auth_transact_url: null,
    };
  }

  function signIn(token: string | null) {
    const crossApp: LinkedAccount = {
      type: "cross_app",
      subject: "did:privy:provider-user",
      provider_app_id: PROVIDER,
      embedded_wallets: [{ address: WALLET }],
      smart_wallets: [],
      verified_at: 1,
      first_verified_at: 1,
      latest_verified_at: 1,
    } as LinkedAccount;
    client.store.setState({
      user: makeUser({ linked_accounts: [crossApp] }),
      oauthTokens:
        token === null
          ? {}
          : {
              [`privy:${PROVIDER}`]: {
                provider: `privy:${PROVIDER}`,
                access_token: token,
                access_token_expires_in_seconds: 3600,
                accessTokenExpiresAt: Date.now() + 3_600_000,
                grantedAt: Date.now(),
              } as never,
            },
    });
  }

  beforeEach(() => {
    connections = [connection(false)];
    const fetch = vi.fn(async () => new Response(JSON.stringify({ connections }), { status: 200 }));
    client = createClient({
      appId: APP_ID,
      apiUrl: "http://api.test",
      storage: createMemoryStorage(),
      broadcast: false,
      fetch,
    });
  });

  const request = { method: "personal_sign" as const, params: ["hello", WALLET] };

  it("refuses a read-only provider before opening anything", async () => {
    connections = [connection(true)];
    signIn("provider-token");
    const open = vi.fn();
    await expect(
      requestCrossAppAction(client, { appId: PROVIDER, address: WALLET, request, open }),
    ).rejects.toThrow("Cannot transact against a read-only provider app");
    expect(open).not.toHaveBeenCalled();
  });

  it("refuses an app that is not a connection, no provider token, and a foreign address", async () => {
    signIn(null);
    const open = vi.fn();
    await expect(
      requestCrossAppAction(client, { appId: "clotherapp000000000000001", address: WALLET, request, open }),
    ).rejects.toThrow("Invalid connected app");
    await expect(
      requestCrossAppAction(client, { appId: PROVIDER, address: WALLET, request, open }),
    ).rejects.toThrow("Transactions require a valid token");
    signIn("provider-token");
    await expect(
      crossAppSignMessage(client, "hello", {
        appId: PROVIDER,
        address: "0x2222222222222222222222222222222222222222",
      }),
    ).rejects.toThrow("Cannot request a signature with this wallet address");
    expect(open).not.toHaveBeenCalled();
  });

  it("a blocked popup fails to initialize the request", async () => {
    signIn("provider-token");
    await expect(
      requestCrossAppAction(client, { appId: PROVIDER, address: WALLET, request, open: () => null }),
    ).rejects.toBeInstanceOf(CrossAppError);
    await expect(
      requestCrossAppAction(client, { appId: PROVIDER, address: WALLET, request, open: () => null }),
    ).rejects.toThrow("Failed to initialize signature request");
  });

  it("opens the provider's transact page with the token and the request", async () => {
    signIn("provider-token");
    const popup = fakePopup();
    const open = vi.fn(() => popup as unknown as Window);
    const target = new EventTarget();
    const answer = requestCrossAppAction(client, { appId: PROVIDER, address: WALLET, request, open, target });
    await vi.waitFor(() => expect(open).toHaveBeenCalled());
    const url = new URL((open.mock.calls[0] as unknown as [string])[0]);
    expect(`${url.origin}${url.pathname}`).toBe(`${PROVIDER_ORIGIN}/oauth/transact`);
    expect(url.searchParams.get("token")).toBe("provider-token");
    expect(JSON.parse(url.searchParams.get("request") ?? "null")).toEqual(request);
    post(target, PROVIDER_ORIGIN, { type: "PRIVY_CROSS_APP_ACTION_RESPONSE", data: { signature: "0xsig" } });
    await expect(answer).resolves.toEqual({ signature: "0xsig" });
  });
});
