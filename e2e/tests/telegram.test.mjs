// Login with Telegram as a person meets it. Telegram cannot run here, so the test plays it with the stack's local
// bot: the Login Widget popup (https://oauth.telegram.org/auth) is answered by a page that posts a result the test
// signed with the bot's token — the widget's own `auth_result` message — and a Mini App is a page whose
// `window.Telegram.WebApp.initData` the test signed. The server checks both with the bot token.
import assert from "node:assert/strict";
import { signInitData, signWidgetResult, TELEGRAM_TEST_BOT } from "@symbolon/stack";
import { browserTest, sharedBrowser } from "../lib/browser.mjs";
import { expectSignedIn, expectSignedOut, logIn, uniqueEmail } from "../lib/flows.mjs";
import { useStack } from "../lib/stack.mjs";

const stack = useStack();
const step = sharedBrowser();
const telegramId = 7_000_000_000 + Math.floor(Math.random() * 1_000_000);
const username = `tg_${telegramId.toString(36)}`;

/** Answers the widget's popup with `html(url)` (later routes win over the browser's offline block). */
async function playTelegram(context, html) {
  await context.route("https://oauth.telegram.org/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: html(new URL(route.request().url())) }),
  );
}

/** The widget's answer: its `auth_result` message to the opener, as JSON text. */
const postsResult = (result) =>
  `<!doctype html><title>Telegram</title><script>
    window.opener.postMessage(${JSON.stringify(JSON.stringify({ event: "auth_result", result }))}, "*");
  </script>`;

async function openTelegram(page) {
  await page.getByRole("button", { name: "Log in" }).click();
  const dialog = page.getByRole("dialog", { name: "Log in or sign up" });
  await dialog.getByRole("button", { name: "More options" }).click();
  await dialog.getByRole("button", { name: "Telegram" }).click();
  return dialog;
}

step("the Login Widget's signed result signs a new Telegram user in", async ({ page, context }) => {
  const asked = [];
  await playTelegram(context, (url) => {
    asked.push(url);
    return postsResult(signWidgetResult({ id: telegramId, first_name: "Ada", username }));
  });
  await page.goto(stack.urls.web);
  const config = await (await fetch(`${stack.urls.api}/api/v1/apps/${stack.appId}`)).json();
  assert.deepEqual(config.telegram_auth_config, {
    bot_id: TELEGRAM_TEST_BOT.id,
    bot_name: TELEGRAM_TEST_BOT.name,
    seamless_auth_enabled: true,
    link_enabled: true,
  });
  assert.ok(!JSON.stringify(config).includes(TELEGRAM_TEST_BOT.token.split(":")[1]));
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/v1/telegram/authenticate"));
  const popup = context.waitForEvent("page");
  await openTelegram(page);
  await popup;
  const response = await answer;
  assert.equal(response.status(), 200);
  const body = await response.json();
  assert.equal(body.is_new_user, true);
  assert.equal(body.user.linked_accounts[0].type, "telegram");
  assert.equal(body.user.linked_accounts[0].telegram_user_id, String(telegramId));
  // The popup asked Telegram for the app's bot, on behalf of the app's origin, with write access.
  assert.equal(asked[0]?.searchParams.get("bot_id"), TELEGRAM_TEST_BOT.id);
  assert.equal(asked[0]?.searchParams.get("origin"), new URL(stack.urls.web).origin);
  assert.equal(asked[0]?.searchParams.get("request_access"), "write");
  await expectSignedIn(page, `@${username}`);
  await page.getByRole("button", { name: "Log out" }).click();
  await expectSignedOut(page);
});

step(
  "closing Telegram's window without signing in shows the spec's message and a retry",
  async ({ page, context }) => {
    await context.unroute("https://oauth.telegram.org/**");
    await playTelegram(
      context,
      () => "<!doctype html><title>Telegram</title><script>setTimeout(() => window.close(), 200)</script>",
    );
    const dialog = await openTelegram(page);
    await dialog.getByText("Telegram auth failed or was canceled by the client").waitFor();
    assert.equal(await dialog.getByRole("button", { name: "Try again" }).count(), 1);
    // A tampered result (another user id under the same hash) is refused by the server.
    await context.unroute("https://oauth.telegram.org/**");
    const signed = signWidgetResult({ id: telegramId, username });
    await playTelegram(context, () => postsResult({ ...signed, id: telegramId + 1 }));
    const answer = page.waitForResponse((r) => r.url().endsWith("/api/v1/telegram/authenticate"));
    await dialog.getByRole("button", { name: "Try again" }).click();
    const refused = await answer;
    assert.equal(refused.status(), 401);
    assert.equal((await refused.json()).code, "invalid_credentials");
    await dialog.getByRole("alert").waitFor();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expectSignedOut(page);
  },
);

step(
  "an email user links a Telegram account from the accounts card, then unlinks it",
  async ({ page, context }) => {
    const linkedId = telegramId + 1;
    const linkedName = `tg_link_${linkedId.toString(36)}`;
    await context.unroute("https://oauth.telegram.org/**");
    await playTelegram(context, () => postsResult(signWidgetResult({ id: linkedId, username: linkedName })));
    await logIn(page, stack, uniqueEmail("telegram-link"));
    const linked = page.waitForResponse((r) => r.url().endsWith("/api/v1/telegram/link"));
    await page.getByRole("button", { name: "Link Telegram" }).click();
    const response = await linked;
    assert.equal(response.status(), 200, await response.text());
    await page.getByRole("button", { name: `Unlink telegram @${linkedName}` }).click();
    await page.getByRole("button", { name: "Link Telegram" }).waitFor();
    await page.getByRole("button", { name: "Log out" }).click();
    await expectSignedOut(page);
  },
);

step(
  "a Telegram account linked to another user is moved with the transfer offer",
  async ({ page, context }) => {
    const movedId = telegramId + 2;
    const movedName = `tg_moved_${movedId.toString(36)}`;
    await context.unroute("https://oauth.telegram.org/**");
    await playTelegram(context, () => postsResult(signWidgetResult({ id: movedId, username: movedName })));
    const linkIt = async () => {
      const answer = page.waitForResponse((r) => r.url().endsWith("/api/v1/telegram/link"));
      await page.getByRole("button", { name: "Link Telegram" }).click();
      return answer;
    };
    await logIn(page, stack, uniqueEmail("telegram-first-owner"));
    assert.equal((await linkIt()).status(), 200);
    await page.getByRole("button", { name: `Unlink telegram @${movedName}` }).waitFor();
    await page.getByRole("button", { name: "Log out" }).click();
    await expectSignedOut(page);
    await logIn(page, stack, uniqueEmail("telegram-taker"));
    const refused = await linkIt();
    assert.equal((await refused.json()).code, "account_transfer_required");
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Transfer this Telegram account?" }).waitFor();
    // Cancelling the offer is the person's choice: the Accounts card says nothing, never the code (issue 20).
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.waitForTimeout(300);
    const accounts = page.getByRole("region", { name: "Accounts" });
    assert.equal(await accounts.getByRole("alert").count(), 0, (await accounts.textContent()) ?? "");
    const again = await linkIt();
    assert.equal((await again.json()).code, "account_transfer_required");
    await dialog.getByRole("heading", { name: "Transfer this Telegram account?" }).waitFor();
    const moved = page.waitForResponse((r) => r.url().endsWith("/api/v1/telegram/transfer"));
    await dialog.getByRole("button", { name: "Transfer" }).click();
    const response = await moved;
    assert.equal(response.status(), 200, await response.text());
    // The transfer sent the same signed widget result again, with the nonce.
    const sent = JSON.parse(response.request().postData() ?? "{}");
    assert.equal(sent.telegram_auth_result.id, movedId);
    await dialog.getByText("Telegram account added").waitFor();
    await page.getByRole("button", { name: `Unlink telegram @${movedName}` }).waitFor();
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "Log out" }).click();
    await expectSignedOut(page);
  },
);

browserTest(
  "inside a Mini App, the signed initData signs the same user in on load, without a click or a popup",
  async ({ page, context }) => {
    const initData = signInitData({ id: telegramId, first_name: "Ada", username });
    await context.addInitScript((raw) => {
      window.Telegram = { WebApp: { initData: raw } };
    }, initData);
    let popups = 0;
    context.on("page", () => popups++);
    // The app enables seamless login: the provider signs in as soon as it is ready.
    const answer = page.waitForResponse((r) => r.url().endsWith("/api/v1/telegram/authenticate"));
    await page.goto(stack.urls.web);
    const response = await answer;
    assert.equal(response.status(), 200);
    const body = await response.json();
    assert.equal(body.is_new_user, false);
    assert.equal(body.user.linked_accounts[0].telegram_user_id, String(telegramId));
    await expectSignedIn(page, `@${username}`);
    assert.equal(popups, 0);
  },
);

browserTest(
  "the published client's widget script (/js/telegram-login.js on the API origin): Telegram.Login.auth opens Telegram's popup and calls back with its signed result, or false when it closes without one",
  async ({ page, context }) => {
    const asked = [];
    const signed = signWidgetResult({ id: telegramId, first_name: "Ada", username });
    await playTelegram(context, (url) => {
      asked.push(url);
      return url.searchParams.get("bot_id") === "close"
        ? "<!doctype html><title>Telegram</title><script>window.close()</script>"
        : postsResult(signed);
    });
    const script = await fetch(`${stack.urls.api}/js/telegram-login.js`);
    assert.equal(script.status, 200);
    assert.match(script.headers.get("content-type"), /^text\/javascript/);
    await page.goto(stack.urls.web);
    // Loaded as react-auth loads it: a script element from the API origin (cross-origin).
    await page.evaluate(
      (src) =>
        new Promise((resolve, reject) => {
          const element = document.createElement("script");
          element.src = src;
          element.onload = resolve;
          element.onerror = reject;
          document.head.append(element);
        }),
      `${stack.urls.api}/js/telegram-login.js`,
    );
    const auth = (botId) =>
      page.evaluate(
        (id) =>
          new Promise((resolve) => window.Telegram.Login.auth({ bot_id: id, request_access: true }, resolve)),
        botId,
      );
    assert.deepEqual(await auth(TELEGRAM_TEST_BOT.id), signed);
    assert.equal(asked[0].pathname, "/auth");
    assert.equal(asked[0].searchParams.get("bot_id"), TELEGRAM_TEST_BOT.id);
    assert.equal(asked[0].searchParams.get("origin"), new URL(stack.urls.web).origin);
    assert.equal(asked[0].searchParams.get("request_access"), "write");
    // The result passes the server's check as the widget's own would.
    const proof = await fetch(`${stack.urls.api}/api/v1/telegram/authenticate`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "privy-app-id": stack.appId,
        origin: new URL(stack.urls.web).origin,
      },
      body: JSON.stringify({ captcha_token: null, telegram_auth_result: signed }),
    });
    assert.equal(proof.status, 200, await proof.text());
    assert.equal(await auth("close"), false);
  },
);
