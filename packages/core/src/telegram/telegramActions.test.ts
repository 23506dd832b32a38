import { afterEach, describe, expect, it } from "vitest";
import { initialize } from "../actions/initialize.ts";
import { linkTelegram } from "../actions/linkTelegram.ts";
import { loginWithEmailCode } from "../actions/loginWithEmailCode.ts";
import { loginWithTelegram } from "../actions/loginWithTelegram.ts";
import { seamlessTelegramLogin } from "../actions/seamlessTelegramLogin.ts";
import { makeUser } from "../test/fixtures.ts";
import { makeClient, useScriptedApp } from "../test/harness.ts";
import { TELEGRAM_INVALID_LAUNCH_PARAMS_MESSAGE, TELEGRAM_NOT_INITIALIZED_MESSAGE } from "./telegramProof.ts";

const scripted = useScriptedApp();
const BOT = { bot_id: "7000001", bot_name: "bot", seamless_auth_enabled: true, link_enabled: true };
const raw = `auth_date=1800000000&user=${encodeURIComponent('{"id":7}')}&hash=abc`;

describe("Telegram actions", () => {
  afterEach(() => {
    delete (globalThis as { Telegram?: unknown }).Telegram;
  });

  it("refuse with 'Telegram was not initialized' when the app has no bot", async () => {
    const client = makeClient(scripted.server);
    await initialize(client);
    await expect(loginWithTelegram(client)).rejects.toThrow(TELEGRAM_NOT_INITIALIZED_MESSAGE);
  });

  it("inside a Mini App, log in with its initData fields (no popup)", async () => {
    await scripted.restart({ config: { telegram_auth_config: BOT } });
    scripted.app.user = makeUser({ linked_accounts: [] });
    scripted.server.on("POST /api/v1/telegram/authenticate", () => ({ json: scripted.app.issue() }));
    (globalThis as { Telegram?: unknown }).Telegram = { WebApp: { initData: raw } };
    const client = makeClient(scripted.server);
    await initialize(client);
    await loginWithTelegram(client, { mode: "no-signup" });
    expect(scripted.server.hitsOf("POST /api/v1/telegram/authenticate")[0]?.body).toEqual({
      telegram_web_app_data: { auth_date: "1800000000", user: '{"id":7}', hash: "abc" },
      mode: "no-signup",
    });
  });

  it("link with launch parameters needs initDataRaw (spec §5), and sends it when given", async () => {
    await scripted.restart({ config: { telegram_auth_config: BOT } });
    scripted.app.user = makeUser();
    scripted.server.on("POST /api/v1/telegram/link", () => ({ json: scripted.app.user }));
    const client = makeClient(scripted.server);
    await initialize(client);
    await loginWithEmailCode(client, { email: "ada@example.com", code: "123456" });
    await expect(linkTelegram(client, { launchParams: {} })).rejects.toThrow(
      TELEGRAM_INVALID_LAUNCH_PARAMS_MESSAGE,
    );
    expect(scripted.server.hitsOf("POST /api/v1/telegram/link")).toHaveLength(0);
    await linkTelegram(client, { launchParams: { initDataRaw: raw } });
    expect(scripted.server.hitsOf("POST /api/v1/telegram/link")[0]?.body).toEqual({
      telegram_web_app_data: { auth_date: "1800000000", user: '{"id":7}', hash: "abc" },
    });
  });
});

describe("seamless Telegram login", () => {
  afterEach(() => {
    delete (globalThis as { Telegram?: unknown }).Telegram;
  });

  it("signs in from initData on ready only inside a Mini App of an app that enables it", async () => {
    await scripted.restart({ config: { telegram_auth_config: BOT } });
    scripted.app.user = makeUser({ linked_accounts: [] });
    scripted.server.on("POST /api/v1/telegram/authenticate", () => ({ json: scripted.app.issue() }));
    const outside = makeClient(scripted.server);
    await initialize(outside);
    expect(await seamlessTelegramLogin(outside)).toBeNull();
    (globalThis as { Telegram?: unknown }).Telegram = { WebApp: { initData: raw } };
    const inside = makeClient(scripted.server);
    await initialize(inside);
    expect((await seamlessTelegramLogin(inside))?.wasAlreadyAuthenticated).toBe(false);
    expect(scripted.server.hitsOf("POST /api/v1/telegram/authenticate")).toHaveLength(1);
    // Signed in now: nothing more happens.
    expect(await seamlessTelegramLogin(inside)).toBeNull();
  });
});
