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

browserTest("asking for a second code too soon shows the wait and sends no mail", async ({ page }) => {
  const email = uniqueEmail("rate");
  const dialog = await openLoginModal(page, stack);
  await requestCode(page, stack, email);
  const refused = page.waitForResponse((r) => r.url().endsWith("/api/v1/passwordless/init"));
  await dialog.getByRole("button", { name: "Resend code" }).click();
  const response = await refused;
  assert.equal(response.status(), 429);
  assert.equal((await response.json()).code, "too_many_requests");
  const alert = dialog.getByRole("alert");
  await alert.waitFor({ state: "visible" });
  assert.match((await alert.textContent()) ?? "", /^Too many requests\. Please wait before trying again\./);
  assert.equal((await stack.mailbox.messagesFor(email)).length, 1, "only the first code was sent");
});
