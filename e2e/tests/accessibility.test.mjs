// Keyboard use of the modal and an axe-core scan of every screen a user meets on the way in.
import assert from "node:assert/strict";
import { axeViolations } from "../lib/axe.mjs";
import { browserTest } from "../lib/browser.mjs";
import {
  enterCode,
  expectSignedIn,
  logIn,
  openLoginModal,
  requestCode,
  uniqueEmail,
  waitForEmptyCodeBoxes,
} from "../lib/flows.mjs";
import { openPasskeyScreen } from "../lib/passkeys.mjs";
import { saveScreen } from "../lib/screens.mjs";
import { useStack } from "../lib/stack.mjs";

const stack = useStack();
browserTest("Escape closes the modal and focus returns to the Log in button", async ({ page }) => {
  const dialog = await openLoginModal(page, stack);
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  const focused = await page
    .getByRole("button", { name: "Log in" })
    .evaluate((button) => button === document.activeElement);
  assert.equal(focused, true, "focus is back on Log in");
});

browserTest("after signing in, focus lands on the page's heading, not the body", async ({ page }) => {
  const email = uniqueEmail("focus");
  await logIn(page, stack, email);
  await expectSignedIn(page, email);
  await page.getByRole("dialog").waitFor({ state: "hidden" });
  await page.waitForFunction(() => document.activeElement !== document.body);
  const focused = await page.evaluate(() => ({
    tag: document.activeElement?.tagName,
    text: document.activeElement?.textContent,
  }));
  assert.deepEqual(focused, { tag: "H1", text: "Your account" });
  // A heading is not a control: no focus ring drawn around it.
  const outline = await page.evaluate(
    () => getComputedStyle(/** @type {Element} */ (document.activeElement)).outlineStyle,
  );
  assert.equal(outline, "none");
});

browserTest("Change email puts focus in the email field, with the address to edit", async ({ page }) => {
  const email = uniqueEmail("change");
  await openLoginModal(page, stack);
  await requestCode(page, stack, email);
  await page.getByRole("button", { name: "Change email" }).click();
  const field = page.getByLabel("Email address");
  await field.waitFor();
  await page.waitForFunction(() => document.activeElement?.getAttribute("type") === "email");
  assert.equal(await field.inputValue(), email);
});

browserTest("Tab keeps focus inside the open modal", async ({ page }) => {
  const dialog = await openLoginModal(page, stack);
  for (let i = 0; i < 8; i += 1) {
    await page.keyboard.press("Tab");
    const inside = await dialog.evaluate((d) => d.contains(document.activeElement));
    assert.equal(inside, true, `focus left the dialog after ${i + 1} Tab presses`);
  }
});

for (const theme of ["Light", "Dark"]) {
  browserTest(
    `axe finds nothing serious on the landing page and each login screen (${theme})`,
    async ({ page }) => {
      const report = {};
      await page.goto(stack.urls.web);
      await page.getByRole("radiogroup", { name: "Theme" }).getByRole("radio", { name: theme }).check();
      report.landing = await axeViolations(page);

      const dialog = await openLoginModal(page, stack);
      await page.waitForTimeout(300); // opening transition: colours are final afterwards
      report["email screen"] = await axeViolations(page);
      await saveScreen(page, `email-${theme.toLowerCase()}`);

      await page.getByLabel("Email address").fill("someone+tag@example.com");
      await dialog.getByRole("alert").waitFor();
      report["email screen with an error"] = await axeViolations(page);

      const email = uniqueEmail(`axe-${theme.toLowerCase()}`);
      const code = await requestCode(page, stack, email);
      report["code screen"] = await axeViolations(page);

      const lower = theme.toLowerCase();
      await saveScreen(page, `code-${lower}`);
      const wrong = (n) => String((Number(code) + 1 + n) % 1_000_000).padStart(6, "0");
      await enterCode(page, wrong(0));
      await dialog.getByRole("alert").waitFor();
      await waitForEmptyCodeBoxes(page);
      report["code screen with an error"] = await axeViolations(page);
      await saveScreen(page, `wrong-code-${lower}`);

      for (let n = 1; n < 5; n += 1) {
        await enterCode(page, wrong(n));
        await waitForEmptyCodeBoxes(page);
      }
      await enterCode(page, code);
      await dialog.getByRole("alert").filter({ hasText: "Too many wrong attempts" }).waitFor();
      report["used-up code with Resend"] = await axeViolations(page);
      await saveScreen(page, `used-up-code-${lower}`);

      const after = await stack.mailbox.lastId(email);
      await dialog.getByRole("button", { name: "Resend code" }).click();
      const fresh = await stack.mailbox.waitForCode(email, { after });

      await enterCode(page, fresh);
      await page.getByTestId("user-email").waitFor();
      await page.waitForTimeout(300);
      report["signed in"] = await axeViolations(page);

      const found = Object.entries(report).filter(([, v]) => v.length);
      assert.deepEqual(
        found,
        [],
        `axe violations:\n${found.map(([k, v]) => `${k}:\n  ${v.join("\n  ")}`).join("\n")}`,
      );
    },
  );
}

for (const theme of ["Light", "Dark"]) {
  browserTest(
    `the passkey choice screen (Log in / Sign up, before any browser prompt) is axe-clean (${theme})`,
    async ({ page }) => {
      await page.goto(stack.urls.web);
      await page.getByRole("radiogroup", { name: "Theme" }).getByRole("radio", { name: theme }).check();
      const dialog = await openPasskeyScreen(page, stack);
      await dialog.getByRole("button", { name: "Log in with a passkey" }).waitFor();
      await dialog.getByRole("button", { name: "Sign up with a passkey" }).waitFor();
      await page.waitForTimeout(300);
      assert.deepEqual(await axeViolations(page), []);
      await saveScreen(page, `passkey-choice-${theme.toLowerCase()}`);
    },
  );
}
