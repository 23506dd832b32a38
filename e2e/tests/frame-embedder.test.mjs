// The wallet frame's own embedder check, so that nothing rests on CSP alone. A page the app does not allow
// embeds the frame in a browser that does not enforce `frame-ancestors` (the test strips the header on its way
// in) and asks it, with the victim's access token, to get ready, unlock and sign — from its own origin and from
// a frame of the app's origin inside it. It gets no answer at all, the frame makes no wallet call and reads no
// storage. Two pages play the attacker: one on another port of localhost (same site as the wallet origin, so it
// shares the wallet's storage partition with the app in every browser) and one on 127.0.0.1 (another site).
// Everything runs twice: third-party storage partitioning off (Playwright's default) and on (stock Chrome).
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, describe } from "node:test";
import { verifyMessage } from "viem";
import { sharedBrowser } from "../lib/browser.mjs";
import { logIn, uniqueEmail } from "../lib/flows.mjs";
import { useStack } from "../lib/stack.mjs";
import { shownAddress, walletFrame } from "../lib/wallet.mjs";

const stack = useStack();
let elsewhere;

before(async () => {
  // Not one of the app's allowed origins: http://localhost:P and http://127.0.0.1:P.
  elsewhere = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<!doctype html><title>Elsewhere</title><p>another site</p>");
  });
  await new Promise((resolve) => elsewhere.listen(0, resolve));
});
after(() => new Promise((resolve) => elsewhere.close(resolve)));

const walletOrigin = () => new URL(stack.urls.api).origin;
const frameUrl = () => `${stack.urls.api}/apps/${stack.appId}/embedded-wallets?caid=e2e-embedder-test`;
const helperUrl = (origin, name) => `${origin}/__e2e-embedder/${name}`;

/**
 * Init script for every page and frame: in documents of the wallet origin, records each touch of
 * localStorage, sessionStorage and IndexedDB in `window.__storageTouches` (before the page's own code runs).
 */
function watchStorage(origin) {
  if (location.origin !== origin) return;
  const touches = [];
  Object.defineProperty(window, "__storageTouches", { value: touches });
  for (const name of ["localStorage", "sessionStorage", "indexedDB"]) {
    const owner = Object.getOwnPropertyDescriptor(window, name) ? window : Window.prototype;
    const descriptor = Object.getOwnPropertyDescriptor(owner, name);
    Object.defineProperty(owner, name, {
      configurable: true,
      enumerable: descriptor.enumerable,
      get() {
        touches.push(name);
        return descriptor.get.call(this);
      },
    });
  }
  for (const method of ["getItem", "setItem", "removeItem", "key", "clear"]) {
    const original = Storage.prototype[method];
    Storage.prototype[method] = function (...args) {
      touches.push(`Storage.${method}`);
      return original.apply(this, args);
    };
  }
  const open = IDBFactory.prototype.open;
  IDBFactory.prototype.open = function (...args) {
    touches.push(`indexedDB.open(${args[0]})`);
    return open.apply(this, args);
  };
}

/**
 * Runs in a window: posts `privy:iframe:ready` to the wallet frame every 150 ms until it answers or `readyMs`
 * pass, then `privy:wallets:connect` and a `personal_sign` `privy:wallets:rpc`, each waiting up to `answerMs`. The frame is
 * the child frame named `probe-target` of this window (`target: "child"`) or of its parent (`"sibling"`).
 * Returns every answer.
 */
async function probeInWindow({ target, token, address, message, readyMs, answerMs }) {
  const frame = (target === "child" ? window : window.parent).frames["probe-target"];
  const answers = [];
  const waiting = new Map();
  window.addEventListener("message", (event) => {
    const id = String(event.data?.id);
    if (!id.startsWith("probe-")) return;
    answers.push({ origin: event.origin, ...event.data });
    waiting.get(id)?.();
  });
  let n = 0;
  const send = (event, data, ms) =>
    new Promise((resolve) => {
      const id = `probe-${n++}`;
      const timer = setTimeout(resolve, ms);
      waiting.set(id, () => {
        clearTimeout(timer);
        resolve();
      });
      frame.postMessage({ id, event, data }, "*");
    });
  const started = Date.now();
  while (Date.now() - started < readyMs && answers.length === 0) await send("privy:iframe:ready", {}, 150);
  const entropy = { entropyId: address, entropyIdVerifier: "ethereum-address-verifier" };
  await send("privy:wallets:connect", { accessToken: token, ...entropy }, answerMs);
  await send(
    "privy:wallets:rpc",
    {
      accessToken: token,
      ...entropy,
      hdWalletIndex: 0,
      request: { method: "personal_sign", params: [message, address] },
    },
    answerMs,
  );
  return answers;
}

/** Appends `<iframe src=url name=name>` to the page's body and waits for its load. */
function embed(page, url, name = "probe-target") {
  return page.evaluate(
    ({ src, name }) =>
      new Promise((resolve) => {
        const iframe = document.createElement("iframe");
        iframe.name = name;
        iframe.src = src;
        iframe.onload = () => resolve();
        document.body.append(iframe);
      }),
    { src: url, name },
  );
}

/** The wallet frames (wallet origin, `/apps/…`) of `page`. */
const walletFramesIn = (page) => page.frames().filter((f) => f.url().startsWith(`${walletOrigin()}/apps/`));

for (const storagePartitioning of [false, true]) {
  describe(`third-party storage partitioning ${storagePartitioning ? "on" : "off"}`, () => {
    const step = sharedBrowser({ storagePartitioning });
    const email = uniqueEmail(`embedder-${storagePartitioning ? "on" : "off"}`);
    let address;
    let token;

    step(
      "set-up: helper pages; the user signs up on the app and gets a wallet",
      async ({ context, page }) => {
        await context.addInitScript(watchStorage, walletOrigin());
        // Blank pages at the app's and the wallet's origins (the test's own; the server never sees them). Such
        // a page cannot load the real frame (no address: Local Network Access blocks its loopback requests).
        for (const origin of [new URL(stack.urls.web).origin, walletOrigin()]) {
          await context.route(`${origin}/__e2e-embedder/**`, (route) =>
            route.fulfill({
              status: 200,
              contentType: "text/html",
              body: "<!doctype html><title>helper</title>",
            }),
          );
        }
        context.on("request", (request) => {
          const authorization = request.headers().authorization;
          if (authorization?.startsWith("Bearer ") && request.url().startsWith(walletOrigin()))
            token = authorization.slice(7);
        });
        const created = page.waitForResponse(
          (r) => r.url().endsWith("/api/v1/embedded_wallets") && r.request().method() === "POST",
        );
        await logIn(page, stack, email);
        assert.equal((await created).status(), 200);
        address = await shownAddress(page);
        assert.ok(token, "the host sent an access token");
      },
    );

    step(
      "the frame keeps the wallet's entries under the app id and the embedding origin",
      async ({ page }) => {
        const frame = await walletFrame(page, stack);
        const scope = `symbolon[${stack.appId} ${new URL(stack.urls.web).origin}]:`;
        const { local, deviceKeys } = await frame.evaluate(
          () =>
            new Promise((resolve, reject) => {
              const local = Object.keys(localStorage);
              const open = indexedDB.open("symbolon-wallet");
              open.onerror = () => reject(open.error);
              open.onsuccess = () => {
                const all = open.result.transaction("device-keys").objectStore("device-keys").getAllKeys();
                all.onsuccess = () => resolve({ local, deviceKeys: all.result });
              };
            }),
        );
        assert.ok(local.length >= 2, `device key and share in localStorage: ${local}`);
        assert.ok(deviceKeys.length >= 1, "a device key in IndexedDB");
        for (const key of [...local, ...deviceKeys])
          assert.ok(key.startsWith(scope), `${key} is under ${scope}`);
      },
    );

    step(
      `storage partitioning is really ${storagePartitioning ? "on" : "off"} in this browser`,
      async ({ context }) => {
        // A wallet-origin frame under another site writes a value; the wallet origin at top level reads it.
        const page = await context.newPage();
        try {
          await page.goto(`http://127.0.0.1:${elsewhere.address().port}/`);
          await embed(page, helperUrl(walletOrigin(), "write"), "write");
          const inFrame = page.frames().find((f) => f.url().includes("/__e2e-embedder/write"));
          const written = await inFrame.evaluate(() => {
            try {
              localStorage.setItem("e2e-partition-probe", "from a cross-site frame");
              return "written";
            } catch (error) {
              return `refused: ${error.name}`;
            }
          });
          await page.goto(helperUrl(walletOrigin(), "read"));
          const seen = await page.evaluate(() => localStorage.getItem("e2e-partition-probe"));
          console.log(
            `partitioning ${storagePartitioning ? "on" : "off"}: cross-site frame ${written}; top level sees ${seen}`,
          );
          const partitioned = written === "written" && seen === null;
          assert.equal(partitioned, storagePartitioning, `frame: ${written}, top level: ${seen}`);
        } finally {
          await page.close();
        }
      },
    );

    step(
      "control: a page on the app's origin embedding the frame gets ready, an unlock and a signature",
      async ({ context }) => {
        const page = await context.newPage();
        try {
          // The app's own page (it runs its hidden wallet frame too); the probe talks to the frame it added.
          await page.goto(stack.urls.web);
          await embed(page, frameUrl());
          const message = "control signature";
          const answers = await page.evaluate(probeInWindow, {
            target: "child",
            token,
            address,
            message,
            readyMs: 15_000,
            answerMs: 15_000,
          });
          const answerTo = (event) => answers.find((a) => a.event === event);
          const [ready, connect, rpc] = [
            "privy:iframe:ready",
            "privy:wallets:connect",
            "privy:wallets:rpc",
          ].map(answerTo);
          assert.ok(ready, JSON.stringify(answers));
          assert.deepEqual(connect?.data, { entropyId: address }, JSON.stringify(answers));
          assert.equal(rpc?.data?.response?.method, "personal_sign", JSON.stringify(answers));
          assert.equal(await verifyMessage({ address, message, signature: rpc.data.response.data }), true);
          const frame = walletFramesIn(page).find((f) => f.url() === frameUrl());
          assert.ok(
            (await frame.evaluate(() => window.__storageTouches.length)) > 0,
            "the watcher sees storage use",
          );
        } finally {
          await page.close();
        }
      },
    );

    for (const [where, host] of [
      ["same-site (localhost, another port)", "localhost"],
      ["cross-site (127.0.0.1)", "127.0.0.1"],
    ]) {
      step(
        `a ${where} page the app does not allow, CSP not enforced: no answer, no unlock, no signature, no storage read`,
        async ({ context }) => {
          const evilOrigin = `http://${host}:${elsewhere.address().port}`;
          // A browser that ignores frame-ancestors: the frame page arrives without its CSP.
          const stripCsp = async (route) => {
            const response = await route.fetch();
            const headers = { ...response.headers() };
            delete headers["content-security-policy"];
            await route.fulfill({ response, headers });
          };
          await context.route(`${walletOrigin()}/apps/**`, stripCsp);
          const page = await context.newPage();
          const frameCalls = [];
          const onRequest = (request) => {
            let from = "";
            try {
              from = request.frame().url();
            } catch {}
            if (from.startsWith(`${walletOrigin()}/apps/`) && request.url().includes("/api/"))
              frameCalls.push(request.url());
          };
          context.on("request", onRequest);
          const refusal = page.waitForEvent("console", {
            predicate: (m) => m.text().includes(`embedded by ${evilOrigin}, which this app does not allow`),
            timeout: 15_000,
          });
          try {
            await page.goto(`${evilOrigin}/`);
            // The wallet frame ("probe-target") and a page of the app's own origin ("inside") in the attacker's page.
            await embed(page, frameUrl());
            await embed(page, helperUrl(new URL(stack.urls.web).origin, "inside"), "inside");
            await refusal;
            const inside = page.frames().find((f) => f.url().includes("/__e2e-embedder/inside"));
            const probe = { token, address, message: "attacker's message", readyMs: 4_000, answerMs: 2_000 };
            const [fromPage, fromAppOrigin] = await Promise.all([
              page.evaluate(probeInWindow, { ...probe, target: "child" }),
              inside.evaluate(probeInWindow, { ...probe, target: "sibling" }),
            ]);
            assert.deepEqual(fromPage, [], "answers to the attacker's page");
            assert.deepEqual(fromAppOrigin, [], "answers to the app-origin frame inside it");
            assert.deepEqual(frameCalls, [], "the frame called the server");
            const frames = walletFramesIn(page);
            assert.equal(frames.length, 1);
            assert.deepEqual(
              await frames[0].evaluate(() => window.__storageTouches),
              [],
              "storage the frame touched",
            );
          } finally {
            context.off("request", onRequest);
            await context.unroute(`${walletOrigin()}/apps/**`, stripCsp);
            await page.close();
          }
        },
      );
    }
  });
}
