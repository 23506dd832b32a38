// One Chromium per test: Debian's /usr/bin/chromium driven by playwright-core, with a throw-away profile.
// Every request that does not go to this machine is aborted, so a test never depends on the internet.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../artifacts");
/** The flags this machine's Chromium needs (shared/notes/toolchain.md); also used by the wasm vector tests. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
/**
 * The `--disable-features` list playwright-core 1.65.1 passes by default (its chromiumSwitches.ts). It turns
 * ThirdPartyStoragePartitioning off, unlike stock Chrome; `storagePartitioning: true` drops that argument and
 * passes the same list without it. A new playwright-core may change the list: `frame-embedder.test.mjs`
 * measures which mode the browser is really in.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion",
];

/**
 * Launches a fresh browser profile.
 * `storagePartitioning: true` turns third-party storage partitioning on, as in stock Chrome (Playwright's
 * default turns it off).
 * @param {{ viewport?: { width: number, height: number }, colorScheme?: 'light' | 'dark',
 *   storagePartitioning?: boolean }} [options]
 */
export async function launch({
  viewport = { width: 1280, height: 800 },
  colorScheme = "light",
  storagePartitioning = false,
} = {}) {
  const profile = await mkdtemp(path.join(tmpdir(), "symbolon-e2e-profile-"));
  const partitioning = storagePartitioning
    ? {
        ignoreDefaultArgs: [`--disable-features=${PLAYWRIGHT_DISABLED_FEATURES.join(",")}`],
        extraArgs: [
          `--disable-features=${PLAYWRIGHT_DISABLED_FEATURES.filter((f) => f !== "ThirdPartyStoragePartitioning").join(",")}`,
        ],
      }
    : { extraArgs: [] };
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [...CHROMIUM_ARGS, ...partitioning.extraArgs],
    ...(partitioning.ignoreDefaultArgs ? { ignoreDefaultArgs: partitioning.ignoreDefaultArgs } : {}),
    headless: true,
    viewport,
    colorScheme,
  });
  const blocked = [];
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === "data:" || url.protocol === "blob:" || LOCAL_HOSTS.has(url.hostname))
      return route.continue();
    blocked.push(url.href);
    return route.abort("blockedbyclient");
  });
  const consoleLines = [];
  const watchPage = (page) => {
    const tag = `page${context.pages().indexOf(page)}`;
    page.on("console", (m) => consoleLines.push(`[${tag}] ${m.type()}: ${m.text()}`));
    page.on("pageerror", (e) => consoleLines.push(`[${tag}] pageerror: ${e.stack ?? e.message}`));
    page.on("requestfailed", (r) =>
      consoleLines.push(`[${tag}] requestfailed: ${r.method()} ${r.url()} ${r.failure()?.errorText}`),
    );
  };
  context.on("page", watchPage);
  for (const page of context.pages()) watchPage(page);
  const page = context.pages()[0] ?? (await context.newPage());

  return {
    context,
    page,
    blocked,
    consoleLines,
    /** Screenshots of every open page plus the console log, under e2e/artifacts/<name>-*. */
    async saveArtifacts(name) {
      const slug = name
        .replace(/[^a-z0-9]+/gi, "-")
        .replace(/^-|-$/g, "")
        .toLowerCase();
      await mkdir(ARTIFACTS, { recursive: true });
      const pages = context.pages();
      for (const [i, p] of pages.entries()) {
        await p
          .screenshot({ path: path.join(ARTIFACTS, `${slug}-page${i}.png`), fullPage: true })
          .catch(() => {});
      }
      await writeFile(path.join(ARTIFACTS, `${slug}-console.log`), `${consoleLines.join("\n")}\n`);
      return path.join(ARTIFACTS, slug);
    },
    async close() {
      await context.close().catch(() => {});
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * A `node:test` test with a fresh browser; on failure it saves screenshots and the console log first.
 * @param {string} name
 * @param {(b: Awaited<ReturnType<typeof launch>>) => Promise<void>} body
 * @param {Parameters<typeof launch>[0]} [options]
 */
export function browserTest(name, body, options) {
  test(name, async () => {
    const browser = await launch(options);
    try {
      await runSavingArtifacts(browser, name, body);
    } finally {
      await browser.close();
    }
  });
}

/**
 * Several tests sharing one browser, in order (later tests build on earlier ones, e.g. sign in → reload).
 * Returns `step(name, body)`, which registers a test that saves artifacts when it fails.
 * @param {Parameters<typeof launch>[0]} [options]
 */
export function sharedBrowser(options) {
  let browser;
  before(async () => {
    browser = await launch(options);
  });
  after(async () => {
    await browser?.close();
  });
  return (name, body) => test(name, () => runSavingArtifacts(browser, name, body));
}

/** Runs a test body; when it fails, saves screenshots and console logs under the test's name first. */
async function runSavingArtifacts(browser, name, body) {
  try {
    await body(browser);
  } catch (error) {
    const where = await browser.saveArtifacts(name).catch(() => null);
    if (where) console.error(`artifacts: ${where}-*`);
    throw error;
  }
}
