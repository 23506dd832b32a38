// Key export as a person sees it: the wallet page fits its box at desktop and phone sizes, the title shows
// once, and the revealed key is shown whole (wrapped, monospace) with a copy button and a warning.
import assert from "node:assert/strict";
import { browserTest } from "../lib/browser.mjs";
import { logIn, uniqueEmail } from "../lib/flows.mjs";
import { saveScreen } from "../lib/screens.mjs";
import { useStack } from "../lib/stack.mjs";
import { shownAddress } from "../lib/wallet.mjs";

const stack = useStack();

/** Whether `inner` lies wholly inside `outer` (1 px of rounding allowed). */
function within(inner, outer) {
  return (
    inner.x >= outer.x - 1 &&
    inner.y >= outer.y - 1 &&
    inner.x + inner.width <= outer.x + outer.width + 1 &&
    inner.y + inner.height <= outer.y + outer.height + 1
  );
}

for (const [size, viewport] of [
  ["desktop", { width: 1280, height: 800 }],
  ["phone", { width: 390, height: 844 }],
]) {
  browserTest(
    `export fits its box and shows the whole key (${size})`,
    async ({ page }) => {
      await logIn(page, stack, uniqueEmail(`export-${size}`));
      await shownAddress(page);
      await page.getByRole("button", { name: "Export private key" }).click();
      const dialog = page.getByRole("dialog");
      const box = await page.locator('iframe[title="Export wallet"]').boundingBox();
      assert.ok(box, "the export frame is on the page");
      const frame = page.frameLocator('iframe[title="Export wallet"]');
      const reveal = frame.getByRole("button", { name: "Reveal private key" });
      await reveal.waitFor({ state: "visible" });
      // The title is the dialog's; the wallet page's own heading is for screen readers only.
      const visibleTitles = await page
        .getByText("Export wallet", { exact: true })
        .evaluateAll((nodes) => nodes.filter((n) => n.getBoundingClientRect().width > 1).length);
      const frameTitleWidth = await frame
        .getByRole("heading", { name: "Export wallet" })
        .evaluate((h) => h.getBoundingClientRect().width);
      assert.equal(visibleTitles, 1, "one visible title in the host dialog");
      assert.ok(frameTitleWidth <= 1, "the wallet page does not repeat the title");
      assert.ok(
        await frame.getByRole("note").evaluate((n) => /full control/.test(n.textContent ?? "")),
        "the warning is shown",
      );
      assert.ok(within(await reveal.boundingBox(), box), "Reveal private key is not cut off");

      await frame.getByRole("button", { name: "Reveal private key" }).click({ trial: false });
      const field = frame.getByRole("textbox", { name: "Private key" });
      await field.waitFor({ state: "visible" });
      const key = await field.inputValue();
      assert.match(key, /^0x[0-9a-f]{64}$/i);
      const shown = await field.evaluate((f) => ({
        whole: f.scrollHeight <= f.clientHeight + 1 && f.scrollWidth <= f.clientWidth + 1,
        font: getComputedStyle(f).fontFamily,
      }));
      assert.ok(shown.whole, "all 66 characters are visible without scrolling the field");
      assert.match(shown.font, /mono/i, "the key is set in a monospace font");
      assert.ok(within(await field.boundingBox(), box), "the key is inside the visible box");
      const copy = frame.getByRole("button", { name: "Copy private key" });
      assert.ok(within(await copy.boundingBox(), box), "Copy is inside the visible box");
      await dialog.waitFor({ state: "visible" });
      await saveScreen(page, `export-${size}`);
    },
    { viewport },
  );
}

browserTest(
  "Escape pressed inside the wallet page closes the export dialog, and the key goes with it",
  async ({ page }) => {
    await logIn(page, stack, uniqueEmail("export-escape"));
    await shownAddress(page);
    await page.getByRole("button", { name: "Export private key" }).click();
    const dialog = page.getByRole("dialog");
    const frame = page.frameLocator('iframe[title="Export wallet"]');
    await frame.getByRole("button", { name: "Reveal private key" }).click();
    const field = frame.getByRole("textbox", { name: "Private key" });
    await field.waitFor({ state: "visible" });
    // Focus is in the wallet page (another origin): its keys never reach the host page by themselves.
    await field.focus();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    assert.equal(await page.locator('iframe[title="Export wallet"]').count(), 0, "the key page is gone");
  },
);
