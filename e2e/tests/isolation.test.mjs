// Isolation proof: while a user creates a wallet, signs, sends, recovers on a new device and exports the key,
// the test records everything the HOST side (the web app's origin) ever holds — its requests and responses,
// the messages its windows receive, its storage and its DOM. It then rebuilds every secret (entropy, mnemonic,
// the three shares of both splits, the private key) from what the WALLET origin exchanged, checks the rebuild
// against the real address and the key the export page showed, and asserts none of it is on the host side.
import assert from "node:assert/strict";
import { privateKeyToAccount } from "viem/accounts";
import { sharedBrowser } from "../lib/browser.mjs";
import { expectSignedOut, logIn, uniqueEmail } from "../lib/flows.mjs";
import { findNeedles, needlesOf, secretsOfSplit } from "../lib/secrets.mjs";
import { useStack } from "../lib/stack.mjs";
import {
  clearWalletStorage,
  confirmInModal,
  RECIPIENT,
  readHex,
  shownAddress,
  signMessageInUi,
  waitForBalance,
  walletOrigin,
} from "../lib/wallet.mjs";

const stack = useStack();
const step = sharedBrowser();
const email = uniqueEmail("isolation");

/** Everything seen on the host side, as text. */
const host = [];
/** What the wallet origin sent to and got from the server: the shares of each split. */
const splits = [];
const pending = [];
let address;
let accessToken;
let exportedKey;

/** The URL of the document that made `request` ("" for service-worker requests, which have none). */
function frameUrlOf(request) {
  try {
    return request.frame().url();
  } catch {
    return "";
  }
}

/** Every host-origin page's storage and DOM, appended to `host`. */
async function snapshotHost(context, label) {
  const webOrigin = new URL(stack.urls.web).origin;
  for (const page of context.pages()) {
    for (const frame of page.frames()) {
      if (!frame.url().startsWith(webOrigin)) continue;
      const snapshot = await frame.evaluate(async () => {
        const dump = (storage) =>
          Object.fromEntries(Object.keys(storage).map((k) => [k, storage.getItem(k)]));
        const databases = [];
        for (const { name } of (await indexedDB.databases?.()) ?? []) {
          const db = await new Promise((resolve, reject) => {
            const open = indexedDB.open(name);
            open.onsuccess = () => resolve(open.result);
            open.onerror = () => reject(open.error);
          });
          for (const store of db.objectStoreNames) {
            const rows = await new Promise((resolve) => {
              const request = db.transaction(store).objectStore(store).getAll();
              request.onsuccess = () => resolve(request.result);
              request.onerror = () => resolve([]);
            });
            databases.push({ name, store, rows });
          }
          db.close();
        }
        const caches = globalThis.caches ? await globalThis.caches.keys() : [];
        return {
          local: dump(localStorage),
          session: dump(sessionStorage),
          cookie: document.cookie,
          databases,
          caches,
          dom: document.documentElement.outerHTML,
        };
      });
      host.push(`[${label} storage+dom ${frame.url()}] ${JSON.stringify(snapshot)}`);
    }
  }
}

step("set up recording of the host side and the wallet origin's share traffic", async ({ context }) => {
  const webOrigin = new URL(stack.urls.web).origin;
  const apiOrigin = walletOrigin(stack);
  await context.exposeBinding("__symbolonRecordHostMessage", (_source, text) =>
    host.push(`[message] ${text}`),
  );
  // Runs in every document; only host-origin documents record what they receive.
  await context.addInitScript(
    ({ webOrigin }) => {
      if (location.origin !== webOrigin) return;
      window.addEventListener("message", (event) => {
        let text;
        try {
          text = JSON.stringify({ origin: event.origin, data: event.data });
        } catch {
          text = String(event.data);
        }
        window.__symbolonRecordHostMessage(text);
      });
    },
    { webOrigin },
  );
  context.on("request", (request) => {
    const from = frameUrlOf(request);
    if (from.startsWith(webOrigin)) {
      host.push(
        `[request ${request.method()} ${request.url()}] ${JSON.stringify(request.headers())} ${request.postData() ?? ""}`,
      );
      const authorization = request.headers().authorization;
      if (authorization?.startsWith("Bearer ") && request.url().startsWith(apiOrigin))
        accessToken = authorization.slice(7);
    }
  });
  context.on("response", (response) => {
    const request = response.request();
    const from = frameUrlOf(request);
    if (from.startsWith(webOrigin)) {
      pending.push(
        response
          .text()
          .then((body) => host.push(`[response ${response.status()} ${response.url()}] ${body}`))
          .catch(() => {}),
      );
    } else if (from.startsWith(apiOrigin) && response.url().includes("/api/v1/embedded_wallets")) {
      // The wallet origin's own traffic: where the shares come from.
      const body = request.postDataJSON?.() ?? null;
      if (body?.auth_share && body?.recovery_share) {
        splits.push({ authShare: body.auth_share, recoveryShare: body.recovery_share, url: response.url() });
      }
    }
  });
});

step("create: a new user signs in and gets a wallet", async ({ context, page }) => {
  await logIn(page, stack, email);
  address = await shownAddress(page);
  await snapshotHost(context, "after create");
});

step("sign: a message and typed data", async ({ context, page }) => {
  await signMessageInUi(page, "isolation check");
  await page.getByRole("button", { name: "Sign typed data" }).click();
  await confirmInModal(page, "Sign");
  await readHex(page, "typed-signature");
  await snapshotHost(context, "after signing");
});

step("send: faucet, then 0.01 STT", async ({ context, page }) => {
  await page.getByRole("button", { name: "Get test STT" }).click();
  await waitForBalance(page, (b) => b >= 1);
  await page.getByLabel("Recipient").fill(RECIPIENT);
  await page.getByLabel("Amount (STT)").fill("0.01");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await confirmInModal(page, "Send");
  await readHex(page, "tx-hash", 30_000);
  await snapshotHost(context, "after send");
});

step("recover: a new device (frame storage wiped) gets the same wallet back", async ({ context, page }) => {
  await page.getByRole("button", { name: "Log out" }).click();
  await expectSignedOut(page);
  await clearWalletStorage(context, page, stack);
  await page.reload();
  await logIn(page, stack, email);
  assert.equal(await shownAddress(page), address);
  await signMessageInUi(page, "after recovery");
  await snapshotHost(context, "after recovery");
});

step("export: the key is shown inside the wallet-origin page only", async ({ context, page }) => {
  await page.getByRole("button", { name: "Export private key" }).click();
  const exportFrame = page.frameLocator('iframe[title="Export wallet"]');
  await exportFrame.getByRole("button", { name: "Reveal private key" }).click();
  const field = exportFrame.getByRole("textbox");
  await field.waitFor({ state: "visible" });
  exportedKey = (await field.inputValue()).trim();
  assert.match(exportedKey, /^0x[0-9a-f]{64}$/i);
  assert.equal(privateKeyToAccount(exportedKey).address, address, "the exported key is the wallet's");
  await snapshotHost(context, "during export");
});

step("host script holding the access token cannot fetch shares from the server", async ({ page }) => {
  assert.ok(accessToken, "the host sent an access token");
  const result = await page.evaluate(
    async ({ api, address, token }) => {
      try {
        const response = await fetch(`${api}/api/v1/embedded_wallets/${address}/recovery/key_material`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ chain_type: "ethereum" }),
        });
        return { status: response.status, body: await response.text() };
      } catch (error) {
        return { error: String(error) };
      }
    },
    { api: stack.urls.api, address, token: accessToken },
  );
  assert.ok(result.error || result.status === 403, JSON.stringify(result));
  assert.ok(!result.body?.includes("auth_share"), JSON.stringify(result));
});

step("none of the secrets ever reached the host side", async () => {
  await Promise.all(pending);
  assert.equal(splits.length, 2, `two splits (creation, recovery): ${splits.map((s) => s.url).join(", ")}`);
  const needles = [];
  for (const [i, split] of splits.entries()) {
    // Only the latest split's key was exported; both splits hold the same entropy and key.
    const secrets = await secretsOfSplit({
      ...split,
      address,
      exportedKey: i === splits.length - 1 ? exportedKey : undefined,
    });
    needles.push(...needlesOf(secrets).map((n) => ({ ...n, name: `split ${i + 1}: ${n.name}` })));
  }
  // The search does find a secret where there is one (the exported key as the export page showed it).
  assert.ok(findNeedles(needles, `…${exportedKey}…`).some((n) => n.name.endsWith("private key (hex)")));
  const haystack = host.join("\n");
  assert.ok(haystack.length > 10_000, `recorded ${haystack.length} characters of host-side data`);
  assert.ok(haystack.includes(address.slice(2)), "the recording does see public wallet data (address)");
  assert.ok(
    host.some((line) => line.startsWith("[message]") && line.includes("privy:")),
    "the recording does see the frame's answers",
  );
  assert.deepEqual(
    findNeedles(needles, haystack).map((n) => n.name),
    [],
    "secrets found on the host side",
  );
});
