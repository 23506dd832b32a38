// The cross-app pages (consent, signing) looked at in a popup: an axe scan in light and dark, and screenshots
// at a phone's and a desktop's width (e2e/artifacts/screens/cross-app-*.png; copies in docs/screenshots/).
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { axeViolations } from "./axe.mjs";
import { SCREENS_DIR } from "./screens.mjs";

/** The widths the pages are photographed at, with a matching height. */
const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
];

/**
 * Scans `popup` with axe in light and dark and saves `cross-app-<name>-<light|dark>-<phone|desktop>.png`.
 * Returns the violations by scheme (empty lists when clean); leaves the popup light at its first size.
 */
export async function lookAtCrossAppPage(popup, name) {
  await mkdir(SCREENS_DIR, { recursive: true });
  /** @type {Record<string, string[]>} */
  const report = {};
  for (const colorScheme of /** @type {const} */ (["light", "dark"])) {
    await popup.emulateMedia({ colorScheme });
    report[colorScheme] = await axeViolations(popup);
    for (const size of SIZES) {
      await popup.setViewportSize({ width: size.width, height: size.height });
      const file = path.join(SCREENS_DIR, `cross-app-${name}-${colorScheme}-${size.name}.png`);
      await popup.screenshot({ path: file, animations: "disabled" });
    }
  }
  await popup.emulateMedia({ colorScheme: "light" });
  await popup.setViewportSize({ width: SIZES[0].width, height: SIZES[0].height });
  return report;
}
