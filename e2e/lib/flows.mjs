// What a user does in the login modal, as steps the tests share. Locators follow e2e/README.md.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";

/** A fresh address per test (no '+': the demo app refuses them). */
export function uniqueEmail(tag) {
  return `${tag}-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}@example.com`;
}

/** Opens the web app and the login modal; returns the dialog locator. */
export async function openLoginModal(page, stack) {
  await page.goto(stack.urls.web);
  await page.getByRole("button", { name: "Log in" }).click();
  const dialog = page.getByRole("dialog", { name: "Log in or sign up" });
  await dialog.waitFor({ state: "visible" });
  return dialog;
}

/** Enters `email`, submits, and returns the code from the mail the server sent. */
export async function requestCode(page, stack, email) {
  const after = await stack.mailbox.lastId(email);
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Submit" }).click();
  await page.getByLabel("Digit 1").waitFor({ state: "visible" });
  return stack.mailbox.waitForCode(email, { after });
}

/** Types a code into the six boxes the way a user does (focus moves on by itself) and returns the server's answer. */
export async function enterCode(page, code) {
  const answer = page.waitForResponse(
    (r) => r.url().endsWith("/api/v1/passwordless/authenticate") && r.request().method() === "POST",
  );
  await page.getByLabel("Digit 1").click();
  await page.keyboard.type(code);
  const response = await answer;
  return { status: response.status(), body: await response.json() };
}

/** The whole email login; returns the `/passwordless/authenticate` body and checks the page shows the user. */
export async function logIn(page, stack, email) {
  await openLoginModal(page, stack);
  const code = await requestCode(page, stack, email);
  const { status, body } = await enterCode(page, code);
  assert.equal(status, 200, `authenticate answered ${status}: ${JSON.stringify(body)}`);
  await expectSignedIn(page, email);
  return body;
}

/** Waits until the page shows `email` as the signed-in user. */
export async function expectSignedIn(page, email, timeout = 10_000) {
  const shown = page.getByTestId("user-email");
  await shown.waitFor({ state: "visible", timeout });
  assert.equal((await shown.textContent())?.trim(), email);
}

/** Waits until the page shows the signed-out landing state. */
export async function expectSignedOut(page, timeout = 10_000) {
  await page.getByRole("button", { name: "Log in" }).waitFor({ state: "visible", timeout });
  assert.equal(await page.getByTestId("user-email").count(), 0);
}

/** Waits until the code boxes are empty and editable again (after a refused code they reset). */
export async function waitForEmptyCodeBoxes(page, timeout = 10_000) {
  await page.waitForFunction(
    () => {
      const boxes = [...document.querySelectorAll('input[aria-label^="Digit "]')];
      return boxes.length === 6 && boxes.every((b) => b.value === "" && !b.readOnly);
    },
    undefined,
    { timeout },
  );
}

/**
 * A fresh, valid US number per test: `{ national: "201 2xx xxxx", e164: "+1201…", international: "+1 201 2xx xxxx" }`
 * (libphonenumber-valid); the demo shows numbers the international way.
 */
export function uniquePhone() {
  const line = String(2_000_000 + (randomBytes(4).readUInt32BE() % 8_000_000));
  const national = `201 ${line.slice(0, 3)} ${line.slice(3)}`;
  return { national, e164: `+1201${line}`, international: `+1 ${national}` };
}

/** On the phone form: picks the US, types the number, submits, and returns the code the server texted. */
export async function requestSmsCode(page, stack, phone) {
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Country").selectOption("US");
  await dialog.getByLabel("Phone number").fill(phone.national);
  const submit = dialog.getByRole("button", { name: /^(Submit|Update)$/ });
  await submit.and(page.locator(":enabled")).waitFor();
  await submit.click();
  await page.getByLabel("Digit 1").waitFor({ state: "visible" });
  return stack.smsbox.latestCode(phone.e164);
}

/** Types `code` into the six boxes and returns the answer of the call whose path ends with `path`. */
export async function enterCodeFor(page, code, path) {
  const answer = page.waitForResponse((r) => r.url().endsWith(path) && r.request().method() === "POST");
  await page.getByLabel("Digit 1").click();
  await page.keyboard.type(code);
  const response = await answer;
  return { status: response.status(), body: await response.json() };
}
