import { beforeAll, describe, expect, it } from "vitest";
import { CODE, PASSKEY_ID, TOTP_SECRET } from "../test/fakeMfa.ts";
import { createFakeServer, type FakeServer } from "../test/fakeServer.ts";
import { createFrame } from "../test/frameHarness.ts";
import { loadWasm } from "../test/loadWasm.ts";
import { accessToken } from "../test/tokens.ts";

beforeAll(loadWasm);

const ALICE = "did:privy:alice";
const alice = accessToken(ALICE);
const TOKEN_KEY = `symbolon:mfa:app:${ALICE}`;
const RETRY = { type: "missing_or_invalid_mfa", message: "MFA verification failed, retry." };
const assertion = {
  id: PASSKEY_ID,
  raw_id: PASSKEY_ID,
  response: {},
  client_extension_results: {},
  type: "public-key",
};

type User = { id: string; mfa_methods: { type: string }[] };

function setup(enrolled: string[] = []) {
  const server = createFakeServer();
  for (const method of enrolled) server.mfa.enroll(ALICE, method);
  return { server, frame: createFrame(server) };
}

const stored = (frame: ReturnType<typeof createFrame>) =>
  JSON.parse(frame.session.getItem(TOKEN_KEY) ?? "null") as { token: string; expiresAt: number } | null;
const lastCall = (server: FakeServer) => server.calls.at(-1);

describe("privy:mfa:verify", () => {
  it("keeps the token in the frame's sessionStorage and answers {} (the host never sees it)", async () => {
    const { server, frame } = setup(["totp"]);
    expect(
      await frame.call("privy:mfa:verify", { accessToken: alice, method: "totp", mfaCode: CODE }),
    ).toEqual({});
    expect(lastCall(server)?.path).toBe("/api/v1/mfa/verify");
    expect(lastCall(server)?.body).toEqual({ method: "totp", code: CODE });
    // Same origin, a real Origin header (the route is frame-only).
    expect(lastCall(server)?.init).toMatchObject({ referrerPolicy: "strict-origin", credentials: "omit" });
    const kept = stored(frame);
    expect(kept?.token).toMatch(/^mfa-token-/);
    expect(kept?.expiresAt).toBeGreaterThan(Date.now() / 1000);
    expect(server.mfa.tokens.has(kept?.token ?? "")).toBe(true);
    expect(JSON.stringify(frame.posted)).not.toContain(kept?.token);
  });

  it("code-less (the published client, before an export): {} without a second factor or with a held verification, else the retry error", async () => {
    // No second factor: nothing to verify.
    const none = setup();
    expect(await none.frame.call("privy:mfa:verify", { accessToken: alice })).toEqual({});
    expect(lastCall(none.server)).toMatchObject({ path: "/api/v1/users/me", init: { method: "GET" } });
    expect(stored(none.frame)).toBeNull();
    // A second factor and no verification held: the host prompts and posts again with the code.
    const { server, frame } = setup(["totp"]);
    expect((await frame.request("privy:mfa:verify", { accessToken: alice })).error).toEqual(RETRY);
    expect(server.calls.map((c) => c.path)).toEqual(["/api/v1/users/me"]);
    expect(
      await frame.call("privy:mfa:verify", { accessToken: alice, mfaMethod: "totp", mfaCode: CODE }),
    ).toEqual({});
    // Held now: the next code-less ask is answered from the frame, with no server call.
    const calls = server.calls.length;
    expect(await frame.call("privy:mfa:verify", { accessToken: alice })).toEqual({});
    expect(server.calls.length).toBe(calls);
    // Logged out (no token): refused before anything.
    expect((await frame.request("privy:mfa:verify", {})).error?.type).toBe(
      "attempted_rpc_call_before_logged_in",
    );
  });

  it("takes the method as mfaMethod too (the published client's name)", async () => {
    const { server, frame } = setup(["totp", "passkey"]);
    expect(
      await frame.call("privy:mfa:verify", {
        accessToken: alice,
        mfaMethod: "totp",
        mfaCode: CODE,
        relyingParty: "http://localhost:5173",
      }),
    ).toEqual({});
    expect(lastCall(server)?.body).toEqual({ method: "totp", code: CODE });
    expect(stored(frame)?.token).toMatch(/^mfa-token-/);
    await frame.call("privy:mfa:verify", { accessToken: alice, mfaMethod: "passkey", mfaCode: assertion });
    expect(lastCall(server)?.body).toEqual({ method: "passkey", authenticator_response: assertion });
    expect(
      (await frame.request("privy:mfa:verify", { accessToken: alice, mfaMethod: "totp", mfaCode: "000000" }))
        .error,
    ).toEqual({ type: "missing_or_invalid_mfa", message: "The code you entered is not valid" });
    expect(
      (await frame.request("privy:mfa:verify", { accessToken: alice, mfaMethod: "email", mfaCode: CODE }))
        .error,
    ).toEqual({ type: "invalid_input", message: "Unsupported MFA method" });
  });

  it("sends a passkey assertion as authenticator_response", async () => {
    const { server, frame } = setup(["passkey"]);
    await frame.call("privy:mfa:verify", { accessToken: alice, method: "passkey", mfaCode: assertion });
    expect(lastCall(server)?.body).toEqual({ method: "passkey", authenticator_response: assertion });
    expect(stored(frame)).not.toBeNull();
  });

  it("maps the server's refusals to the frame errors the host's retry loop reads", async () => {
    const { frame } = setup(["totp", "passkey"]);
    const verify = async (data: Record<string, unknown>) =>
      (await frame.request("privy:mfa:verify", { accessToken: alice, ...data })).error;
    expect(await verify({ method: "totp", mfaCode: "000000" })).toEqual({
      type: "missing_or_invalid_mfa",
      message: "The code you entered is not valid",
    });
    expect(await verify({ method: "passkey", mfaCode: { ...assertion, id: "other" } })).toEqual({
      type: "missing_or_invalid_mfa",
      message: "The code you entered is not valid",
    });
    expect(await verify({ method: "sms", mfaCode: CODE })).toEqual({
      type: "missing_mfa_enrollment",
      message: "The user has not enrolled this MFA method",
    });
    // One wrong code so far; after the 5th the user is locked out, even for the right code, and
    // the host learns for how long (the server's Retry-After).
    for (let i = 0; i < 4; i += 1) await verify({ method: "totp", mfaCode: "000000" });
    expect(await verify({ method: "totp", mfaCode: CODE })).toEqual({
      type: "mfa_verification_max_attempts_reached",
      message: "Max MFA verification attempts reached",
      retryAfterSeconds: 10,
    });
    expect(stored(frame)).toBeNull();
  });

  it("passes on how long a lock-out lasts, and the server's words for a code already used", async () => {
    const { server, frame } = setup(["totp"]);
    const verify = async () =>
      (await frame.request("privy:mfa:verify", { accessToken: alice, method: "totp", mfaCode: "000000" }))
        .error;
    server.failNext(429, "too_many_requests", "Locked", { "retry-after": "30" });
    expect(await verify()).toEqual({
      type: "mfa_verification_max_attempts_reached",
      message: "Max MFA verification attempts reached",
      retryAfterSeconds: 30,
    });
    const used = "This code was already used. Wait for the next one.";
    server.failNext(401, "token_already_used", used);
    expect(await verify()).toEqual({ type: "embedded_wallet_request_error", message: used });
  });

  it("checks the method, the code (a string of 6 digits) and the passkey response before any call", async () => {
    const { server, frame } = setup(["totp"]);
    const errorOf = async (data: Record<string, unknown>) =>
      (await frame.request("privy:mfa:verify", { accessToken: alice, ...data })).error;
    const invalid = (message: string) => ({ type: "invalid_input", message });
    expect(await errorOf({ method: "email", mfaCode: CODE })).toEqual(invalid("Unsupported MFA method"));
    expect(await errorOf({ mfaCode: CODE })).toEqual(invalid("Unsupported MFA method"));
    for (const mfaCode of [123456, "12345", "1234567", "12a456", " 123456", undefined, assertion]) {
      expect(await errorOf({ method: "totp", mfaCode })).toEqual(invalid("Invalid MFA code"));
      expect(await errorOf({ method: "sms", mfaCode })).toEqual(invalid("Invalid MFA code"));
    }
    for (const mfaCode of [CODE, null, [assertion], undefined]) {
      expect(await errorOf({ method: "passkey", mfaCode })).toEqual(invalid("Invalid passkey response"));
    }
    expect(await errorOf({ accessToken: undefined, method: "totp", mfaCode: CODE })).toEqual({
      type: "attempted_rpc_call_before_logged_in",
      message: "Missing access token",
    });
    expect(server.calls).toEqual([]);
  });
});

describe("MFA enrolment messages", () => {
  it("init-enrollment: totp answers {secret, authUrl}; sms sends the code; passkey needs no call", async () => {
    const { server, frame } = setup();
    expect(await frame.call("privy:mfa:init-enrollment", { accessToken: alice, method: "totp" })).toEqual({
      secret: TOTP_SECRET,
      authUrl: `otpauth://totp/app:${ALICE}?secret=${TOTP_SECRET}`,
    });
    expect(lastCall(server)?.path).toBe("/api/v1/mfa/totp/init");
    expect(
      await frame.call("privy:mfa:init-enrollment", {
        accessToken: alice,
        method: "sms",
        phoneNumber: "+15555550100",
      }),
    ).toEqual({});
    expect(lastCall(server)?.path).toBe("/api/v1/mfa/passwordless_sms/init");
    expect(lastCall(server)?.body).toEqual({ action: "enroll", phoneNumber: "+15555550100" });
    const before = server.calls.length;
    expect(await frame.call("privy:mfa:init-enrollment", { accessToken: alice, method: "passkey" })).toEqual(
      {},
    );
    expect(server.calls).toHaveLength(before);
    expect(
      (await frame.request("privy:mfa:init-enrollment", { accessToken: alice, method: "sms" })).error,
    ).toEqual({ type: "invalid_input", message: "Invalid phone number" });
  });

  it("submit-enrollment: the first method needs no token; the next asks for MFA, then spends the token", async () => {
    const { server, frame } = setup();
    const first = await frame.call<{ user: User }>("privy:mfa:submit-enrollment", {
      accessToken: alice,
      method: "totp",
      mfaCode: CODE,
    });
    expect(first.user.mfa_methods.map((m) => m.type)).toEqual(["totp"]);
    expect(lastCall(server)).toMatchObject({ path: "/api/v1/mfa/totp/enroll", body: { code: CODE } });
    expect(lastCall(server)?.body).not.toHaveProperty("mfa_token");

    const sms = { accessToken: alice, method: "sms", phoneNumber: "+15555550100", mfaCode: CODE };
    expect((await frame.request("privy:mfa:submit-enrollment", sms)).error).toEqual(RETRY);
    // The host prompts, the user verifies, the host retries.
    await frame.call("privy:mfa:verify", { accessToken: alice, method: "totp", mfaCode: CODE });
    const token = stored(frame)?.token;
    const second = await frame.call<{ user: User }>("privy:mfa:submit-enrollment", sms);
    expect(second.user.mfa_methods.map((m) => m.type)).toEqual(["totp", "sms"]);
    expect(lastCall(server)).toMatchObject({
      path: "/api/v1/mfa/passwordless_sms/enroll",
      body: { phoneNumber: "+15555550100", code: CODE, mfa_token: token },
    });
    expect(stored(frame)).toBeNull();
  });

  it("submit-enrollment takes the code as code too (the published client's name)", async () => {
    const { server, frame } = setup();
    const first = await frame.call<{ user: User }>("privy:mfa:submit-enrollment", {
      accessToken: alice,
      method: "totp",
      code: CODE,
    });
    expect(first.user.mfa_methods.map((m) => m.type)).toEqual(["totp"]);
    expect(lastCall(server)).toMatchObject({ path: "/api/v1/mfa/totp/enroll", body: { code: CODE } });
    await frame.call("privy:mfa:verify", { accessToken: alice, method: "totp", mfaCode: CODE });
    const token = stored(frame)?.token;
    const sms = { accessToken: alice, method: "sms", phoneNumber: "+15555550100", code: CODE };
    expect(
      (await frame.call<{ user: User }>("privy:mfa:submit-enrollment", sms)).user.mfa_methods,
    ).toHaveLength(2);
    expect(lastCall(server)).toMatchObject({
      path: "/api/v1/mfa/passwordless_sms/enroll",
      body: { phoneNumber: "+15555550100", code: CODE, mfa_token: token },
    });
    const errorOf = async (data: Record<string, unknown>) =>
      (await frame.request("privy:mfa:submit-enrollment", { accessToken: alice, method: "totp", ...data }))
        .error;
    const calls = server.calls.length;
    for (const code of [123456, "12345", "12a456"]) {
      expect(await errorOf({ code })).toEqual({ type: "invalid_input", message: "Invalid MFA code" });
    }
    expect(server.calls).toHaveLength(calls);
  });

  it("submit-enrollment of passkeys sends the whole set and removeForLogin", async () => {
    const { server, frame } = setup();
    await frame.call("privy:mfa:submit-enrollment", {
      accessToken: alice,
      method: "passkey",
      credentialIds: [PASSKEY_ID, "cred-2"],
      removeForLogin: true,
    });
    expect(lastCall(server)).toMatchObject({
      path: "/api/v1/mfa/passkeys/enroll",
      body: { credential_ids: [PASSKEY_ID, "cred-2"], remove_for_login: true },
    });
    const errorOf = async (data: Record<string, unknown>) =>
      (await frame.request("privy:mfa:submit-enrollment", { accessToken: alice, ...data })).error?.message;
    expect(await errorOf({ method: "passkey", credentialIds: [] })).toBe(
      "credentialIds must be a non-empty list of credential ids",
    );
    expect(await errorOf({ method: "passkey", credentialIds: [PASSKEY_ID, 7] })).toBe(
      "credentialIds must be a non-empty list of credential ids",
    );
    expect(await errorOf({ method: "passkey", credentialIds: [PASSKEY_ID], removeForLogin: "yes" })).toBe(
      "removeForLogin must be a boolean",
    );
    expect(await errorOf({ method: "totp", mfaCode: 123456 })).toBe("Invalid MFA code");
    expect(await errorOf({ method: "sms", mfaCode: CODE })).toBe("Invalid phone number");
  });

  it("unenroll needs a fresh verification and uses the token up", async () => {
    const { server, frame } = setup(["totp"]);
    const data = { accessToken: alice, method: "totp", removeForLogin: false };
    expect((await frame.request("privy:mfa:unenroll", data)).error).toEqual(RETRY);
    await frame.call("privy:mfa:verify", { accessToken: alice, method: "totp", mfaCode: CODE });
    const token = stored(frame)?.token;
    expect((await frame.call<{ user: User }>("privy:mfa:unenroll", data)).user.mfa_methods).toEqual([]);
    expect(lastCall(server)).toMatchObject({
      path: "/api/v1/mfa/unenroll",
      body: { method: "totp", mfa_token: token, remove_for_login: false },
    });
    expect(stored(frame)).toBeNull();
  });

  it("drops a token the server refuses (another session's) and asks for a new verification", async () => {
    const { server, frame } = setup(["totp"]);
    await frame.call("privy:mfa:verify", { accessToken: alice, method: "totp", mfaCode: CODE });
    // The server's copy now belongs to another session: it answers expired_or_invalid_mfa_token.
    const [token, owner] = [...server.mfa.tokens][0] ?? [];
    if (!token || !owner) throw new Error("no token issued");
    owner.sid = "session-2";
    expect((await frame.request("privy:mfa:unenroll", { accessToken: alice, method: "totp" })).error).toEqual(
      RETRY,
    );
    expect(lastCall(server)?.body.mfa_token).toBe(token);
    expect(stored(frame)).toBeNull();
  });

  it("keeps the token after a failure that is not about it", async () => {
    const { server, frame } = setup(["totp"]);
    await frame.call("privy:mfa:verify", { accessToken: alice, method: "totp", mfaCode: CODE });
    const token = stored(frame)?.token;
    server.failNext(502, "internal_error", "Bad gateway");
    const data = { accessToken: alice, method: "totp" };
    expect((await frame.request("privy:mfa:unenroll", data)).error).toEqual({
      type: "embedded_wallet_request_error",
      message: "Bad gateway",
    });
    expect(stored(frame)?.token).toBe(token);
    await frame.call("privy:mfa:unenroll", data);
    expect(lastCall(server)?.body.mfa_token).toBe(token);
  });

  it("the unprefixed aliases are gone: Unsupported event, no server call, the held token kept", async () => {
    const { server, frame } = setup(["totp"]);
    await frame.call("privy:mfa:verify", { accessToken: alice, method: "totp", mfaCode: CODE });
    const token = stored(frame)?.token;
    const calls = server.calls.length;
    for (const [event, data] of [
      ["privy:init-enrollment", { method: "totp" }],
      ["privy:submit-enrollment", { method: "totp", mfaCode: CODE }],
      ["privy:unenroll", { method: "totp" }],
    ] as const) {
      expect((await frame.request(event, { accessToken: alice, ...data })).error).toEqual({
        type: "embedded_wallet_request_error",
        message: `Unsupported event: ${event}`,
      });
    }
    expect(server.calls).toHaveLength(calls);
    expect(stored(frame)?.token).toBe(token);
    expect(server.mfa.mfaMethods(ALICE).map((m) => m.type)).toEqual(["totp"]);
  });
});

describe("privy:auth:unlink-passkey", () => {
  it("removes a passkey enrolled in MFA with the token, and plainly without removeAsMfa", async () => {
    const { server, frame } = setup(["passkey"]);
    const data = { accessToken: alice, credentialId: PASSKEY_ID, removeAsMfa: true };
    expect((await frame.request("privy:auth:unlink-passkey", data)).error).toEqual(RETRY);
    await frame.call("privy:mfa:verify", { accessToken: alice, method: "passkey", mfaCode: assertion });
    const token = stored(frame)?.token;
    const { user } = await frame.call<{ user: User }>("privy:auth:unlink-passkey", data);
    expect(user).toMatchObject({ id: ALICE, mfa_methods: [] });
    expect(lastCall(server)).toMatchObject({
      path: "/api/v1/mfa/passkeys/unlink",
      body: { credential_id: PASSKEY_ID, remove_as_mfa: true, mfa_token: token },
    });
    expect(stored(frame)).toBeNull();

    // Not as MFA: no token sent, a held one stays for what needs it.
    server.mfa.enroll(ALICE, "totp");
    await frame.call("privy:mfa:verify", { accessToken: alice, method: "totp", mfaCode: CODE });
    await frame.call("privy:auth:unlink-passkey", { accessToken: alice, credentialId: "cred-2" });
    expect(lastCall(server)?.body).toEqual({ credential_id: "cred-2" });
    expect(stored(frame)).not.toBeNull();
  });

  it("passes on the refusal of a passkey enrolled in MFA, and checks its input", async () => {
    const { frame } = setup(["passkey"]);
    expect(
      (await frame.request("privy:auth:unlink-passkey", { accessToken: alice, credentialId: PASSKEY_ID }))
        .error,
    ).toEqual({ type: "embedded_wallet_request_error", message: "Cannot unlink a passkey enrolled in MFA" });
    expect(
      (await frame.request("privy:auth:unlink-passkey", { accessToken: alice, credentialId: "" })).error,
    ).toEqual({ type: "invalid_input", message: "Invalid credential id" });
    expect(
      (
        await frame.request("privy:auth:unlink-passkey", {
          accessToken: alice,
          credentialId: "x",
          removeAsMfa: 1,
        })
      ).error,
    ).toEqual({ type: "invalid_input", message: "removeAsMfa must be a boolean" });
  });
});

describe("forgetting the MFA token", () => {
  for (const data of [{}, { userId: ALICE }]) {
    it(`privy:mfa:clear ${JSON.stringify(data)} forgets it`, async () => {
      const { frame } = setup(["totp"]);
      await frame.call("privy:mfa:verify", { accessToken: alice, method: "totp", mfaCode: CODE });
      expect(stored(frame)).not.toBeNull();
      expect(await frame.call("privy:mfa:clear", data)).toEqual({});
      expect(stored(frame)).toBeNull();
    });
  }

  it("privy:clear is gone: Unsupported event, the token kept", async () => {
    const { frame } = setup(["totp"]);
    await frame.call("privy:mfa:verify", { accessToken: alice, method: "totp", mfaCode: CODE });
    expect((await frame.request("privy:clear", {})).error).toEqual({
      type: "embedded_wallet_request_error",
      message: "Unsupported event: privy:clear",
    });
    expect(stored(frame)).not.toBeNull();
  });
});
