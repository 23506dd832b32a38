import type { AuthenticationResponseJSON } from "@simplewebauthn/browser";
import { afterEach, describe, expect, it, vi } from "vitest";
import { exportWallet } from "../actions/exportWallet.ts";
import { logout } from "../actions/logout.ts";
import { signMessage } from "../actions/signMessage.ts";
import type { Client, ClientOptions } from "../client/createClient.ts";
import { MFA_CODE_WAIT_MS, type MfaMethodType, type User } from "../generated/protocol.ts";
import { FAKE_TOTP } from "../test/fakeMfa.ts";
import type { FakeWalletFrameOptions } from "../test/fakeWalletFrame.ts";
import { useScriptedApp, waitFor } from "../test/harness.ts";
import { signedInWalletClient } from "../test/walletHarness.ts";
import { embeddedWalletState } from "../wallet/embeddedWalletState.ts";
import { awaitVerification } from "./awaitVerification.ts";
import { initMfaEnrollment, submitMfaEnrollment, unenrollMfa } from "./enrollment.ts";
import {
  errorIndicatesMaxMfaRetries,
  errorIndicatesMfaTimeout,
  errorIndicatesMfaVerificationFailed,
} from "./mfaErrors.ts";
import { cancelMfa, closeMfaModal, promptMfa, registerMfaListener } from "./prompt.ts";
import { initMfa, submitMfa } from "./verification.ts";

const webauthn = vi.hoisted(() => ({
  startRegistration: vi.fn(),
  startAuthentication: vi.fn<() => Promise<AuthenticationResponseJSON>>(),
}));
vi.mock("@simplewebauthn/browser", () => webauthn);

const scripted = useScriptedApp();

afterEach(() => {
  vi.useRealTimers();
});

const withMfa = (user: User, methods: MfaMethodType[]): User => ({
  ...user,
  mfa_methods: methods.map((type) => ({ type, verified_at: 1 })),
});

/** A signed-in user with an embedded wallet and MFA `methods`; the fake frame guards signing. */
async function mfaClient(
  methods: MfaMethodType[] = ["totp", "sms"],
  setup: {
    options?: Partial<ClientOptions>;
    frame?: FakeWalletFrameOptions;
  } = {},
) {
  scripted.app.user = withMfa(scripted.app.user, methods);
  return signedInWalletClient(scripted, setup);
}

const pendingOf = (client: Client) => client.store.getState().mfaState.pending;

describe("wallet-operation MFA retry", () => {
  it("opens the modal's verify screen, then retries the signature after a good code", async () => {
    const { client, frame } = await mfaClient();
    const signing = signMessage(client, { message: "hello" });
    await waitFor(() => pendingOf(client) !== null);
    expect(client.store.getState().mfaState.modal).toBe("verify");
    expect(pendingOf(client)).toMatchObject({
      methods: ["totp", "sms"],
      attempt: 1,
      maxAttempts: 4,
      error: null,
    });
    await submitMfa(client, "totp", " 123456 ");
    const { signature } = await signing;
    expect(signature).toMatch(/^0x/);
    expect(frame.events().filter((e) => e !== "privy:wallets:connect")).toEqual([
      "privy:wallets:rpc",
      "privy:mfa:verify",
      "privy:wallets:rpc",
    ]);
    expect(frame.received.find((r) => r.event === "privy:mfa:verify")?.data).toMatchObject({
      method: "totp",
      mfaCode: "123456",
    });
    const { mfaState } = client.store.getState();
    expect(mfaState.pending).toBeNull();
    expect(mfaState.verification.status).toBe("verified");
    // The modal stays on its success screen until closed; closing after success changes nothing.
    closeMfaModal(client);
    expect(client.store.getState().mfaState.modal).toBeNull();
  });

  it("a modal that closes as soon as the store says verified does not cancel the verified operation", async () => {
    const { client } = await mfaClient();
    // What the modal controller does: close on "verified".
    const unsubscribe = client.store.subscribe(() => {
      const { verification, modal } = client.store.getState().mfaState;
      if (verification.status === "verified" && modal !== null) closeMfaModal(client);
    });
    const signing = signMessage(client, { message: "hello" });
    await waitFor(() => pendingOf(client) !== null);
    await submitMfa(client, "totp", "123456");
    await expect(signing).resolves.toHaveProperty("signature");
    unsubscribe();
  });

  it("a refused code is thrown to the caller and starts the next attempt", async () => {
    const { client } = await mfaClient();
    const signing = signMessage(client, { message: "hello" });
    await waitFor(() => pendingOf(client) !== null);
    await expect(submitMfa(client, "totp", "000000")).rejects.toThrow("The code you entered is not valid");
    expect(pendingOf(client)).toMatchObject({ attempt: 2 });
    expect(pendingOf(client)?.error?.message).toBe("The code you entered is not valid");
    await submitMfa(client, "totp", "123456");
    await expect(signing).resolves.toHaveProperty("signature");
  });

  it("fails with max attempts after 4 verifications that still do not get the operation through", async () => {
    const { client } = await mfaClient(["totp"], { frame: { mfa: { refuseTokens: true } } });
    const signing = signMessage(client, { message: "hello" });
    signing.catch(() => {});
    for (let attempt = 1; attempt <= 4; attempt++) {
      await waitFor(() => pendingOf(client)?.attempt === attempt);
      await submitMfa(client, "totp", "123456");
    }
    const error = await signing.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "mfa_verification_max_attempts_reached" });
    expect((error as Error).message).toBe("Max MFA verification attempts reached");
    expect(errorIndicatesMaxMfaRetries(error)).toBe(true);
  });

  it("fails with max attempts after 4 refused codes", async () => {
    const { client } = await mfaClient(["totp"]);
    const signing = signMessage(client, { message: "hello" });
    signing.catch(() => {});
    await waitFor(() => pendingOf(client) !== null);
    for (let i = 0; i < 4; i++) await expect(submitMfa(client, "totp", "999999")).rejects.toThrow();
    await expect(signing).rejects.toMatchObject({ code: "mfa_verification_max_attempts_reached" });
    expect(client.store.getState().mfaState.verification.status).toBe("error");
  });

  it("times out after MFA_CODE_WAIT_MS without a code: 'Timed out waiting for MFA code'", async () => {
    const { client } = await mfaClient(["totp"]);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const signing = signMessage(client, { message: "hello" });
    signing.catch(() => {});
    while (pendingOf(client) === null) await vi.advanceTimersByTimeAsync(10);
    const waitLeft = (pendingOf(client)?.deadline ?? 0) - Date.now();
    expect(waitLeft).toBeGreaterThan(MFA_CODE_WAIT_MS - 200);
    expect(waitLeft).toBeLessThanOrEqual(MFA_CODE_WAIT_MS);
    await vi.advanceTimersByTimeAsync(MFA_CODE_WAIT_MS - 1_000);
    expect(pendingOf(client)).not.toBeNull();
    await vi.advanceTimersByTimeAsync(1_000);
    const error = await signing.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "mfa_timeout", message: "Timed out waiting for MFA code" });
    expect(errorIndicatesMfaTimeout(error)).toBe(true);
    expect(pendingOf(client)).toBeNull();
  });

  it("a code wait ends at the overall deadline (MFA_OVERALL_TIMEOUT_MS) when that comes first", async () => {
    const { client } = await mfaClient(["totp"]);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const waiting = awaitVerification(client, { attempt: 3, overallDeadline: Date.now() + 1_000 });
    waiting.catch(() => {});
    expect((pendingOf(client)?.deadline ?? 0) - Date.now()).toBeLessThanOrEqual(1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(waiting).rejects.toMatchObject({ code: "mfa_timeout" });
  });

  it("cancel fails the operation with 'Canceled MFA verification.'", async () => {
    const { client, frame } = await mfaClient();
    const signing = signMessage(client, { message: "hello" });
    await waitFor(() => pendingOf(client) !== null);
    cancelMfa(client);
    await expect(signing).rejects.toThrow("Canceled MFA verification.");
    expect(frame.events().filter((e) => e === "privy:wallets:rpc")).toHaveLength(1);
    // Closing the modal before success cancels too.
    const again = signMessage(client, { message: "again" });
    await waitFor(() => pendingOf(client) !== null);
    closeMfaModal(client);
    await expect(again).rejects.toThrow("Canceled MFA verification.");
  });

  it("calls the registered listener with the methods instead of opening the modal", async () => {
    const { client } = await mfaClient(["sms", "passkey"]);
    const onMfaRequired = vi.fn();
    const unregister = registerMfaListener(client, { onMfaRequired });
    const signing = signMessage(client, { message: "hello" });
    await waitFor(() => onMfaRequired.mock.calls.length === 1);
    expect(onMfaRequired).toHaveBeenCalledWith(["sms", "passkey"]);
    expect(client.store.getState().mfaState.modal).toBeNull();
    await submitMfa(client, "sms", "123456");
    await signing;
    unregister();
  });

  it("with noPromptOnMfaRequired nothing opens, the app can still submit", async () => {
    const { client } = await mfaClient(["totp"], { options: { mfa: { noPromptOnMfaRequired: true } } });
    const signing = signMessage(client, { message: "hello" });
    await waitFor(() => pendingOf(client) !== null);
    expect(client.store.getState().mfaState.modal).toBeNull();
    await submitMfa(client, "totp", "123456");
    await signing;
  });

  it("operations waiting at the same time share one verification", async () => {
    const { client, frame } = await mfaClient(["totp"], {
      frame: { mfa: { protect: ["privy:wallet:export"] } },
    });
    const container = {} as HTMLElement;
    const first = exportWallet(client, { address: frame.account(0).address, container });
    await waitFor(() => pendingOf(client) !== null);
    await submitMfa(client, "totp", "123456");
    await first.ready;
    expect(frame.events().filter((e) => e === "privy:wallet:export")).toHaveLength(2);
    first.close();
  });

  it("the background warm-up does not prompt when unlocking needs MFA; the first signature does", async () => {
    const { client, frame } = await mfaClient(["totp"], {
      frame: { mfa: { protect: ["privy:wallets:connect"] } },
    });
    await waitFor(() => frame.events().includes("privy:wallets:connect"));
    await new Promise((r) => setTimeout(r, 20));
    expect(client.store.getState().mfaState).toMatchObject({ pending: null, modal: null });
    expect(embeddedWalletState(client.store.getState())).toEqual({ status: "idle", error: null });
    const signing = signMessage(client, { message: "hello" });
    await waitFor(() => pendingOf(client) !== null);
    await submitMfa(client, "totp", "123456");
    await signing;
    expect(frame.events()).toEqual([
      "privy:wallets:connect",
      "privy:wallets:connect",
      "privy:mfa:verify",
      "privy:wallets:connect",
      "privy:wallets:rpc",
    ]);
  });

  it("the frame's lock-out (max attempts) ends the wait at once", async () => {
    const { client, frame } = await mfaClient(["totp"]);
    const signing = signMessage(client, { message: "hello" });
    signing.catch(() => {});
    await waitFor(() => pendingOf(client) !== null);
    frame.fail(
      "privy:mfa:verify",
      "mfa_verification_max_attempts_reached",
      "Max MFA verification attempts reached",
    );
    await expect(submitMfa(client, "totp", "123456")).rejects.toMatchObject({
      code: "mfa_verification_max_attempts_reached",
    });
    await expect(signing).rejects.toMatchObject({ code: "mfa_verification_max_attempts_reached" });
    expect(pendingOf(client)).toBeNull();
  });

  it("refuses malformed submissions: 'Invalid MFA code'", async () => {
    const { client } = await mfaClient();
    await expect(submitMfa(client, "totp", 123456 as unknown as string)).rejects.toThrow("Invalid MFA code");
    await expect(submitMfa(client, "passkey", "123456")).rejects.toThrow("Invalid MFA code");
  });

  it("an error that is no MFA refusal passes through", async () => {
    const { client, frame } = await mfaClient();
    frame.fail("privy:wallets:rpc", "embedded_wallet_request_error", "boom");
    await expect(signMessage(client, { message: "hi" })).rejects.toThrow("boom");
    expect(pendingOf(client)).toBeNull();
    expect(errorIndicatesMfaVerificationFailed(new Error("x"))).toBe(false);
  });

  it("promptMfa opens the verify screen and resolves once verified", async () => {
    const { client } = await mfaClient(["totp"]);
    registerMfaListener(client, { onMfaRequired: vi.fn() });
    const prompted = promptMfa(client);
    await waitFor(() => client.store.getState().mfaState.modal === "verify");
    await submitMfa(client, "totp", "123456");
    await prompted;
  });

  it("logout fails the waiting operation, clears the MFA state and tells the frame", async () => {
    const { client, frame } = await mfaClient();
    const signing = signMessage(client, { message: "hello" });
    signing.catch(() => {});
    await waitFor(() => pendingOf(client) !== null);
    await logout(client);
    await expect(signing).rejects.toMatchObject({ code: "attempted_rpc_call_before_logged_in" });
    expect(client.store.getState().mfaState).toMatchObject({ pending: null, modal: null });
    await waitFor(() => frame.events().includes("privy:mfa:clear"));
  });
});

describe("MFA init", () => {
  it("SMS sends the code with action 'verify'", async () => {
    const { client } = await mfaClient(["sms"]);
    scripted.server.on("POST /api/v1/mfa/passwordless_sms/init", () => ({ json: { success: true } }));
    await initMfa(client, "sms");
    const hit = scripted.server.hitsOf("POST /api/v1/mfa/passwordless_sms/init")[0];
    expect(hit?.body).toEqual({ action: "verify" });
    expect(hit?.headers.authorization).toMatch(/^Bearer /);
    expect(client.store.getState().mfaState.verification).toMatchObject({
      status: "awaiting-code",
      method: "sms",
    });
  });

  it("passkey fetches the options, runs the prompt and answers the wire assertion", async () => {
    const { client } = await mfaClient(["passkey"]);
    scripted.server.on("POST /api/v1/mfa/passkeys/init", () => ({
      json: {
        options: {
          challenge: "bWZh",
          timeout: 60_000,
          rp_id: "localhost",
          allow_credentials: [{ id: "YQ", type: "public-key" }],
          user_verification: "required",
        },
      },
    }));
    webauthn.startAuthentication.mockImplementationOnce(async () => ({
      id: "YQ",
      rawId: "YQ",
      response: { clientDataJSON: "Y2Rq", authenticatorData: "YWQ", signature: "c2ln" },
      clientExtensionResults: {},
      type: "public-key",
    }));
    const assertion = await initMfa(client, "passkey");
    expect(assertion).toMatchObject({ raw_id: "YQ", response: { client_data_json: "Y2Rq" } });
    expect(webauthn.startAuthentication.mock.calls[0]).toMatchObject([
      { optionsJSON: { rpId: "localhost", allowCredentials: [{ id: "YQ", type: "public-key" }] } },
    ]);
  });
});

describe("MFA enrolment", () => {
  it("enrols TOTP: init answers the secret, submit updates the user", async () => {
    const { client, frame } = await signedInWalletClient(scripted);
    const totp = await initMfaEnrollment(client, { method: "totp" });
    expect(totp).toEqual(FAKE_TOTP);
    expect(client.store.getState().mfaState.enrollment).toMatchObject({
      status: "awaiting-code",
      totp: FAKE_TOTP,
    });
    const user = await submitMfaEnrollment(client, { method: "totp", mfaCode: "123456" });
    expect(user.mfa_methods.map((m) => m.type)).toEqual(["totp"]);
    expect(client.store.getState().user?.mfa_methods.map((m) => m.type)).toEqual(["totp"]);
    expect(client.store.getState().mfaState.enrollment.status).toBe("done");
    expect(frame.received.find((r) => r.event === "privy:mfa:submit-enrollment")?.data).toMatchObject({
      method: "totp",
      mfaCode: "123456",
    });
  });

  it("a second method asks for verification first, then enrols SMS", async () => {
    const { client } = await mfaClient(["totp"]);
    await initMfaEnrollment(client, { method: "sms", phoneNumber: "+12015550123" });
    const enrolling = submitMfaEnrollment(client, {
      method: "sms",
      phoneNumber: "+12015550123",
      mfaCode: "123456",
    });
    await waitFor(() => pendingOf(client) !== null);
    await submitMfa(client, "totp", "123456");
    const user = await enrolling;
    expect(user.mfa_methods.map((m) => m.type)).toEqual(["totp", "sms"]);
  });

  it("unenrols after verification; passkeys are unlinked too by default", async () => {
    const { client } = await mfaClient(["passkey"]);
    client.store.setState({
      user: {
        ...(client.store.getState().user as User),
        linked_accounts: [
          ...(client.store.getState().user as User).linked_accounts,
          {
            type: "passkey",
            credential_id: "YQ",
            authenticator_name: null,
            created_with_browser: null,
            created_with_os: null,
            created_with_device: null,
            enrolled_in_mfa: true,
            verified_at: 1,
            first_verified_at: 1,
            latest_verified_at: 1,
          },
        ],
      },
    });
    const removing = unenrollMfa(client, "passkey");
    await waitFor(() => pendingOf(client) !== null);
    await submitMfa(client, "passkey", { id: "YQ" } as never);
    const user = await removing;
    expect(user.mfa_methods).toEqual([]);
    expect(user.linked_accounts.some((a) => a.type === "passkey")).toBe(false);
  });

  it("with shouldUnlinkOnUnenrollMfa off, passkeys stay linked (removeForLogin false)", async () => {
    const { client, frame } = await mfaClient(["passkey"], {
      options: { passkeys: { shouldUnlinkOnUnenrollMfa: false } },
    });
    const removing = unenrollMfa(client, "passkey");
    await waitFor(() => pendingOf(client) !== null);
    await submitMfa(client, "passkey", { id: "YQ" } as never);
    await removing;
    const request = frame.received.filter((r) => r.event === "privy:mfa:unenroll").at(-1);
    expect(request?.data).toMatchObject({ method: "passkey", removeForLogin: false });
  });

  it("needs a signed-in user: 'Must have valid access token to enroll in MFA'", async () => {
    const { client } = await signedInWalletClient(scripted, { signedIn: false, withWallet: false });
    await expect(initMfaEnrollment(client, { method: "totp" })).rejects.toThrow(
      "Must have valid access token to enroll in MFA",
    );
  });
});
