import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/browser";
import type { PasskeyAccount, PasskeyCreationOptions, PasskeyRequestOptions, User } from "@symbolon/core";
import {
  embeddedWalletAccount,
  GOOD_CODE,
  installFakeWalletFrame,
  makeUser,
  scriptApp,
  startScriptedServer,
} from "@symbolon/core/testing";
import { act, renderHook, waitFor } from "@testing-library/react";
import { type ReactNode, useContext } from "react";
import { english, generateMnemonic, mnemonicToAccount } from "viem/accounts";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { errorIndicatesMfaVerificationFailed } from "../index";
import type { PrivyConfig } from "../provider/PrivyConfig";
import { PrivyContext } from "../provider/PrivyContext";
import { PrivyProvider } from "../provider/PrivyProvider";
import { TEST_APP_ID } from "../test/startTestServer";
import type { LoginCompleteParams } from "./toLoginComplete";
import { useLinkWithPasskey } from "./useLinkWithPasskey";
import { useLoginWithEmail } from "./useLoginWithEmail";
import { useLoginWithPasskey } from "./useLoginWithPasskey";
import { useMfa } from "./useMfa";
import { useMfaEnrollment } from "./useMfaEnrollment";
import { useRegisterMfaListener } from "./useRegisterMfaListener";
import { useSignMessage } from "./useSignMessage";
import { useSignupWithPasskey } from "./useSignupWithPasskey";

// The browser's WebAuthn behind @simplewebauthn/browser is the only stand-in.
const webauthn = vi.hoisted(() => ({
  startRegistration: vi.fn<() => Promise<RegistrationResponseJSON>>(),
  startAuthentication: vi.fn<() => Promise<AuthenticationResponseJSON>>(),
}));
vi.mock("@simplewebauthn/browser", () => webauthn);

const REQUEST: PasskeyRequestOptions = {
  challenge: "YXV0aA",
  timeout: 60_000,
  rp_id: "localhost",
  allow_credentials: [],
  user_verification: "required",
};
const CREATION: PasskeyCreationOptions = {
  rp: { id: "localhost", name: "Test app" },
  user: { id: "dXNlcg", name: "ada", display_name: "ada" },
  challenge: "cmVn",
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
const passkey = (id: string): { type: "passkey" } & PasskeyAccount => ({
  type: "passkey",
  credential_id: id,
  authenticator_name: "iCloud Keychain",
  created_with_browser: "Safari",
  created_with_os: "macOS",
  created_with_device: null,
  enrolled_in_mfa: false,
  verified_at: 1,
  first_verified_at: 1,
  latest_verified_at: 1,
});
const registration = (id: string): RegistrationResponseJSON => ({
  id,
  rawId: id,
  response: { clientDataJSON: "Y2Rq", attestationObject: "YW8" },
  clientExtensionResults: {},
  type: "public-key",
});

async function setup(user: User, config: PrivyConfig = {}) {
  const server = await startScriptedServer();
  onTestFinished(() => server.close());
  const app = scriptApp(server, { user });
  const completed: LoginCompleteParams[] = [];
  const errors: string[] = [];
  const required: string[][] = [];
  const callbacks = {
    onComplete: (p: LoginCompleteParams) => completed.push(p),
    onError: (c: string) => errors.push(c),
  };
  const wrapper = ({ children }: { children: ReactNode }) => (
    <PrivyProvider appId={TEST_APP_ID} apiUrl={server.url} config={config}>
      {children}
    </PrivyProvider>
  );
  const hook = renderHook(
    () => {
      useRegisterMfaListener({ onMfaRequired: (methods) => required.push(methods) });
      return {
        context: useContext(PrivyContext),
        email: useLoginWithEmail(),
        login: useLoginWithPasskey(callbacks),
        signup: useSignupWithPasskey(callbacks),
        link: useLinkWithPasskey({ onError: (c) => errors.push(c) }),
        mfa: useMfa(),
        enrollment: useMfaEnrollment(),
        sign: useSignMessage(),
      };
    },
    { wrapper },
  );
  await waitFor(() => expect(hook.result.current.context?.client?.store.getState().ready).toBe(true));
  const emailLogin = async () => {
    await act(() => hook.result.current.email.sendCode({ email: "ada@example.com" }));
    await act(() => hook.result.current.email.loginWithCode({ code: GOOD_CODE }));
  };
  return { server, app, hook, completed, errors, required, emailLogin, current: () => hook.result.current };
}

describe("passkey hooks", () => {
  it("useLoginWithPasskey moves through the passkey flow and reports a passkey login", async () => {
    const { server, app, current, completed } = await setup(makeUser({ linked_accounts: [passkey("YQ")] }));
    server.on("POST /api/v1/passkeys/authenticate/init", () => ({
      json: { options: REQUEST, relying_party: "localhost" },
    }));
    server.on("POST /api/v1/passkeys/authenticate", () => ({ json: app.issue() }));
    let release!: () => void;
    webauthn.startAuthentication.mockImplementationOnce(
      () =>
        new Promise((resolve) => {
          release = () =>
            resolve({
              id: "YQ",
              rawId: "YQ",
              response: { clientDataJSON: "Y2Rq", authenticatorData: "YWQ", signature: "c2ln" },
              clientExtensionResults: {},
              type: "public-key",
            });
        }),
    );
    expect(current().login.state.status).toBe("initial");
    let pending: Promise<unknown> = Promise.resolve();
    act(() => {
      pending = current().login.loginWithPasskey();
    });
    await waitFor(() => expect(current().login.state.status).toBe("awaiting-passkey"));
    release();
    await act(() => pending);
    expect(current().login.state).toEqual({ status: "done", intent: "login", error: null });
    expect(current().signup.state.status).toBe("initial");
    expect(completed[0]).toMatchObject({
      loginMethod: "passkey",
      loginAccount: { type: "passkey", credentialId: "YQ" },
    });
  });

  it("useSignupWithPasskey reports a dismissed prompt through onError and its state", async () => {
    const { server, current, errors } = await setup(makeUser());
    server.on("POST /api/v1/passkeys/register/init", () => ({
      json: { options: CREATION, relying_party: "localhost" },
    }));
    webauthn.startRegistration.mockImplementationOnce(async () => {
      throw Object.assign(new Error("no"), { name: "NotAllowedError" });
    });
    await act(() =>
      expect(current().signup.signupWithPasskey()).rejects.toThrow(
        "Passkey request timed out or rejected by user.",
      ),
    );
    expect(current().signup.state.status).toBe("error");
    expect(current().signup.state.error?.message).toBe("Passkey request timed out or rejected by user.");
    expect(errors).toEqual(["passkey_rejected"]);
  });

  it("useLinkWithPasskey links a passkey and resolves with the user in client form", async () => {
    const { server, app, current, emailLogin } = await setup(makeUser());
    await emailLogin();
    server.on("POST /api/v1/passkeys/link/init", () => ({
      json: { options: CREATION, relying_party: "localhost" },
    }));
    server.on("POST /api/v1/passkeys/link", () => {
      app.user = { ...app.user, linked_accounts: [...app.user.linked_accounts, passkey("bmV3")] };
      return { json: app.user };
    });
    webauthn.startRegistration.mockImplementationOnce(async () => registration("bmV3"));
    const user = await act(() => current().link.linkWithPasskey());
    expect(user.linkedAccounts.map((a) => a.type)).toEqual(["email", "passkey"]);
    expect(current().link.state.status).toBe("done");
  });
});

describe("useLinkWithPasskey refusals", () => {
  it("a sixth passkey is refused before any request and reported as cannot_link_more_of_type", async () => {
    const five = ["a", "b", "c", "d", "e"].map(passkey);
    const { server, app, current, errors, emailLogin } = await setup(makeUser());
    server.on("POST /api/v1/passwordless/authenticate", () => {
      app.user = { ...app.user, linked_accounts: [...app.user.linked_accounts, ...five] };
      return { json: app.issue() };
    });
    await emailLogin();
    await act(() =>
      expect(current().link.linkWithPasskey()).rejects.toThrow("Cannot link more passkeys to account."),
    );
    expect(errors).toEqual(["cannot_link_more_of_type"]);
    expect(server.hitsOf("POST /api/v1/passkeys/link/init")).toHaveLength(0);
  });
});

describe("MFA hooks", () => {
  async function mfaSetup() {
    const mnemonic = generateMnemonic(english);
    const address = mnemonicToAccount(mnemonic, { addressIndex: 0 }).address;
    const base = makeUser();
    const user: User = {
      ...base,
      linked_accounts: [...base.linked_accounts, embeddedWalletAccount(address, 0)],
      mfa_methods: [{ type: "totp", verified_at: 1 }],
    };
    const ctx = await setup(user, { embeddedWallets: { showWalletUIs: false } });
    const client = ctx.current().context?.client;
    if (!client) throw new Error("no client");
    const frame = installFakeWalletFrame(client, { mnemonic });
    // The code signs in the user as scripted (wallet and MFA kept).
    ctx.server.on("POST /api/v1/passwordless/authenticate", () => ({ json: ctx.app.issue() }));
    await ctx.emailLogin();
    return { ...ctx, frame, client };
  }

  it("useRegisterMfaListener hears the methods; useMfa().submit lets the signature go on", async () => {
    const { current, required, frame } = await mfaSetup();
    expect(current().mfa.mfaMethods).toEqual(["totp"]);
    let signing: Promise<{ signature: string }> = Promise.resolve({ signature: "" });
    act(() => {
      signing = current().sign.signMessage({ message: "hello" });
    });
    await waitFor(() => expect(required).toEqual([["totp"]]));
    expect(current().mfa.state.pending?.attempt).toBe(1);
    await act(() => current().mfa.submit("totp", GOOD_CODE));
    await expect(signing).resolves.toMatchObject({ signature: expect.stringMatching(/^0x/) });
    expect(frame.events()).toContain("privy:mfa:verify");
  });

  it("useMfa().cancel fails the waiting operation with 'Canceled MFA verification.'", async () => {
    const { current, required } = await mfaSetup();
    let signing: Promise<unknown> = Promise.resolve();
    act(() => {
      signing = current().sign.signMessage({ message: "hello" });
      signing.catch(() => {});
    });
    await waitFor(() => expect(required).toHaveLength(1));
    act(() => current().mfa.cancel());
    await expect(signing).rejects.toThrow("Canceled MFA verification.");
    await act(async () => {
      await expect(current().mfa.submit("totp", "000000")).rejects.toSatisfy(
        errorIndicatesMfaVerificationFailed,
      );
    });
  });

  it("useMfaEnrollment enrols TOTP and opens the enrolment modal", async () => {
    const { current } = await mfaSetup();
    const { client } = current().context ?? {};
    const totp = await act(() => current().enrollment.initEnrollmentWithTotp());
    expect(totp.authUrl).toMatch(/^otpauth:\/\/totp\//);
    // Already enrolled in TOTP: the frame asks for verification first (the listener hears it).
    let enrolling: Promise<unknown> = Promise.resolve();
    act(() => {
      enrolling = current().enrollment.submitEnrollmentWithTotp({ mfaCode: GOOD_CODE });
    });
    await waitFor(() => expect(current().mfa.state.pending).not.toBeNull());
    await act(() => current().mfa.submit("totp", GOOD_CODE));
    await act(() => enrolling);
    expect(current().enrollment.mfaMethods).toEqual(["totp"]);
    act(() => current().enrollment.showMfaEnrollmentModal());
    expect(client?.store.getState().mfaState.modal).toBe("enroll");
  });
});
