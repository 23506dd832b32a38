import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/browser";
import { describe, expect, it, vi } from "vitest";
import { initialize } from "../actions/initialize.ts";
import type {
  PasskeyAccount,
  PasskeyCreationOptions,
  PasskeyRequestOptions,
  User,
} from "../generated/protocol.ts";
import { createMemoryStorage } from "../storage/createMemoryStorage.ts";
import { installFakeWalletFrame } from "../test/fakeWalletFrame.ts";
import { makeUser } from "../test/fixtures.ts";
import { makeClient, storeSession, useScriptedApp } from "../test/harness.ts";
import { linkWithPasskey } from "./linkWithPasskey.ts";
import { loginWithPasskey } from "./loginWithPasskey.ts";
import { signupWithPasskey } from "./signupWithPasskey.ts";
import type { PasskeyFlowStatus } from "./types.ts";
import { unlinkPasskey } from "./unlinkPasskey.ts";

// The browser's WebAuthn behind @simplewebauthn/browser is the only stand-in: the rest is the real
// client against a real HTTP server.
const webauthn = vi.hoisted(() => ({
  startRegistration:
    vi.fn<
      (o: { optionsJSON: PublicKeyCredentialCreationOptionsJSON }) => Promise<RegistrationResponseJSON>
    >(),
  startAuthentication:
    vi.fn<
      (o: { optionsJSON: PublicKeyCredentialRequestOptionsJSON }) => Promise<AuthenticationResponseJSON>
    >(),
}));
vi.mock("@simplewebauthn/browser", () => webauthn);

const scripted = useScriptedApp();

const CREATION: PasskeyCreationOptions = {
  rp: { id: "localhost", name: "Test app" },
  user: { id: "dXNlcg", name: "ada", display_name: "ada" },
  challenge: "cmVnaXN0ZXI",
  pub_key_cred_params: [{ type: "public-key", alg: -7 }],
  timeout: 60_000,
  exclude_credentials: [],
  authenticator_selection: {
    resident_key: "required",
    require_resident_key: true,
    user_verification: "required",
  },
  attestation: "none",
};
const REQUEST: PasskeyRequestOptions = {
  challenge: "YXV0aGVudGljYXRl",
  timeout: 60_000,
  rp_id: "localhost",
  allow_credentials: [],
  user_verification: "required",
};

function passkey(credentialId: string, enrolledInMfa = false): { type: "passkey" } & PasskeyAccount {
  return {
    type: "passkey",
    credential_id: credentialId,
    authenticator_name: null,
    created_with_browser: "Chrome",
    created_with_os: "Linux",
    created_with_device: null,
    enrolled_in_mfa: enrolledInMfa,
    verified_at: 1,
    first_verified_at: 1,
    latest_verified_at: 1,
  };
}

const registration = (id: string): RegistrationResponseJSON => ({
  id,
  rawId: id,
  response: { clientDataJSON: "Y2Rq", attestationObject: "YW8", transports: ["internal"] },
  clientExtensionResults: { credProps: { rk: true } },
  type: "public-key",
});
const assertion = (id: string): AuthenticationResponseJSON => ({
  id,
  rawId: id,
  response: { clientDataJSON: "Y2Rq", authenticatorData: "YWQ", signature: "c2ln", userHandle: "dXNlcg" },
  clientExtensionResults: {},
  type: "public-key",
});

function statuses(client: ReturnType<typeof makeClient>): PasskeyFlowStatus[] {
  const seen: PasskeyFlowStatus[] = [];
  client.store.subscribe((s, prev) => {
    if (s.passkeyFlow.status !== prev.passkeyFlow.status) seen.push(s.passkeyFlow.status);
  });
  return seen;
}

async function signedIn(user: User, options: Parameters<typeof makeClient>[1] = {}) {
  scripted.app.user = user;
  const storage = createMemoryStorage();
  storeSession(storage, scripted.app.issue());
  const client = makeClient(scripted.server, { storage, ...options });
  await initialize(client);
  return client;
}

describe("passkey login and sign-up", () => {
  it("logs in: generating-challenge, awaiting-passkey, submitting-response, done; the assertion goes in wire form", async () => {
    scripted.server.on("POST /api/v1/passkeys/authenticate/init", () => ({
      json: { options: REQUEST, relying_party: "localhost" },
    }));
    scripted.server.on("POST /api/v1/passkeys/authenticate", () => {
      scripted.app.user = makeUser({ linked_accounts: [passkey("Y3JlZA")] });
      return { json: scripted.app.issue() };
    });
    webauthn.startAuthentication.mockImplementationOnce(async ({ optionsJSON }) => {
      expect(optionsJSON).toEqual({
        challenge: REQUEST.challenge,
        timeout: 60_000,
        rpId: "localhost",
        allowCredentials: [],
        userVerification: "required",
      });
      return assertion("Y3JlZA");
    });
    const client = makeClient(scripted.server);
    const seen = statuses(client);
    const result = await loginWithPasskey(client, { captchaToken: "cap" });
    expect(seen).toEqual(["generating-challenge", "awaiting-passkey", "submitting-response", "done"]);
    expect(scripted.server.hitsOf("POST /api/v1/passkeys/authenticate/init")[0]?.body).toEqual({
      token: "cap",
    });
    expect(scripted.server.hitsOf("POST /api/v1/passkeys/authenticate")[0]?.body).toEqual({
      relying_party: "localhost",
      challenge: REQUEST.challenge,
      authenticator_response: {
        id: "Y3JlZA",
        raw_id: "Y3JlZA",
        response: {
          client_data_json: "Y2Rq",
          authenticator_data: "YWQ",
          signature: "c2ln",
          user_handle: "dXNlcg",
        },
        client_extension_results: {},
        type: "public-key",
      },
    });
    expect(result.user.linked_accounts[0]?.type).toBe("passkey");
    expect(client.store.getState().authenticated).toBe(true);
    expect(client.store.getState().passkeyFlow).toEqual({ status: "done", intent: "login", error: null });
  });

  it("signs up with a new credential (is_new_user)", async () => {
    scripted.server.on("POST /api/v1/passkeys/register/init", () => ({
      json: { options: CREATION, relying_party: "localhost" },
    }));
    scripted.server.on("POST /api/v1/passkeys/register", () => {
      scripted.app.user = makeUser({ linked_accounts: [passkey("bmV3")] });
      return { json: scripted.app.issue({ is_new_user: true }) };
    });
    webauthn.startRegistration.mockImplementationOnce(async ({ optionsJSON }) => {
      expect(optionsJSON.user.displayName).toBe("ada");
      expect(optionsJSON.authenticatorSelection?.residentKey).toBe("required");
      return registration("bmV3");
    });
    const client = makeClient(scripted.server);
    const seen = statuses(client);
    const result = await signupWithPasskey(client);
    expect(seen).toEqual(["generating-challenge", "awaiting-passkey", "submitting-response", "done"]);
    expect(result.isNewUser).toBe(true);
    const body = scripted.server.hitsOf("POST /api/v1/passkeys/register")[0]?.body as Record<string, unknown>;
    expect(body.authenticator_response).toMatchObject({
      raw_id: "bmV3",
      response: { client_data_json: "Y2Rq", attestation_object: "YW8", transports: ["internal"] },
      client_extension_results: { cred_props: { rk: true } },
    });
  });

  it("a dismissed prompt (NotAllowedError) ends in error with the spec's message", async () => {
    scripted.server.on("POST /api/v1/passkeys/authenticate/init", () => ({
      json: { options: REQUEST, relying_party: "localhost" },
    }));
    webauthn.startAuthentication.mockImplementationOnce(async () => {
      throw Object.assign(new Error("The operation either timed out or was not allowed."), {
        name: "NotAllowedError",
      });
    });
    const client = makeClient(scripted.server);
    const seen = statuses(client);
    await expect(loginWithPasskey(client)).rejects.toThrow("Passkey request timed out or rejected by user.");
    expect(seen).toEqual(["generating-challenge", "awaiting-passkey", "error"]);
    expect(client.store.getState().passkeyFlow.error?.message).toBe(
      "Passkey request timed out or rejected by user.",
    );
    expect(scripted.server.hitsOf("POST /api/v1/passkeys/authenticate")).toHaveLength(0);
  });

  it("any other WebAuthn failure reads 'Unknown error occurred.'", async () => {
    scripted.server.on("POST /api/v1/passkeys/register/init", () => ({
      json: { options: CREATION, relying_party: "localhost" },
    }));
    webauthn.startRegistration.mockImplementationOnce(async () => {
      throw Object.assign(new Error("bad"), { name: "SecurityError" });
    });
    const client = makeClient(scripted.server);
    await expect(signupWithPasskey(client)).rejects.toThrow("Unknown error occurred.");
  });

  it("a server refusal keeps its code in the flow's error", async () => {
    scripted.server.on("POST /api/v1/passkeys/authenticate/init", () => ({
      json: { options: REQUEST, relying_party: "localhost" },
    }));
    scripted.server.on("POST /api/v1/passkeys/authenticate", () => ({
      status: 401,
      json: { error: "Unknown passkey", code: "invalid_credentials" },
    }));
    webauthn.startAuthentication.mockImplementationOnce(async () => assertion("dW5rbm93bg"));
    const client = makeClient(scripted.server);
    await expect(loginWithPasskey(client)).rejects.toMatchObject({ code: "invalid_credentials" });
    expect(client.store.getState().passkeyFlow.status).toBe("error");
  });
});

describe("passkey link and unlink", () => {
  it("links a passkey with the bearer token and updates the user", async () => {
    const client = await signedIn(makeUser());
    scripted.server.on("POST /api/v1/passkeys/link/init", (hit) => {
      expect(hit.headers.authorization).toMatch(/^Bearer /);
      return { json: { options: CREATION, relying_party: "localhost" } };
    });
    scripted.server.on("POST /api/v1/passkeys/link", () => {
      scripted.app.user = {
        ...scripted.app.user,
        linked_accounts: [...scripted.app.user.linked_accounts, passkey("bmV3")],
      };
      return { json: scripted.app.user };
    });
    webauthn.startRegistration.mockImplementationOnce(async () => registration("bmV3"));
    const seen = statuses(client);
    const { user } = await linkWithPasskey(client);
    expect(seen).toEqual(["generating-challenge", "awaiting-passkey", "submitting-response", "done"]);
    expect(user.linked_accounts.some((a) => a.type === "passkey")).toBe(true);
    expect(client.store.getState().user?.linked_accounts).toHaveLength(2);
  });

  it("refuses a sixth passkey locally: 'Cannot link more passkeys to account.'", async () => {
    const five = ["a", "b", "c", "d", "e"].map((id) => passkey(id));
    const client = await signedIn(makeUser({ linked_accounts: five }));
    await expect(linkWithPasskey(client)).rejects.toThrow("Cannot link more passkeys to account.");
    expect(scripted.server.hitsOf("POST /api/v1/passkeys/link/init")).toHaveLength(0);
  });

  it("unlinks a passkey not in MFA through the host route", async () => {
    const client = await signedIn(makeUser({ linked_accounts: [passkey("a"), passkey("b")] }));
    scripted.server.on("POST /api/v1/passkeys/unlink", (hit) => {
      const { credential_id } = hit.body as { credential_id: string };
      scripted.app.user = {
        ...scripted.app.user,
        linked_accounts: scripted.app.user.linked_accounts.filter(
          (a) => !(a.type === "passkey" && a.credential_id === credential_id),
        ),
      };
      return { json: scripted.app.user };
    });
    await unlinkPasskey(client, "a");
    expect(scripted.server.hitsOf("POST /api/v1/passkeys/unlink")[0]?.body).toEqual({ credential_id: "a" });
    expect(client.store.getState().user?.linked_accounts.map((a) => a.type)).toEqual(["passkey"]);
  });

  it("refuses to unlink a passkey enrolled in MFA when shouldUnenrollMfaOnUnlink is off", async () => {
    const client = await signedIn(
      makeUser({ linked_accounts: [passkey("a", true)], mfa_methods: [{ type: "passkey", verified_at: 1 }] }),
      { passkeys: { shouldUnenrollMfaOnUnlink: false } },
    );
    await expect(unlinkPasskey(client, "a")).rejects.toThrow("Cannot unlink a passkey enrolled in MFA");
  });

  it("unlinks a passkey enrolled in MFA through the frame after MFA verification", async () => {
    const client = await signedIn(
      makeUser({
        linked_accounts: [passkey("a", true), passkey("b", true)],
        mfa_methods: [{ type: "passkey", verified_at: 1 }],
      }),
      { mfa: { noPromptOnMfaRequired: true } },
    );
    const frame = installFakeWalletFrame(client);
    const { registerMfaListener } = await import("../mfa/prompt.ts");
    const { submitMfa } = await import("../mfa/verification.ts");
    registerMfaListener(client, {
      onMfaRequired: () => void submitMfa(client, "passkey", { ...frameAssertion }),
    });
    const { user } = await unlinkPasskey(client, "a");
    expect(frame.events()).toEqual([
      "privy:auth:unlink-passkey",
      "privy:mfa:verify",
      "privy:auth:unlink-passkey",
    ]);
    const request = frame.received.find((r) => r.event === "privy:auth:unlink-passkey");
    expect(request?.data).toMatchObject({ credentialId: "a", removeAsMfa: true });
    expect(user.linked_accounts.map((a) => (a.type === "passkey" ? a.credential_id : a.type))).toEqual(["b"]);
    expect(client.store.getState().user).toEqual(user);
  });
});

const frameAssertion = {
  id: "YQ",
  raw_id: "YQ",
  response: { client_data_json: "Y2Rq", authenticator_data: "YWQ", signature: "c2ln" },
  client_extension_results: {},
  type: "public-key",
};
