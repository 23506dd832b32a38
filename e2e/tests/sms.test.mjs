// SMS login as a person meets it: the e2e app lists email first and SMS behind "More options"; the phone
// form only submits a valid number; the server texts the code through Twilio's HTTP API to the local catcher,
// and typing it signs the user in (spec §2 add phone, §4 code flow, §5 phone submit rule).
import assert from "node:assert/strict";
import { sharedBrowser } from "../lib/browser.mjs";
import { enterCodeFor, expectSignedIn, openLoginModal, requestSmsCode, uniquePhone } from "../lib/flows.mjs";
import { useStack } from "../lib/stack.mjs";

const stack = useStack();
const step = sharedBrowser();
const phone = uniquePhone();

step("the login screen shows email inline and SMS behind More options", async ({ page }) => {
  const dialog = await openLoginModal(page, stack);
  await dialog.getByLabel("Email address").waitFor();
  assert.equal(await dialog.getByRole("button", { name: "Continue with SMS" }).count(), 0);
  await dialog.getByRole("button", { name: "More options" }).click();
  await dialog.getByRole("heading", { name: "More options" }).waitFor();
  // Back returns to the login screen; More options again, then SMS.
  await dialog.getByRole("button", { name: "Back" }).click();
  await dialog.getByLabel("Email address").waitFor();
  await dialog.getByRole("button", { name: "More options" }).click();
  await dialog.getByRole("button", { name: "Continue with SMS" }).click();
  await dialog.getByLabel("Phone number").waitFor();
});

step("Submit waits for a valid number", async ({ page }) => {
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Country").selectOption("US");
  const submit = dialog.getByRole("button", { name: "Submit" });
  await dialog.getByLabel("Phone number").fill("201 555");
  assert.equal(await submit.isDisabled(), true, "a short number cannot be submitted");
  await dialog.getByLabel("Phone number").fill(phone.national);
  await submit.and(page.locator(":enabled")).waitFor();
});

step("the texted code signs the user up", async ({ page }) => {
  const code = await requestSmsCode(page, stack, phone);
  const { status, body } = await enterCodeFor(page, code, "/api/v1/passwordless_sms/authenticate");
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.is_new_user, true);
  assert.equal(body.user.linked_accounts[0].phoneNumber, phone.e164);
  await expectSignedIn(page, phone.international);
});
