// The modal's two layouts (spec §2, §9): a 360 px dialog above 440 px wide screens, a bottom sheet below.
import assert from "node:assert/strict";
import { browserTest } from "../lib/browser.mjs";
import { openLoginModal, uniqueEmail } from "../lib/flows.mjs";
import { useStack } from "../lib/stack.mjs";

const stack = useStack();
const near = (actual, expected, what) =>
  assert.ok(Math.abs(actual - expected) <= 1, `${what}: ${actual} ≠ ${expected}`);

browserTest(
  "a 390 px wide phone gets a full-width bottom sheet",
  async ({ page }) => {
    const dialog = await openLoginModal(page, stack);
    assert.equal(await dialog.getAttribute("data-layout"), "sheet");
    await page.waitForTimeout(400); // let an opening slide-up finish before measuring
    const box = await dialog.boundingBox();
    assert.ok(box, "the dialog has a box");
    near(box.x, 0, "left edge");
    near(box.width, 390, "width");
    near(box.y + box.height, 844, "bottom edge");
  },
  { viewport: { width: 390, height: 844 } },
);

browserTest(
  "a desktop screen gets the 360 px centred dialog",
  async ({ page }) => {
    const dialog = await openLoginModal(page, stack);
    assert.equal(await dialog.getAttribute("data-layout"), "dialog");
    assert.equal(await dialog.getAttribute("data-state"), "open");
    await page.waitForTimeout(400);
    const box = await dialog.boundingBox();
    assert.ok(box, "the dialog has a box");
    near(box.width, 360, "width");
    near(box.x + box.width / 2, 640, "horizontal centre");
    assert.ok(box.y > 0 && box.y + box.height < 800, "the dialog floats inside the viewport");
  },
  { viewport: { width: 1280, height: 800 } },
);

browserTest(
  "the login modal is as tall as its screen, 620 px (the full height) at most, with no empty band under it",
  async ({ page }) => {
    const dialog = await openLoginModal(page, stack);
    await dialog.evaluate((d) => Promise.all(d.getAnimations({ subtree: true }).map((a) => a.finished)));
    // No empty band under the last line: the space below it is the dialog's own padding.
    const { height, gap, overflow } = await dialog.evaluate((d) => {
      const box = d.getBoundingClientRect();
      const last = /** @type {Element} */ (d.lastElementChild).getBoundingClientRect();
      return { height: box.height, gap: box.bottom - last.bottom, overflow: d.scrollHeight - d.clientHeight };
    });
    // Email inline, Google, GitHub and More options: taller than the compact 480 px, within the full 620 px.
    assert.ok(height <= 620, `login screen height ${height} > 620`);
    assert.ok(gap <= 25, `${gap}px of empty space under the content`);
    assert.equal(overflow, 0, "the content fits without scrolling");
  },
  { viewport: { width: 1280, height: 800 } },
);

/** The dialog's box and whether `locator` lies wholly inside it (not clipped off the card). */
async function insideDialog(dialog, locator) {
  const [outer, inner] = await Promise.all([dialog.boundingBox(), locator.boundingBox()]);
  assert.ok(outer && inner, "both are laid out");
  return inner.y >= outer.y - 0.5 && inner.y + inner.height <= outer.y + outer.height + 0.5;
}

for (const [device, viewport] of [
  ["desktop", { width: 1280, height: 800 }],
  ["phone", { width: 390, height: 844 }],
]) {
  browserTest(
    `${device}: an alert on the entry screen scrolls the screen inside the card; the footer and More options stay reachable`,
    async ({ page }) => {
      const dialog = await openLoginModal(page, stack);
      // The demo app refuses '+' addresses: an alert under the field makes the entry screen taller.
      await page.getByLabel("Email address").fill("ada+tag@example.com");
      await dialog.getByRole("alert").waitFor();
      const footer = dialog.getByText("Protected by Symbolon");
      assert.ok(await insideDialog(dialog, footer), "the footer is inside the card");
      const more = dialog.getByRole("button", { name: "More options" });
      await more.scrollIntoViewIfNeeded();
      assert.ok(await more.isVisible());
      assert.ok(await insideDialog(dialog, more), "More options can be scrolled into the card");
      assert.ok(await insideDialog(dialog, footer), "the footer stayed");
    },
    { viewport },
  );

  browserTest(
    `${device}: the card keeps its height from the entry screen to the code screen, with the footer in view`,
    async ({ page }) => {
      const dialog = await openLoginModal(page, stack);
      await dialog.evaluate((d) => Promise.all(d.getAnimations({ subtree: true }).map((a) => a.finished)));
      const entry = await dialog.boundingBox();
      await page.getByLabel("Email address").fill(uniqueEmail("steady"));
      await page.getByRole("button", { name: "Submit" }).click();
      await page.getByLabel("Digit 1").waitFor();
      const code = await dialog.boundingBox();
      assert.ok(entry && code);
      near(code.height, entry.height, "card height");
      near(code.y + code.height, entry.y + entry.height, "bottom edge");
      assert.ok(
        await insideDialog(dialog, dialog.getByText("Protected by Symbolon")),
        "the footer is in view",
      );
    },
    { viewport },
  );
}

browserTest(
  "the entry screen: the app's logo in the header, an 'or' between the email field and the other methods, each provider's own mark",
  async ({ page }) => {
    const dialog = await openLoginModal(page, stack);
    // The app's logo_url setting (tools/stack points it at the web app's icon), loaded and decorative.
    const logo = dialog.locator(".symbolon-logo img");
    await logo.waitFor();
    assert.match((await logo.getAttribute("src")) ?? "", /\/favicon\.svg$/);
    assert.equal(await logo.getAttribute("alt"), "");
    assert.ok(await logo.evaluate((img) => img.complete && img.naturalWidth > 0), "the logo loaded");
    const or = dialog.locator(".symbolon-divider");
    assert.equal((await or.textContent())?.trim(), "or");
    // Google's four-colour G and GitHub's mark: drawn paths, not a letter on a tile.
    const mark = (name) => dialog.getByRole("button", { name }).locator("svg");
    const google = await mark("Continue with Google").evaluate((svg) => ({
      letters: svg.querySelectorAll("text").length,
      fills: [...svg.querySelectorAll("path")].map((p) => p.getAttribute("fill")),
    }));
    assert.deepEqual(google, { letters: 0, fills: ["#EA4335", "#4285F4", "#FBBC05", "#34A853"] });
    const github = await mark("Continue with GitHub").evaluate((svg) => ({
      letters: svg.querySelectorAll("text").length,
      fill: svg.querySelector("path")?.getAttribute("fill"),
      hidden: svg.getAttribute("aria-hidden"),
    }));
    // Black on light, white on dark: the mark follows the button's text colour.
    assert.deepEqual(github, { letters: 0, fill: "currentColor", hidden: "true" });
    const more = dialog.getByRole("button", { name: "More options" });
    await more.click();
    const passkey = dialog.getByRole("button", { name: "Continue with a passkey" });
    assert.equal(await passkey.locator("svg").count(), 1, "the passkey button has its glyph");
  },
  { viewport: { width: 1280, height: 800 } },
);
