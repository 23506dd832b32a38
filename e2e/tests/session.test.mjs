// A session as a user lives it: first sign-in, reload, a second tab, logout everywhere, coming back.
import assert from "node:assert/strict";
import { browserTest, sharedBrowser } from "../lib/browser.mjs";
import { expectSignedIn, expectSignedOut, logIn, uniqueEmail } from "../lib/flows.mjs";
import { useStack } from "../lib/stack.mjs";
import { shownAddress, signMessageInUi } from "../lib/wallet.mjs";

const stack = useStack();
const step = sharedBrowser();
const email = uniqueEmail("session");

step("a new user signs in with the code from the email and lands signed in", async ({ page }) => {
  const body = await logIn(page, stack, email);
  assert.equal(body.is_new_user, true);
  assert.equal(body.session_update_action, "set");
  assert.equal(typeof body.token, "string");
  assert.equal(typeof body.refresh_token, "string");
  await page.getByRole("dialog").waitFor({ state: "hidden" });
});

step("a reload keeps the session without a new login", async ({ page }) => {
  const loginCalls = [];
  const onRequest = (r) => r.url().includes("/api/v1/passwordless/") && loginCalls.push(r.url());
  page.on("request", onRequest);
  await page.reload();
  await expectSignedIn(page, email);
  page.off("request", onRequest);
  assert.deepEqual(loginCalls, []);
});

step("a second tab sees the same user", async ({ context }) => {
  const second = await context.newPage();
  await second.goto(stack.urls.web);
  await expectSignedIn(second, email);
});

step("logging out in one tab signs out the other within a couple of seconds", async ({ context }) => {
  const [first, second] = context.pages();
  await first.getByRole("button", { name: "Log out" }).click();
  await expectSignedOut(first);
  await expectSignedOut(second, 3_000);
  await second.reload();
  await expectSignedOut(second);
});

step("signing in again with the same address finds the existing user", async ({ context }) => {
  const [first] = context.pages();
  const body = await logIn(first, stack, email);
  assert.equal(body.is_new_user, false);
});

browserTest(
  "logging out and straight back in, then signing: no wallet error in the console",
  async ({ page }) => {
    const errors = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    const email = uniqueEmail("relogin");
    await logIn(page, stack, email);
    await shownAddress(page);
    // Out while the wallet may still be unlocking in the background, and in again at once.
    await page.getByRole("button", { name: "Log out" }).click();
    await expectSignedOut(page);
    await logIn(page, stack, email);
    await expectSignedIn(page, email);
    await shownAddress(page);
    const signature = await signMessageInUi(page, "back again");
    assert.match(signature, /^0x[0-9a-f]+$/i);
    assert.deepEqual(
      errors.filter((text) => /could not be unlocked|no longer valid/i.test(text)),
      [],
      errors.join("\n"),
    );
  },
);
