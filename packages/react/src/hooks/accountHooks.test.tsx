import { GOOD_CODE, scriptApp, startScriptedServer } from "@symbolon/core/testing";
import { act, renderHook, waitFor } from "@testing-library/react";
import { type ReactNode, StrictMode } from "react";
import { describe, expect, it, onTestFinished } from "vitest";
import { getAccessToken as moduleGetAccessToken } from "../index";
import type { CustomAuthConfig, PrivyConfig } from "../provider/PrivyConfig";
import { PrivyProvider } from "../provider/PrivyProvider";
import { TEST_APP_ID } from "../test/startTestServer";
import type { LoginCompleteParams } from "./toLoginComplete";
import { useCustomAuth } from "./useCustomAuth";
import { useGuestAccounts } from "./useGuestAccounts";
import { useLoginWithSms } from "./useLoginWithSms";
import { useModalStatus } from "./useModalStatus";
import { usePrivy } from "./usePrivy";
import { useToken } from "./useToken";
import { useUser } from "./useUser";

async function setup(customAuth?: CustomAuthConfig, { strict = false } = {}) {
  const server = await startScriptedServer();
  onTestFinished(() => server.close());
  scriptApp(server, { config: { custom_jwt_auth: customAuth !== undefined, sms_auth: true } });
  const completed: LoginCompleteParams[] = [];
  const errors: string[] = [];
  // PrivyConfig does not declare customAuth yet; the provider passes config through whole.
  const config = (customAuth ? { customAuth } : {}) as PrivyConfig;
  const provider = (children: ReactNode) => (
    <PrivyProvider appId={TEST_APP_ID} apiUrl={server.url} config={config}>
      {children}
    </PrivyProvider>
  );
  // StrictMode runs every effect twice, as host apps do in development.
  const wrapper = ({ children }: { children: ReactNode }) =>
    strict ? <StrictMode>{provider(children)}</StrictMode> : provider(children);
  const hook = renderHook(
    () => ({
      privy: usePrivy(),
      sms: useLoginWithSms({ onComplete: (p) => completed.push(p), onError: (c) => errors.push(c) }),
      guest: useGuestAccounts(),
      user: useUser(),
      token: useToken(),
      modal: useModalStatus(),
      custom: useCustomAuth(),
    }),
    { wrapper },
  );
  await waitFor(() => expect(hook.result.current.privy.ready).toBe(true));
  return { server, hook, completed, errors, current: () => hook.result.current };
}

describe("account hooks", () => {
  it("useLoginWithSms sends a code to the number in E.164, refuses a wrong code, then signs in", async () => {
    const { server, current, completed, errors } = await setup();
    expect(current().sms.state).toEqual({ status: "initial" });
    await act(() => current().sms.sendCode({ phoneNumber: "+1 201 555 0123" }));
    expect(server.hitsOf("POST /api/v1/passwordless_sms/init")[0]?.body).toEqual({
      phoneNumber: "+12015550123",
    });
    expect(current().sms.state).toEqual({ status: "awaiting-code-input" });
    await act(() => expect(current().sms.loginWithCode({ code: "000000" })).rejects.toThrow());
    expect(errors).toEqual(["invalid_credentials"]);
    await act(() => current().sms.loginWithCode({ code: GOOD_CODE }));
    expect(current().sms.state).toEqual({ status: "done" });
    expect(completed[0]).toMatchObject({
      loginMethod: "sms",
      loginAccount: { type: "phone", number: "+12015550123" },
    });
    expect(current().privy.user?.phone).toEqual({ number: "+12015550123" });
  });

  it("useUser: unlinking the last account rejects with the server's message; refreshUser refetches", async () => {
    const { current } = await setup();
    await act(() => current().sms.sendCode({ phoneNumber: "+12015550123" }));
    await act(() => current().sms.loginWithCode({ code: GOOD_CODE }));
    await act(() =>
      expect(current().user.unlinkPhone("+12015550123")).rejects.toThrow(
        "Cannot unlink the only account of a user.",
      ),
    );
    const refreshed = await act(() => current().user.refreshUser());
    expect(refreshed?.phone?.number).toBe("+12015550123");
    expect(current().user.user?.id).toBe(refreshed?.id);
  });

  it("useGuestAccounts signs in a guest; useToken and the module-level getAccessToken give its token", async () => {
    const { current } = await setup();
    expect(await current().token.getAccessToken()).toBeNull();
    const user = await act(() => current().guest.createGuestAccount());
    expect(user.isGuest).toBe(true);
    expect(current().privy.authenticated).toBe(true);
    const token = await current().token.getAccessToken();
    expect(token).toMatch(/\./);
    expect(await moduleGetAccessToken()).toBe(token);
    expect(await current().token.getIdentityToken()).toMatch(/\./);
  });

  it("useModalStatus follows the modal; usePrivy.linkEmail opens the link flow after the spec §5 checks", async () => {
    const { current } = await setup();
    expect(() => current().privy.linkEmail()).toThrow(
      "User must be authenticated before linking an account.",
    );
    await act(() => current().guest.createGuestAccount());
    expect(() => current().privy.updatePhone()).toThrow(
      "User is required to have an phone number to update it.",
    );
    expect(current().modal.isOpen).toBe(false);
    act(() => current().privy.linkEmail());
    await waitFor(() => expect(current().modal.isOpen).toBe(true));
  });

  it("useCustomAuth signs in with the host's token from config.customAuth", async () => {
    const { server, current } = await setup({
      getCustomAccessToken: async () => "host-user-7",
      isLoading: false,
    });
    await waitFor(() => expect(current().custom.status).toBe("done"));
    expect(server.hitsOf("POST /api/v1/custom_jwt_account/authenticate")[0]?.body).toEqual({
      token: "host-user-7",
    });
    expect(current().privy.user?.customAuth).toEqual({ customUserId: "host-user-7" });
  });

  it("useCustomAuth under StrictMode signs in once and stays signed in", async () => {
    const { server, current } = await setup(
      { getCustomAccessToken: async () => "host-user-8", isLoading: false },
      { strict: true },
    );
    await waitFor(() => expect(current().custom.status).toBe("done"));
    expect(server.hitsOf("POST /api/v1/custom_jwt_account/authenticate")).toHaveLength(1);
    expect(server.hitsOf("POST /api/v1/sessions/logout")).toHaveLength(0);
    expect(current().privy.authenticated).toBe(true);
  });

  it("useCustomAuth is not-enabled without config.customAuth", async () => {
    const { current } = await setup();
    expect(current().custom.status).toBe("not-enabled");
  });
});
