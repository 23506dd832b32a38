import { act, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it, onTestFinished } from "vitest";
import { PrivyProvider } from "../provider/PrivyProvider";
import { GOOD_CODE, startTestServer, TEST_APP_ID } from "../test/startTestServer";
import type { LoginCompleteParams } from "./toLoginComplete";
import { useIdentityToken } from "./useIdentityToken";
import { useLoginWithEmail } from "./useLoginWithEmail";
import { useLogout } from "./useLogout";
import { usePrivy } from "./usePrivy";

async function setup() {
  const server = await startTestServer();
  onTestFinished(() => server.close());
  const completed: LoginCompleteParams[] = [];
  const errors: string[] = [];
  let loggedOut = 0;
  const wrapper = ({ children }: { children: ReactNode }) => (
    <PrivyProvider appId={TEST_APP_ID} apiUrl={server.url}>
      {children}
    </PrivyProvider>
  );
  const hook = renderHook(
    () => ({
      privy: usePrivy(),
      email: useLoginWithEmail({
        onComplete: (params) => completed.push(params),
        onError: (code) => errors.push(code),
      }),
      identity: useIdentityToken(),
      logout: useLogout({ onSuccess: () => loggedOut++ }),
    }),
    { wrapper },
  );
  await waitFor(() => expect(hook.result.current.privy.ready).toBe(true));
  return { server, hook, completed, errors, loggedOut: () => loggedOut };
}

describe("headless email login hooks", () => {
  it("sends a code, refuses a wrong one with its code, then signs in", async () => {
    const { server, hook, completed, errors } = await setup();
    const current = () => hook.result.current;
    expect(current().email.state).toEqual({ status: "initial" });
    expect(current().privy.authenticated).toBe(false);
    expect(await current().privy.getAccessToken()).toBeNull();

    await act(() => current().email.sendCode({ email: "ada@example.com" }));
    expect(server.sentTo).toEqual(["ada@example.com"]);
    expect(current().email.state).toEqual({ status: "awaiting-code-input" });

    await act(() => expect(current().email.loginWithCode({ code: "000000" })).rejects.toThrow());
    expect(errors).toEqual(["invalid_credentials"]);
    expect(current().email.state.status).toBe("error");
    expect(current().email.state.error).toBeInstanceOf(Error);

    await act(() => current().email.loginWithCode({ code: ` ${GOOD_CODE} ` }));
    expect(current().email.state).toEqual({ status: "done" });
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({
      isNewUser: true,
      wasAlreadyAuthenticated: false,
      loginMethod: "email",
      loginAccount: { type: "email", address: "ada@example.com" },
    });
    expect(current().privy.authenticated).toBe(true);
    expect(current().privy.user?.email?.address).toBe("ada@example.com");
    expect(current().privy.user?.createdAt).toBeInstanceOf(Date);
    expect(current().identity.identityToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(await current().privy.getAccessToken()).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it("reports an invalid address to onError without calling the server", async () => {
    const { server, hook, errors } = await setup();
    await act(() =>
      expect(hook.result.current.email.sendCode({ email: "not-an-email" })).rejects.toThrow(
        "Please enter a valid email address.",
      ),
    );
    expect(errors).toEqual(["invalid_input"]);
    expect(server.sentTo).toEqual([]);
  });

  it("is still signed in after a reload (a new provider over the same storage)", async () => {
    const { server, hook } = await setup();
    await act(() => hook.result.current.email.sendCode({ email: "ada@example.com" }));
    await act(() => hook.result.current.email.loginWithCode({ code: GOOD_CODE }));
    hook.unmount();
    const reloaded = renderHook(() => usePrivy(), {
      wrapper: ({ children }: { children: ReactNode }) => (
        <PrivyProvider appId={TEST_APP_ID} apiUrl={server.url}>
          {children}
        </PrivyProvider>
      ),
    });
    expect(reloaded.result.current.ready).toBe(false);
    await waitFor(() => expect(reloaded.result.current.ready).toBe(true));
    expect(reloaded.result.current.authenticated).toBe(true);
    expect(reloaded.result.current.user?.email?.address).toBe("ada@example.com");
  });

  it("logs out and calls onSuccess", async () => {
    const { hook, loggedOut } = await setup();
    await act(() => hook.result.current.email.sendCode({ email: "ada@example.com" }));
    await act(() => hook.result.current.email.loginWithCode({ code: GOOD_CODE }));
    expect(hook.result.current.privy.authenticated).toBe(true);
    await act(() => hook.result.current.logout.logout());
    expect(loggedOut()).toBe(1);
    expect(hook.result.current.privy.authenticated).toBe(false);
    expect(hook.result.current.privy.user).toBeNull();
    expect(hook.result.current.identity.identityToken).toBeNull();
  });
});
