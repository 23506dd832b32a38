// Rate limiting as a user meets it: a stack of its own whose email limit is one code per window.
import assert from "node:assert/strict";
import { after, before } from "node:test";
import { startStack } from "@symbolon/stack";
import { browserTest } from "../lib/browser.mjs";
import { openLoginModal, requestCode, uniqueEmail } from "../lib/flows.mjs";
import { stackOptions } from "../lib/stackOptions.mjs";

const stack = {};
let own;
before(async () => {
  own = await startStack({
    ...stackOptions,
    rateLimits: { emailPerWindow: 1, ipPerWindow: 1000, windowS: 600 },
  });
  Object.assign(stack, own);
});
after(() => own?.stop());

browserTest("asking for a second code too soon sends no mail and shows no error", async ({ page }) => {
  const email = uniqueEmail("rate");
  const dialog = await openLoginModal(page, stack);
  await requestCode(page, stack, email);
  // Within the 20 s cooldown the code already sent is still valid: the server answers success and sends
  // nothing (it was a red 429 before).
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/v1/passwordless/init"));
  await dialog.getByRole("button", { name: "Resend code" }).click();
  assert.equal((await answer).status(), 200);
  await dialog.getByRole("status").waitFor();
  assert.match((await dialog.getByRole("status").textContent()) ?? "", /You can ask for another code in \d+/);
  assert.equal(await dialog.getByRole("alert").count(), 0, "no red error");
  assert.equal((await stack.mailbox.messagesFor(email)).length, 1, "only the first code was sent");
});

browserTest(
  "'Change email' and Submit with the same address goes back to the code screen",
  async ({ page }) => {
    const email = uniqueEmail("again");
    const dialog = await openLoginModal(page, stack);
    await requestCode(page, stack, email);
    await dialog.getByRole("button", { name: "Change email" }).click();
    // The code already sent is still valid: the server answers success and sends nothing (no 429).
    const answer = page.waitForResponse((r) => r.url().endsWith("/api/v1/passwordless/init"));
    await page.getByLabel("Email address").fill(email);
    await page.getByRole("button", { name: "Submit" }).click();
    assert.equal((await answer).status(), 200);
    await page.getByLabel("Digit 1").waitFor({ state: "visible" });
    assert.equal(await dialog.getByRole("alert").count(), 0, "no red error");
    assert.equal((await stack.mailbox.messagesFor(email)).length, 1, "nothing sent again");
  },
);
