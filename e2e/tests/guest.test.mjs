// Guest login: a guest signs in with one click and keeps their user when they log in by email later
// (spec §5 "guests may log in").
import assert from "node:assert/strict";
import { sharedBrowser } from "../lib/browser.mjs";
import { enterCode, expectSignedIn, expectSignedOut, requestCode, uniqueEmail } from "../lib/flows.mjs";
import { useStack } from "../lib/stack.mjs";

const stack = useStack();
const step = sharedBrowser();
const email = uniqueEmail("guest-upgrade");
let guestId;

step("Continue as guest signs in a guest user", async ({ page }) => {
  await page.goto(stack.urls.web);
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/v1/guest/authenticate"));
  await page.getByRole("button", { name: "Continue as guest" }).click();
  const response = await answer;
  assert.equal(response.status(), 200);
  assert.equal((await response.json()).user.is_guest, true);
  await expectSignedIn(page, "Guest");
  guestId = (await page.getByTestId("user-id").textContent())?.trim();
  assert.match(guestId ?? "", /^did:privy:/);
});

step("the guest logs in by email and keeps their user", async ({ page }) => {
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("dialog", { name: "Log in or sign up" }).waitFor();
  const code = await requestCode(page, stack, email);
  const { status, body } = await enterCode(page, code);
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.user.id, guestId);
  assert.equal(body.user.is_guest, false);
  await expectSignedIn(page, email);
  assert.equal((await page.getByTestId("user-id").textContent())?.trim(), guestId);
  await page.getByRole("button", { name: "Log out" }).click();
  await expectSignedOut(page);
});
