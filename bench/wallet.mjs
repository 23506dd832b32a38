// Wallet benchmarks in Chromium on loopback (part of `make bench`):
// - creation: in the real web app, from the moment the login answer arrives to the wallet address being shown;
// - personal_sign: warm round trips through @symbolon/core with headless signing, from the call to the signature;
// - the wallet frame's download: gzip size of its JS, wasm and CSS.
import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, mailboxClient, startStack } from "@symbolon/stack";
import { build } from "esbuild";
import { launch } from "../e2e/lib/browser.mjs";
import { enterCode, openLoginModal, requestCode, uniqueEmail } from "../e2e/lib/flows.mjs";
import { FRAME_BUDGET_BYTES, measureFrame } from "../packages/wallet-frame/scripts/frameSizes.mjs";
import { unlimited } from "./rateLimits.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** p50 / p95 / max of `samples` (ms). */
function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const round = (n) => +n.toFixed(2);
  return { n: sorted.length, p50: round(at(0.5)), p95: round(at(0.95)), max: round(sorted.at(-1)) };
}

/** Records, in the web app's page, when the login answer arrived and when the wallet address appeared. */
function creationProbe(webOrigin) {
  if (location.origin !== webOrigin) return;
  const marks = {};
  window.__walletBench = marks;
  const fetch = window.fetch;
  window.fetch = async (...args) => {
    const response = await fetch(...args);
    const url = String(args[0]?.url ?? args[0]);
    if (url.endsWith("/passwordless/authenticate")) marks.loginAt = performance.now();
    return response;
  };
  new MutationObserver(() => {
    if (marks.shownAt) return;
    const shown = document.querySelector('[data-testid="wallet-address"]')?.textContent?.trim() ?? "";
    if (/^0x[0-9a-fA-F]{40}$/.test(shown)) marks.shownAt = performance.now();
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

async function benchCreation(stack, samples) {
  const browser = await launch();
  const times = [];
  try {
    const { page, context } = browser;
    await context.addInitScript(creationProbe, new URL(stack.urls.web).origin);
    const handle = { ...stack, mailbox: mailboxClient(stack.urls.inbox) };
    for (let i = 0; i < samples; i++) {
      await openLoginModal(page, handle);
      const code = await requestCode(page, handle, uniqueEmail(`bench-create-${i}`));
      await enterCode(page, code);
      await page.getByTestId("wallet-address").waitFor({ state: "visible", timeout: 60_000 });
      await page.waitForFunction(() => window.__walletBench?.shownAt, undefined, { timeout: 10_000 });
      const { loginAt, shownAt } = await page.evaluate(() => window.__walletBench);
      times.push(shownAt - loginAt);
      await page.getByRole("button", { name: "Log out" }).click();
      await page.getByRole("button", { name: "Log in" }).waitFor({ state: "visible" });
    }
  } finally {
    await browser.close();
  }
  return summarize(times);
}

/** Serves the core-only harness page (bundled with esbuild) on `port`. */
async function serveHarness(port) {
  const dir = await mkdtemp(path.join(tmpdir(), "symbolon-bench-harness-"));
  await build({
    entryPoints: [path.join(root, "bench/wallet/harness.ts")],
    bundle: true,
    format: "esm",
    minify: true,
    outfile: path.join(dir, "harness.js"),
    logLevel: "warning",
  });
  writeFileSync(
    path.join(dir, "index.html"),
    '<!doctype html><meta charset="utf-8"><title>wallet bench</title><script type="module" src="/harness.js"></script>',
  );
  const server = createServer((req, res) => {
    const file = req.url === "/harness.js" ? "harness.js" : "index.html";
    res.writeHead(200, { "content-type": file.endsWith(".js") ? "text/javascript" : "text/html" });
    res.end(readFileSync(path.join(dir, file)));
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://localhost:${port}/`,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Signs in the harness, measures warm signing, then delegates the wallet; the sign summary and the address. */
async function benchSigning(stack, harness, { warmup, samples }) {
  const browser = await launch();
  try {
    const { page } = browser;
    await page.goto(harness.url);
    await page.waitForFunction(() => window.bench);
    await page.evaluate((o) => window.bench.start(o), { appId: stack.appId, apiUrl: stack.urls.api });
    const email = uniqueEmail("bench-sign");
    const mailbox = mailboxClient(stack.urls.inbox);
    const after = await mailbox.lastId(email);
    await page.evaluate((e) => window.bench.sendCode(e), email);
    const code = await mailbox.waitForCode(email, { after });
    await page.evaluate((c) => window.bench.login(c), code);
    await page.evaluate((n) => window.bench.sign(n), warmup);
    const sign = summarize(await page.evaluate((n) => window.bench.sign(n), samples));
    const delegated = await page.evaluate(() => window.bench.delegate());
    return { sign, delegated };
  } finally {
    await browser.close();
  }
}

/**
 * Runs the wallet benchmarks against a fresh stack (release server unless `bin` says otherwise).
 * `walletApi(stack, walletId)`: runs the wallet-API load (a host back end signing with the delegated wallet).
 * @param {{ bin?: string, creationSamples?: number, signSamples?: number,
 *   walletApi?: (stack: object, walletId: string) => Promise<object> }} [options]
 */
export async function benchWallet({ bin, creationSamples = 20, signSamples = 200, walletApi } = {}) {
  const harnessPort = await freePort();
  const harnessOrigin = `http://localhost:${harnessPort}`;
  const stack = await startStack({
    mode: "bench",
    web: "preview",
    chain: true,
    bin,
    origins: [harnessOrigin],
    rateLimits: unlimited,
  });
  const harness = await serveHarness(harnessPort);
  try {
    const creation = await benchCreation(stack, creationSamples);
    const { sign, delegated } = await benchSigning(stack, harness, { warmup: 20, samples: signSamples });
    const listed = await fetch(`${stack.urls.api}/v1/wallets?address=${delegated}`, {
      headers: {
        "privy-app-id": stack.appId,
        authorization: `Basic ${Buffer.from(`${stack.appId}:${stack.appSecret}`).toString("base64")}`,
      },
    }).then((r) => r.json());
    const walletId = listed.data?.[0]?.id;
    if (!walletId || !listed.data[0].delegated)
      throw new Error(`the delegated wallet is not listed: ${JSON.stringify(listed)}`);
    return {
      creation,
      sign,
      walletApi: walletApi ? await walletApi(stack, walletId) : null,
      frame: measureFrame(),
      targets: { creationP95Ms: 300, signP95Ms: 5, frameGzipBytes: FRAME_BUDGET_BYTES },
    };
  } finally {
    await harness.close();
    await stack.stop();
  }
}
