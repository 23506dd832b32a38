import { makeUser, type ScriptOptions, scriptApp, startScriptedServer } from "@symbolon/core/testing";
import { act, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { PrivyProvider } from "../provider/PrivyProvider";
import { TEST_APP_ID } from "../test/startTestServer";
import type { LoginCompleteParams } from "./toLoginComplete";
import { useLoginWithFarcaster } from "./useLoginWithFarcaster";
import { useLoginWithTelegram } from "./useLoginWithTelegram";
import { usePrivy } from "./usePrivy";

const BOT = { bot_id: "7000001", bot_name: "bot", seamless_auth_enabled: false, link_enabled: true };

async function setup(config: NonNullable<ScriptOptions["config"]> = {}) {
  const server = await startScriptedServer();
  onTestFinished(() => server.close());
  const app = scriptApp(server, { config, user: makeUser({ linked_accounts: [] }) });
  const completed: LoginCompleteParams[] = [];
  const errors: string[] = [];
  const wrapper = ({ children }: { children: ReactNode }) => (
    <PrivyProvider appId={TEST_APP_ID} apiUrl={server.url}>
      {children}
    </PrivyProvider>
  );
  const callbacks = {
    onComplete: (p: LoginCompleteParams) => completed.push(p),
    onError: (c: string) => errors.push(c),
  };
  const hook = renderHook(
    () => ({
      privy: usePrivy(),
      telegram: useLoginWithTelegram(callbacks),
      farcaster: useLoginWithFarcaster(callbacks),
    }),
    { wrapper },
  );
  await waitFor(() => expect(hook.result.current.privy.ready).toBe(true));
  return { server, app, hook, completed, errors };
}

describe("useLoginWithTelegram", () => {
  afterEach(() => {
    delete (window as { Telegram?: unknown }).Telegram;
  });

  it("goes initial → loading → done inside a Mini App and reports the telegram login", async () => {
    const { server, app, hook, completed } = await setup({ telegram_auth_config: BOT });
    server.on("POST /api/v1/telegram/authenticate", () => ({ json: app.issue({ is_new_user: true }) }));
    (window as { Telegram?: unknown }).Telegram = {
      WebApp: { initData: `auth_date=1&user=${encodeURIComponent('{"id":7}')}&hash=ab` },
    };
    expect(hook.result.current.telegram.state).toEqual({ status: "initial" });
    let pending: Promise<void> = Promise.resolve();
    act(() => {
      pending = hook.result.current.telegram.login();
    });
    expect(hook.result.current.telegram.state.status).toBe("loading");
    await act(() => pending);
    expect(hook.result.current.telegram.state).toEqual({ status: "done" });
    expect(hook.result.current.privy.authenticated).toBe(true);
    expect(completed[0]?.loginMethod).toBe("telegram");
    expect(completed[0]?.isNewUser).toBe(true);
  });

  it("without the app's bot, fails with 'Telegram was not initialized' and reports it", async () => {
    const { hook, errors } = await setup();
    await act(() =>
      expect(hook.result.current.telegram.login()).rejects.toThrow("Telegram was not initialized"),
    );
    expect(hook.result.current.telegram.state.status).toBe("error");
    expect(hook.result.current.telegram.state.error?.message).toBe("Telegram was not initialized");
    expect(errors).toEqual(["invalid_input"]);
  });
});

describe("useLoginWithFarcaster", () => {
  it("exposes the channel URL while waiting for approval, then signs in", async () => {
    const { server, app, hook, completed } = await setup();
    let approved = false;
    server.on("POST /api/v1/farcaster/init", () => ({
      json: { channel_token: "c1", connect_uri: "farcaster://connect?channelToken=c1", nonce: "n" },
    }));
    server.on("GET /api/v1/farcaster/status", () => ({
      json: approved
        ? { state: "completed", message: "m farcaster://fid/1001", signature: "0x1", fid: 1001 }
        : { state: "pending" },
    }));
    server.on("POST /api/v1/farcaster/authenticate", () => ({ json: app.issue() }));
    let pending: Promise<void> = Promise.resolve();
    act(() => {
      pending = hook.result.current.farcaster.login({ intervalMs: 20 });
    });
    await waitFor(() =>
      expect(hook.result.current.farcaster.state.url).toBe("farcaster://connect?channelToken=c1"),
    );
    expect(hook.result.current.farcaster.state.status).toBe("loading");
    approved = true;
    await act(() => pending);
    expect(hook.result.current.farcaster.state).toEqual({ status: "done" });
    expect(completed[0]?.loginMethod).toBe("farcaster");
  });
});
