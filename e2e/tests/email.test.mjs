// Wrong codes as a person meets them: each wrong try says how many are left, a code whose tries
// are used up says so (not "not valid") with Resend right there, and a new code then works
// (spec §9 OTP attempts).
import assert from "node:assert/strict";
import { sharedBrowser } from "../lib/browser.mjs";
import {
  enterCode,
  expectSignedIn,
  openLoginModal,
  requestCode,
  uniqueEmail,
  waitForEmptyCodeBoxes,
} from "../lib/flows.mjs";
import { useStack } from "../lib/stack.mjs";

const stack = useStack();
const step = sharedBrowser();
const email = uniqueEmail("wrong-code");
let code;

/** A 6-digit code that is not `right`. */
const wrongCode = (right, n) => String((Number(right) + 1 + n) % 1_000_000).padStart(6, "0");

/** The text of the dialog's alert once it shows `expected`. */
async function alertShows(page, expected) {
  const alert = page.getByRole("dialog").getByRole("alert");
  await alert.filter({ hasText: expected }).waitFor({ state: "visible" });
  return (await alert.textContent())?.trim();
}

/** The accessible name of the focused element. */
const focusedName = (page) =>
  page.evaluate(
    () => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent,
  );

step("a wrong code says how many tries are left and the user stays signed out", async ({ page }) => {
  await openLoginModal(page, stack);
  code = await requestCode(page, stack, email);
  const answer = await enterCode(page, wrongCode(code, 0));
  assert.equal(answer.status, 401, `wrong code answered ${answer.status}`);
  assert.equal(await alertShows(page, "attempts left"), "Invalid code. 4 attempts left.");
  await waitForEmptyCodeBoxes(page);
  assert.equal(await focusedName(page), "Digit 1");
  assert.equal(await page.getByTestId("user-email").count(), 0);
});

step("the fifth wrong code says no tries are left and moves focus to Resend", async ({ page }) => {
  for (let n = 1; n < 5; n += 1) {
    const answer = await enterCode(page, wrongCode(code, n));
    assert.equal(answer.status, 401, `wrong code ${n + 1} answered ${answer.status}`);
    await waitForEmptyCodeBoxes(page);
  }
  assert.equal(
    await alertShows(page, "No attempts left"),
    "Invalid code. No attempts left: request a new code.",
  );
  await page.waitForFunction(() => document.activeElement?.textContent === "Resend code");
});

step("the right code after five wrong ones is refused as used up, not as 'not valid'", async ({ page }) => {
  const answer = await enterCode(page, code);
  assert.equal(answer.status, 401, `the right code after five wrong ones answered ${answer.status}`);
  const shown = await alertShows(page, "Too many wrong attempts");
  assert.equal(shown, "Too many wrong attempts for this code. Request a new code.");
  assert.doesNotMatch(shown, /not valid/);
  await page.waitForFunction(() => document.activeElement?.textContent === "Resend code");
  assert.equal(await page.getByTestId("user-email").count(), 0);
});

step("Resend pressed by keyboard sends a new code that signs the user in", async ({ page }) => {
  const after = await stack.mailbox.lastId(email);
  await page.keyboard.press("Enter");
  const fresh = await stack.mailbox.waitForCode(email, { after });
  // Focus stays in the dialog after the resend (the button is not disabled away from under it).
  assert.equal(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]'))), true);
  const answer = await enterCode(page, fresh);
  assert.equal(answer.status, 200, `the new code answered ${answer.status}`);
  await expectSignedIn(page, email);
});
