// Email validation in the modal (spec §5): invalid addresses and, for this app, addresses with '+'.
import assert from "node:assert/strict";
import { sharedBrowser } from "../lib/browser.mjs";
import { openLoginModal, uniqueEmail } from "../lib/flows.mjs";
import { useStack } from "../lib/stack.mjs";

const stack = useStack();
const step = sharedBrowser();

step(
  "an invalid address is flagged when the field is left, and Submit stays disabled until it is fixed",
  async ({ page }) => {
    const dialog = await openLoginModal(page, stack);
    const input = page.getByLabel("Email address");
    const submit = dialog.getByRole("button", { name: "Submit" });
    assert.equal(await submit.isDisabled(), true, "Submit is disabled while the field is empty");
    // Not red at the first character: typing an address is not a mistake yet.
    await input.pressSequentially("not-an");
    assert.equal(await dialog.getByRole("alert").count(), 0, "no message while typing");
    assert.equal(await submit.isDisabled(), true);
    await input.fill("not-an-email");
    // Leaving the field checks it.
    await input.press("Tab");
    const alert = dialog.getByRole("alert");
    await alert.waitFor({ state: "visible" });
    assert.equal((await alert.textContent())?.trim(), "Please enter a valid email address.");
    assert.equal(await submit.isDisabled(), true);
    await input.fill(uniqueEmail("valid"));
    assert.equal(await dialog.getByRole("alert").count(), 0);
    assert.equal(await submit.isEnabled(), true);
  },
);

step("an address with '+' is refused with the spec's message and no email is sent", async ({ page }) => {
  const dialog = page.getByRole("dialog");
  const input = page.getByLabel("Email address");
  const plus = uniqueEmail("plus").replace("@", "+tag@");
  await input.fill(plus);
  const alert = dialog.getByRole("alert");
  await alert.waitFor({ state: "visible" });
  assert.equal((await alert.textContent())?.trim(), "Please enter a valid email address without a '+'.");
  assert.equal(await dialog.getByRole("button", { name: "Submit" }).isDisabled(), true);
  // Enter must not get around the disabled button.
  await input.press("Enter");
  await page.waitForTimeout(500);
  assert.deepEqual(await stack.mailbox.messagesFor(plus), []);
  assert.equal(await page.getByLabel("Digit 1").count(), 0);
});
