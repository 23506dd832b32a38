// Wrong codes: the user sees an error, and a code dies after five wrong tries (spec §9 OTP attempts).
import assert from "node:assert/strict";
import { sharedBrowser } from "../lib/browser.mjs";
import { enterCode, openLoginModal, requestCode, uniqueEmail, waitForEmptyCodeBoxes } from "../lib/flows.mjs";
import { useStack } from "../lib/stack.mjs";

const stack = useStack();
const step = sharedBrowser();
const email = uniqueEmail("wrong-code");
let code;

/** A 6-digit code that is not `right`. */
const wrongCode = (right, n) => String((Number(right) + 1 + n) % 1_000_000).padStart(6, "0");

step("a wrong code shows an error and the user stays signed out", async ({ page }) => {
  const dialog = await openLoginModal(page, stack);
  code = await requestCode(page, stack, email);
  const answer = await enterCode(page, wrongCode(code, 0));
  assert.ok(answer.status >= 400 && answer.status < 500, `wrong code answered ${answer.status}`);
  const alert = dialog.getByRole("alert");
  await alert.waitFor({ state: "visible" });
  assert.notEqual((await alert.textContent())?.trim(), "");
  await waitForEmptyCodeBoxes(page);
  assert.equal(await page.getByTestId("user-email").count(), 0);
});

step("after five wrong tries even the right code is refused", async ({ page }) => {
  for (let n = 1; n < 5; n += 1) {
    const answer = await enterCode(page, wrongCode(code, n));
    assert.ok(answer.status >= 400 && answer.status < 500, `wrong code ${n + 1} answered ${answer.status}`);
    await waitForEmptyCodeBoxes(page);
  }
  const sixth = await enterCode(page, code);
  assert.ok(
    sixth.status >= 400 && sixth.status < 500,
    `the right code after five wrong ones answered ${sixth.status}`,
  );
  await page.getByRole("dialog").getByRole("alert").waitFor({ state: "visible" });
  assert.equal(await page.getByTestId("user-email").count(), 0);
});
