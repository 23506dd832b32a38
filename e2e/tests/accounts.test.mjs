// An email user manages their accounts on the demo's account page: links a phone (code by SMS), unlinks it,
// is refused unlinking their last way in with the server's message, and updates their email with the spec's
// screen (spec §2 update email, §5 linking and update rules).
import assert from "node:assert/strict";
import { sharedBrowser } from "../lib/browser.mjs";
import {
  enterCodeFor,
  expectSignedIn,
  logIn,
  requestCode,
  requestSmsCode,
  uniqueEmail,
  uniquePhone,
} from "../lib/flows.mjs";
import { useStack } from "../lib/stack.mjs";

const stack = useStack();
const step = sharedBrowser();
const email = uniqueEmail("accounts");
const newEmail = uniqueEmail("accounts-new");
const phone = uniquePhone();

const accounts = (page) => page.getByRole("region", { name: "Accounts" });

step("an email user links a phone with a texted code", async ({ page }) => {
  await logIn(page, stack, email);
  await accounts(page).getByRole("button", { name: "Link phone" }).click();
  const code = await requestSmsCode(page, stack, phone);
  const { status, body } = await enterCodeFor(page, code, "/api/v1/passwordless_sms/link");
  assert.equal(status, 200, JSON.stringify(body));
  await accounts(page).getByText(phone.international).waitFor();
});

step("unlinking the phone removes it", async ({ page }) => {
  await accounts(page)
    .getByRole("button", { name: `Unlink phone ${phone.international}` })
    .click();
  await accounts(page).getByText(phone.international).waitFor({ state: "detached" });
  await accounts(page).getByRole("button", { name: "Link phone" }).waitFor();
});

step("the last way in cannot be unlinked, and the page says why", async ({ page }) => {
  await accounts(page)
    .getByRole("button", { name: `Unlink email ${email}` })
    .click();
  const alert = accounts(page).getByRole("alert");
  await alert.waitFor();
  assert.match((await alert.textContent()) ?? "", /only account this user can sign in with/);
  await accounts(page).getByText(email).waitFor();
});

step("Update your email to the address it already is: said at once, no code sent", async ({ page }) => {
  await accounts(page)
    .getByRole("button", { name: `Update email ${email}` })
    .click();
  const dialog = page.getByRole("dialog", { name: "Update your email" });
  await dialog.waitFor();
  const sends = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === "/api/v1/passwordless/init") sends.push(r.url());
  });
  await dialog.getByLabel("Email address").fill(email.toUpperCase());
  await dialog.getByRole("alert").filter({ hasText: "This is already your email address." }).waitFor();
  assert.equal(await dialog.getByRole("button", { name: "Submit" }).isDisabled(), true);
  await dialog.getByLabel("Email address").press("Enter");
  await page.waitForTimeout(300);
  assert.deepEqual(sends, [], "no code was sent");
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
});

step("Update your email replaces the address after its code", async ({ page }) => {
  await accounts(page)
    .getByRole("button", { name: `Update email ${email}` })
    .click();
  const dialog = page.getByRole("dialog", { name: "Update your email" });
  await dialog.waitFor();
  await dialog
    .getByText("Add the email address you'd like to use going forward. We'll send you a confirmation code")
    .waitFor();
  const code = await requestCode(page, stack, newEmail);
  const { status, body } = await enterCodeFor(page, code, "/api/v1/passwordless/update");
  assert.equal(status, 200, JSON.stringify(body));
  // The page shows the new address once the client has refreshed the user.
  await page.getByTestId("user-email").filter({ hasText: newEmail }).waitFor();
  await expectSignedIn(page, newEmail);
  await accounts(page).getByText(email, { exact: true }).waitFor({ state: "detached" });
});
