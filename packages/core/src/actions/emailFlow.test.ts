import { describe, expect, it, vi } from "vitest";
import type { EmailFlowStatus } from "../client/createClient.ts";
import { isApiError } from "../errors/ApiError.ts";
import { isClientError } from "../errors/ClientError.ts";
import { storageKey } from "../session/storageKey.ts";
import { createMemoryStorage } from "../storage/createMemoryStorage.ts";
import { APP_ID, makeUser } from "../test/fixtures.ts";
import { makeClient, storeSession, useScriptedApp } from "../test/harness.ts";
import { initialize } from "./initialize.ts";
import { loginWithEmailCode } from "./loginWithEmailCode.ts";
import { resetEmailFlow } from "./resetEmailFlow.ts";
import { sendEmailCode } from "./sendEmailCode.ts";

const scripted = useScriptedApp();

function statuses(client: ReturnType<typeof makeClient>): EmailFlowStatus[] {
  const seen: EmailFlowStatus[] = [];
  client.store.subscribe((s, prev) => {
    if (s.emailFlow.status !== prev.emailFlow.status) seen.push(s.emailFlow.status);
  });
  return seen;
}

describe("email code login", () => {
  it("goes sending-code, awaiting-code-input, submitting-code, done and signs the user in", async () => {
    const storage = createMemoryStorage();
    const client = makeClient(scripted.server, { storage });
    const seen = statuses(client);
    await sendEmailCode(client, { email: " ada@example.com " });
    expect(scripted.server.hitsOf("POST /api/v1/passwordless/init")[0]?.body).toEqual({
      email: "ada@example.com",
    });
    const result = await loginWithEmailCode(client, { code: " 123456 " });
    expect(scripted.server.hitsOf("POST /api/v1/passwordless/authenticate")[0]?.body).toEqual({
      email: "ada@example.com",
      code: "123456",
    });
    expect(seen).toEqual(["sending-code", "awaiting-code-input", "submitting-code", "done"]);
    expect(result).toEqual({ user: scripted.app.user, isNewUser: true, wasAlreadyAuthenticated: false });
    expect(client.store.getState()).toMatchObject({ authenticated: true, user: scripted.app.user });
    expect(storage.getItem(storageKey(APP_ID, "refresh_token"))).toBe(scripted.app.currentRefreshToken);
  });

  it("sends the captcha token and the sign-up mode", async () => {
    const client = makeClient(scripted.server);
    await sendEmailCode(client, { email: "ada@example.com", captchaToken: "cap" });
    await loginWithEmailCode(client, { code: "123456", mode: "no-signup" });
    expect(scripted.server.hitsOf("POST /api/v1/passwordless/init")[0]?.body).toEqual({
      email: "ada@example.com",
      token: "cap",
    });
    expect(scripted.server.hitsOf("POST /api/v1/passwordless/authenticate")[0]?.body).toMatchObject({
      mode: "no-signup",
    });
  });

  it("refuses an invalid address with the spec message, without calling the server", async () => {
    const client = makeClient(scripted.server);
    const e = await sendEmailCode(client, { email: "ada@example" }).catch((err: unknown) => err);
    expect(isClientError(e) && e.message).toBe("Please enter a valid email address.");
    expect(client.store.getState().emailFlow).toMatchObject({ status: "error", email: "ada@example" });
    expect(scripted.server.hitsOf("POST /api/v1/passwordless/init")).toHaveLength(0);
  });

  it("refuses a '+' address when the app disables them", async () => {
    await scripted.restart({ config: { disable_plus_emails: true } });
    const client = makeClient(scripted.server);
    await initialize(client);
    const e = await sendEmailCode(client, { email: "ada+x@example.com" }).catch((err: unknown) => err);
    expect(isClientError(e) && e.message).toBe("Please enter a valid email address without a '+'.");
    expect(scripted.server.hitsOf("POST /api/v1/passwordless/init")).toHaveLength(0);
  });

  it("a wrong code leaves an error state keeping the email, from which a retry succeeds", async () => {
    const client = makeClient(scripted.server);
    await sendEmailCode(client, { email: "ada@example.com" });
    const e = await loginWithEmailCode(client, { code: "000000" }).catch((err: unknown) => err);
    expect(isApiError(e) && e.code).toBe("invalid_credentials");
    const flow = client.store.getState().emailFlow;
    expect(flow.status).toBe("error");
    expect(flow.email).toBe("ada@example.com");
    expect(flow.error?.code).toBe("invalid_credentials");
    expect(client.store.getState().authenticated).toBe(false);
    await loginWithEmailCode(client, { code: "123456" });
    expect(client.store.getState().emailFlow.status).toBe("done");
    expect(client.store.getState().authenticated).toBe(true);
  });

  it("a rate-limited send ends in error with the wait, without retrying", async () => {
    scripted.server.on("POST /api/v1/passwordless/init", () => ({
      status: 429,
      headers: { "retry-after": "42" },
      json: { error: "Too many", code: "too_many_requests" },
    }));
    const client = makeClient(scripted.server);
    await expect(sendEmailCode(client, { email: "ada@example.com" })).rejects.toMatchObject({
      code: "too_many_requests",
      retryAfterSeconds: 42,
    });
    expect(client.store.getState().emailFlow).toMatchObject({ status: "error", email: "ada@example.com" });
    expect(scripted.server.hitsOf("POST /api/v1/passwordless/init")).toHaveLength(1);
  });

  it("a login while signed in is ignored with a warning", async () => {
    const storage = createMemoryStorage();
    storeSession(storage, scripted.app.issue());
    const client = makeClient(scripted.server, { storage });
    await initialize(client);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const result = await loginWithEmailCode(client, { code: "123456", email: "other@example.com" });
    expect(result).toEqual({ user: scripted.app.user, isNewUser: false, wasAlreadyAuthenticated: true });
    expect(warn).toHaveBeenCalledOnce();
    expect(scripted.server.hitsOf("POST /api/v1/passwordless/authenticate")).toHaveLength(0);
  });

  it("a guest may log in with an email code", async () => {
    const storage = createMemoryStorage();
    scripted.app.user = makeUser({ is_guest: true, linked_accounts: [] });
    storeSession(storage, scripted.app.issue());
    const client = makeClient(scripted.server, { storage });
    await initialize(client);
    scripted.app.user = makeUser();
    const result = await loginWithEmailCode(client, { code: "123456", email: "ada@example.com" });
    expect(result.wasAlreadyAuthenticated).toBe(false);
    expect(client.store.getState().user?.is_guest).toBe(false);
  });

  it("a login answer that clears the session fails with 'Authentication failed - no user returned'", async () => {
    scripted.server.on("POST /api/v1/passwordless/authenticate", () => ({
      json: scripted.app.issue({ session_update_action: "clear" }),
    }));
    const client = makeClient(scripted.server);
    await sendEmailCode(client, { email: "ada@example.com" });
    await expect(loginWithEmailCode(client, { code: "123456" })).rejects.toThrow(
      "Authentication failed - no user returned",
    );
    expect(client.store.getState()).toMatchObject({ authenticated: false, emailFlow: { status: "error" } });
  });

  it("submitting a code with no flow in progress fails clearly", async () => {
    const client = makeClient(scripted.server);
    await expect(loginWithEmailCode(client, { code: "123456" })).rejects.toThrow("No auth flow in progress.");
  });

  it("resetEmailFlow returns to initial", async () => {
    const client = makeClient(scripted.server);
    await sendEmailCode(client, { email: "ada@example.com" });
    resetEmailFlow(client);
    expect(client.store.getState().emailFlow).toEqual({ status: "initial", email: null, error: null });
  });
});
