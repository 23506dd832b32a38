// Closing the modal while a code is on its way is not starting over: reopening shows the code
// screen again with the resend wait still running; "Change email" goes back with the address kept.
import assert from "node:assert/strict";
import { sharedBrowser } from "../lib/browser.mjs";
import { enterCode, expectSignedIn, openLoginModal, requestCode, uniqueEmail } from "../lib/flows.mjs";
import { useStack } from "../lib/stack.mjs";

const stack = useStack();
const step = sharedBrowser();
const email = uniqueEmail("resume");

const resend = (page) => page.getByRole("dialog").getByRole("button", { name: "Resend code" });

step("after a resend by keyboard, focus stays on Resend and the wait is shown", async ({ page }) => {
  await openLoginModal(page, stack);
  await requestCode(page, stack, email);
  const after = await stack.mailbox.lastId(email);
  await resend(page).focus();
  await page.keyboard.press("Enter");
  await stack.mailbox.waitForCode(email, { after });
  const wait = page.getByRole("dialog").getByRole("status");
  await wait.filter({ hasText: "A new code was sent." }).waitFor();
  assert.match((await wait.textContent()) ?? "", /You can ask for another code in \d+\u00a0seconds\.$/);
  assert.equal(await resend(page).getAttribute("aria-disabled"), "true");
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Resend code");
});

step(
  "closed and reopened, the modal shows the code screen with the resend wait still on",
  async ({ page }) => {
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    // Focus returns to the control that opened the modal.
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Log in");
    await page.getByRole("button", { name: "Log in" }).click();
    const dialog = page.getByRole("dialog", { name: "Log in or sign up" });
    await dialog.getByText(email).waitFor();
    await page.getByLabel("Digit 1").waitFor();
    assert.equal(
      await resend(page).getAttribute("aria-disabled"),
      "true",
      "the reopen did not skip the wait",
    );
    assert.match(
      (await dialog.getByRole("status").textContent()) ?? "",
      /You can ask for another code in \d+/,
    );
  },
);

step(
  "Change email goes back to the address, kept for editing, and a new address gets its code",
  async ({ page }) => {
    await page.getByRole("button", { name: "Change email" }).click();
    const field = page.getByLabel("Email address");
    await field.waitFor();
    assert.equal(await field.inputValue(), email);
    const other = uniqueEmail("resume-other");
    const code = await requestCode(page, stack, other);
    await page.getByRole("dialog").getByText(other).waitFor();
    // A different address has no wait of its own yet.
    assert.equal(await resend(page).getAttribute("aria-disabled"), "false");
    const { status } = await enterCode(page, code);
    assert.equal(status, 200);
    await expectSignedIn(page, other);
  },
);
