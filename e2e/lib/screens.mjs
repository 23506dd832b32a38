// Screenshots of the modal's screens, saved by the suite as artifacts (e2e/artifacts/screens/*.png);
// copies are committed under docs/screenshots/ (see docs/screens.md).
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Where the screens go. */
export const SCREENS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../artifacts/screens");

/** Saves the open dialog as `<name>.png` once its opening transition is over; returns the file. */
export async function saveScreen(page, name) {
  const dialog = page.getByRole("dialog");
  await dialog.waitFor({ state: "visible" });
  // Wait for the dialog's animations (opening, sheet sizing) to finish, so the picture is final.
  await dialog.evaluate((d) => Promise.all(d.getAnimations({ subtree: true }).map((a) => a.finished)));
  await mkdir(SCREENS_DIR, { recursive: true });
  const file = path.join(SCREENS_DIR, `${name}.png`);
  await dialog.screenshot({ path: file, animations: "disabled" });
  return file;
}
