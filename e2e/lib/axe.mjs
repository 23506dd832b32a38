// axe-core scans for the e2e suite: the modal's screens and the cross-app pages.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** Serious and critical axe violations on `page` as it is now, as readable strings. */
export async function axeViolations(page) {
  // The pages' CSP refuses inline scripts (addScriptTag); an evaluated script is not subject to it.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(await readFile(AXE, "utf8"));
  const violations = await page.evaluate(async () => {
    const result = await /** @type {any} */ (window).axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target.join(" ")),
    }));
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).join(", ")}`);
}
