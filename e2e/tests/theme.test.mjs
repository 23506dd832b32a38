// Light, dark and system themes (spec §9: default system, applied as a class on <html>).
import assert from "node:assert/strict";
import { browserTest } from "../lib/browser.mjs";
import { useStack } from "../lib/stack.mjs";

const stack = useStack();

/** Relative luminance (0 black … 1 white) of the page's visible background: body's, else html's. */
const backgroundLuminance = (page) =>
  page.evaluate(() => {
    const parse = (c) => (c.match(/[\d.]+/g) ?? []).map(Number);
    for (const el of [document.body, document.documentElement]) {
      const [r, g, b, a = 1] = parse(getComputedStyle(el).backgroundColor);
      if (a > 0) {
        const lin = (v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
        return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
      }
    }
    return 1; // nothing painted: the browser's white canvas
  });
const htmlClasses = (page) => page.evaluate(() => [...document.documentElement.classList]);

browserTest("choosing Dark darkens the page and survives a reload", async ({ page }) => {
  await page.goto(stack.urls.web);
  const themes = page.getByRole("radiogroup", { name: "Theme" });
  await themes.getByRole("radio", { name: "Light" }).check();
  assert.ok((await htmlClasses(page)).includes("light"));
  assert.ok((await backgroundLuminance(page)) > 0.5, "light theme has a light background");

  await themes.getByRole("radio", { name: "Dark" }).check();
  assert.ok((await htmlClasses(page)).includes("dark"));
  assert.ok(!(await htmlClasses(page)).includes("light"));
  assert.ok((await backgroundLuminance(page)) < 0.1, "dark theme has a dark background");

  await page.reload();
  await page.getByRole("radiogroup", { name: "Theme" }).waitFor();
  assert.ok((await htmlClasses(page)).includes("dark"), "dark is remembered");
  assert.ok((await backgroundLuminance(page)) < 0.1);
  assert.equal(await page.getByRole("radio", { name: "Dark" }).isChecked(), true);
});

browserTest(
  "System follows the operating system preference by default",
  async ({ page }) => {
    await page.goto(stack.urls.web);
    await page.getByRole("radiogroup", { name: "Theme" }).waitFor();
    assert.equal(await page.getByRole("radio", { name: "System" }).isChecked(), true);
    assert.ok((await htmlClasses(page)).includes("dark"));
    assert.ok((await backgroundLuminance(page)) < 0.1);
  },
  { colorScheme: "dark" },
);

for (const theme of ["Light", "Dark"]) {
  browserTest(`the modal's accent is the page's accent (${theme})`, async ({ page }) => {
    await page.goto(stack.urls.web);
    await page.getByRole("radiogroup", { name: "Theme" }).getByRole("radio", { name: theme }).check();
    const logIn = page.getByRole("button", { name: "Log in" });
    const pageAccent = await logIn.evaluate((b) => [
      getComputedStyle(b).backgroundColor,
      getComputedStyle(b).color,
    ]);
    await logIn.click();
    const dialog = page.getByRole("dialog", { name: "Log in or sign up" });
    await dialog.waitFor();
    await page.getByLabel("Email address").fill("someone@example.com");
    const submit = dialog.getByRole("button", { name: "Submit" });
    await page.waitForFunction(() => {
      const b = [...document.querySelectorAll('[role="dialog"] button')].find(
        (x) => x.textContent === "Submit",
      );
      return b && !b.disabled && b.getAnimations().length === 0;
    });
    const modalAccent = await submit.evaluate((b) => [
      getComputedStyle(b).backgroundColor,
      getComputedStyle(b).color,
    ]);
    assert.deepEqual(modalAccent, pageAccent, "button colour and its text colour");
  });
}
