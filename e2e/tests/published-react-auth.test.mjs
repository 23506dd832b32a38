// The spec vendor's published React client, `@privy-io/react-auth` 3.x (Apache-2.0), as an existing host app
// runs it: the stock `<PrivyProvider>` with `apiUrl` at our server, its own login modal, its own wallet hooks.
// Two versions (e2e/lib/publishedClient.mjs): 3.3.0 and the newest 3.x when last bumped. Cross-site like a real
// deployment: the page on http://127.0.0.1:P, our server (and its wallet frame) on its public URL, http://localhost:Q, with
// Chromium's third-party storage partitioning on, as in stock Chrome. Per version, in one browser: the provider
// gets ready; email login through the published modal (the code read from the mail catcher); an embedded wallet
// created on login through our wallet frame; `useSignMessage` and the wallet's EIP-1193 `personal_sign` give
// signatures viem verifies; after a reload the session is back and signs again; `exportWallet()` loads our export
// page; after `logout()` neither the old provider nor a request posted straight to the wallet frame signs.
// Every answer >= 400 from our server, every request to it that failed and every error the wallet frame answered
// is logged and saved under e2e/artifacts/published-react-auth-<version>-network.log;
// SYMBOLON_E2E_TRACE_FRAME=1 also saves every message between the client and the frame (tokens redacted) to
// e2e/artifacts/published-react-auth-<version>-frame.log.
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe } from "node:test";
import { fileURLToPath } from "node:url";
import { backEnd } from "@symbolon/stack";
import { verifyMessage } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { sharedBrowser } from "../lib/browser.mjs";
import { uniqueEmail } from "../lib/flows.mjs";
import { installedVersion, PUBLISHED_CLIENTS, publishedClientUrl } from "../lib/publishedClient.mjs";
import { useStack } from "../lib/stack.mjs";

const stack = useStack({ publishedClients: true });
const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../artifacts");
/** How long one call into the published client may take before the test calls it hung. */
const CALL_MS = 30_000;
/** SYMBOLON_E2E_TRACE_FRAME=1: also save every frame message to e2e/artifacts/published-react-auth-<version>-frame.log. */
const TRACE = Boolean(process.env.SYMBOLON_E2E_TRACE_FRAME);

const serverOrigin = () => new URL(stack.urls.api).origin;

/** Waits until the page shows `value` in the element with `testId`. */
async function shows(page, testId, value, timeout = 30_000) {
  await page.waitForFunction(
    ({ id, want }) => document.querySelector(`[data-testid="${id}"]`)?.textContent === want,
    { id: testId, want: value },
    { timeout },
  );
}

/** Waits until the page shows an Ethereum address in the element with `testId`; returns it. */
async function shownAddress(page, testId, timeout = 30_000) {
  const handle = await page.waitForFunction(
    (id) => {
      const text = document.querySelector(`[data-testid="${id}"]`)?.textContent ?? "";
      return /^0x[0-9a-fA-F]{40}$/.test(text) ? text : false;
    },
    testId,
    { timeout },
  );
  return handle.jsonValue();
}

/**
 * Calls `window.hostApp[name](...args)` in the page (the hooks of app.jsx) and returns its answer; a call that
 * neither answers nor fails within `ms` fails as hung.
 */
function callHost(page, name, args = [], ms = CALL_MS) {
  return page.evaluate(
    async ({ name, args, ms }) => {
      if (!window.hostApp) throw new Error("the host app has not rendered");
      let timer;
      const hung = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`hostApp.${name}() did not settle within ${ms} ms`)), ms);
      });
      try {
        return await Promise.race([window.hostApp[name](...args), hung]);
      } finally {
        clearTimeout(timer);
      }
    },
    { name, args, ms },
  );
}

/** What a failed call said, for assertion messages. */
const said = (error) => String(error?.message ?? error).split("\n")[0];

/** Hex of a UTF-8 string, as `personal_sign` takes it. */
const toHex = (text) => `0x${Buffer.from(text, "utf8").toString("hex")}`;

/**
 * Posts `{id, event: "privy:wallets:rpc", data}` from the page straight to the hidden wallet frame (as the
 * published client does, with the given access token) and waits up to `ms` for the answer with that id.
 * Returns `{ found: false }` when the page has no wallet frame, else `{ found: true, answer }` (`answer` null
 * when none came).
 */
function postRpcToFrame(page, { frameOrigin, appId, accessToken, address, message, ms = 10_000 }) {
  return page.evaluate(
    ({ frameOrigin, appId, accessToken, address, hexMessage, ms }) => {
      const iframe = [...document.querySelectorAll("iframe")].find((f) =>
        f.src.startsWith(`${frameOrigin}/apps/${appId}/embedded-wallets?`),
      );
      if (!iframe?.contentWindow) return { found: false };
      const id = `e2e-direct-${Math.random().toString(36).slice(2)}`;
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          window.removeEventListener("message", onMessage);
          resolve({ found: true, answer: null });
        }, ms);
        function onMessage(event) {
          if (event.origin !== frameOrigin || event.data?.id !== id) return;
          clearTimeout(timer);
          window.removeEventListener("message", onMessage);
          resolve({ found: true, answer: JSON.parse(JSON.stringify(event.data)) });
        }
        window.addEventListener("message", onMessage);
        iframe.contentWindow.postMessage(
          {
            id,
            event: "privy:wallets:rpc",
            data: {
              accessToken,
              entropyId: address,
              entropyIdVerifier: "ethereum-address-verifier",
              chainType: "ethereum",
              hdWalletIndex: 0,
              requesterAppId: appId,
              request: { method: "personal_sign", params: [hexMessage, address] },
            },
          },
          frameOrigin,
        );
      });
    },
    { frameOrigin, appId, accessToken, address, hexMessage: toHex(message), ms },
  );
}

/** Every 0x-hex string of 65 bytes (a signature) anywhere in `value`. */
function signaturesIn(value) {
  const found = [];
  const walk = (v) => {
    if (typeof v === "string" && /^0x[0-9a-fA-F]{130}$/.test(v)) found.push(v);
    else if (v && typeof v === "object") for (const x of Object.values(v)) walk(x);
  };
  walk(value);
  return found;
}

for (const { alias, label } of PUBLISHED_CLIENTS) {
  const version = installedVersion(alias);
  describe(`@privy-io/react-auth ${version} (${label})`, () => {
    const step = sharedBrowser({ storagePartitioning: true });
    const email = uniqueEmail(`published-${version.replaceAll(".", "-")}`);
    /** Answers >= 400 from our server, and requests to it that failed, as `METHOD path → status`. */
    const network = [];
    /** The wallet frame's error answers to the page. */
    const frameErrors = [];
    /** With SYMBOLON_E2E_TRACE_FRAME=1: every message between the published client and the wallet frame. */
    const trace = [];
    let address;
    /** Whether the first step ran (not filtered out), so there is a network log to write. */
    let started = false;

    /** The page's address for this version. */
    const pageUrl = () =>
      publishedClientUrl(stack.publishedClientOrigin, alias, {
        appId: stack.appId,
        apiUrl: stack.urls.api,
        chainRpc: stack.urls.chain,
      });

    /** Signs `message` with `useSignMessage` and asserts viem verifies it for the wallet's address. */
    async function signAndVerify(page, message) {
      const signature = await callHost(page, "signMessage", [message]);
      assert.match(String(signature), /^0x[0-9a-fA-F]{130}$/, `useSignMessage answered ${signature}`);
      assert.ok(
        await verifyMessage({ address, message, signature }),
        `useSignMessage: the signature does not verify for ${address}`,
      );
    }

    before(() => {
      assert.ok(stack.publishedClientOrigin, "no published-client pages: run through run.mjs or useStack");
    });

    after(async () => {
      if (!started) return;
      const lines = [
        ...(network.length ? network : ["(none)"]),
        "the wallet frame's error answers:",
        ...(frameErrors.length ? frameErrors : ["(none)"]),
      ];
      console.log(
        `react-auth ${version}: our server's answers >= 400 and failed requests:\n  ${lines.join("\n  ")}`,
      );
      await mkdir(ARTIFACTS, { recursive: true });
      await writeFile(
        path.join(ARTIFACTS, `published-react-auth-${version}-network.log`),
        `${lines.join("\n")}\n`,
      );
      if (TRACE) {
        await writeFile(
          path.join(ARTIFACTS, `published-react-auth-${version}-frame.log`),
          `${trace.join("\n")}\n`,
        );
      }
    });

    step(
      "the provider gets ready; email login in the published modal; a wallet is created on login",
      async ({ context, page }) => {
        started = true;
        const ours = (url) => url.startsWith(`${serverOrigin()}/`);
        // The path only: a query may carry a token (the export page's is in the fragment, never sent).
        const where = (request) => `${request.method()} ${new URL(request.url()).pathname}`;
        context.on("response", async (response) => {
          if (!ours(response.url()) || response.status() < 400) return;
          const body = await response.text().catch(() => "");
          network.push(`${where(response.request())} → ${response.status()} ${body.slice(0, 200)}`);
        });
        // The wallet frame's error answers, as the page receives them (with TRACE, every message both ways).
        await context.addInitScript(
          ({ frameOrigin, trace }) => {
            const redact = (data) =>
              JSON.stringify(data)
                .replace(/"(accessToken|recoveryAccessToken|token)":"[^"]*"/g, '"$1":"…"')
                .slice(0, 300);
            if (location.origin === frameOrigin) {
              // In the wallet frame: what the published client asks of it.
              if (trace)
                window.addEventListener("message", (e) => console.log(`[to the frame] ${redact(e.data)}`));
              return;
            }
            window.addEventListener("message", (e) => {
              if (e.origin !== frameOrigin || typeof e.data?.event !== "string") return;
              if (e.data.error)
                console.log(`[wallet-frame error] ${e.data.event}: ${JSON.stringify(e.data.error)}`);
              else if (trace) console.log(`[wallet-frame] ${redact(e.data)}`);
            });
          },
          { frameOrigin: serverOrigin(), trace: TRACE },
        );
        context.on("console", (message) => {
          const text = message.text();
          if (text.startsWith("[wallet-frame error]")) frameErrors.push(text);
          if (TRACE && /^\[(wallet-frame|to the frame)/.test(text)) trace.push(text);
        });
        context.on("requestfailed", (request) => {
          if (ours(request.url()))
            network.push(`${where(request)} → failed: ${request.failure()?.errorText}`);
        });

        // 1. ready
        await page.goto(pageUrl());
        await shows(page, "ready", "true");
        await shows(page, "authenticated", "false");
        assert.equal(await page.evaluate(() => window.hostApp.version), version);

        // 2. the published modal's own email flow
        await page.getByRole("button", { name: "Log in" }).click();
        const emailInput = page.locator("#email-input");
        await emailInput.waitFor({ state: "visible", timeout: 15_000 });
        const last = await stack.mailbox.lastId(email);
        await emailInput.fill(email);
        await page.getByRole("button", { name: "Submit" }).click();
        const code = await stack.mailbox.waitForCode(email, { after: last });
        const digits = page.getByRole("dialog").locator("input");
        const sixBoxes = () => document.querySelectorAll('[role="dialog"] input').length === 6;
        await page.waitForFunction(sixBoxes, undefined, { timeout: 15_000 });
        await digits.first().click();
        await page.keyboard.type(code);
        await shows(page, "authenticated", "true");
        await shows(page, "user-email", email);

        // 3. the embedded wallet, created on login through our wallet frame
        address = await shownAddress(page, "wallet-address");
        assert.equal(
          await shownAddress(page, "connected-wallet"),
          address,
          "useWallets() lists the same wallet",
        );
      },
    );

    step(
      "useSignMessage and the wallet's EIP-1193 personal_sign give signatures viem verifies",
      async ({ page }) => {
        assert.ok(address, "no wallet (an earlier step failed)");
        const failures = [];
        try {
          await signAndVerify(page, `react-auth ${version}: useSignMessage`);
        } catch (error) {
          failures.push(`useSignMessage: ${said(error)}`);
        }
        const message = `react-auth ${version}: EIP-1193 personal_sign`;
        try {
          const signature = await callHost(page, "providerSign", [message]);
          assert.match(String(signature), /^0x[0-9a-fA-F]{130}$/, `personal_sign answered ${signature}`);
          assert.ok(await verifyMessage({ address, message, signature }), "the signature does not verify");
        } catch (error) {
          failures.push(`EIP-1193 personal_sign: ${said(error)}`);
        }
        assert.deepEqual(failures, []);
      },
    );

    step("after a reload the session is restored and signs again", async ({ page }) => {
      assert.ok(address, "no wallet (an earlier step failed)");
      await page.reload();
      await shows(page, "ready", "true");
      await shows(page, "authenticated", "true");
      assert.equal(await shownAddress(page, "wallet-address"), address);
      // As a host app enables its sign button: once useWallets() lists the embedded wallet again.
      assert.equal(await shownAddress(page, "connected-wallet"), address);
      await signAndVerify(page, `react-auth ${version}: after a reload`);
    });

    step(
      "useHeadlessDelegatedActions delegates through our frame; @privy-io/node signs; revokeWallets stops it",
      async ({ page }) => {
        assert.ok(address, "no wallet (an earlier step failed)");
        await callHost(page, "delegate", [address]);
        await page.waitForFunction((a) => window.hostApp.delegated(a), address, { timeout: 10_000 });
        const back = await backEnd({
          ...stack.delegation,
          apiUrl: stack.urls.api,
          appId: stack.appId,
          appSecret: stack.appSecret,
        });
        const wallet = (await back.delegatedWallets()).find((w) => w.address === address);
        assert.ok(wallet, "the back end sees the wallet delegated");
        const message = `Sign in to the demo (react-auth ${version})`;
        const signature = await back.signMessage(wallet.id, message);
        assert.ok(await verifyMessage({ address, message, signature }), "the wallet's own signature");
        await callHost(page, "revokeDelegation");
        await page.waitForFunction((a) => !window.hostApp.delegated(a), address, { timeout: 10_000 });
        await assert.rejects(back.signMessage(wallet.id, message), (error) => {
          assert.equal(error.status, 403);
          assert.match(JSON.stringify(error.error ?? error.message), /user_has_not_delegated_wallet/);
          return true;
        });
      },
    );

    step("exportWallet() opens our export page in the published modal", async ({ page }) => {
      assert.ok(address, "no wallet (an earlier step failed)");
      const exportPath = `/apps/${stack.appId}/embedded-wallets/export`;
      const errorsBefore = frameErrors.length;
      const loaded = page
        .waitForResponse((r) => r.url().startsWith(`${serverOrigin()}${exportPath}?`), { timeout: CALL_MS })
        .then(
          (response) => ({ response }),
          (error) => ({ timeout: said(error) }),
        );
      // The published modal's failure screen ends the wait early (with its text).
      const failedInModal = page
        .getByRole("dialog")
        .getByText("Something went wrong")
        .waitFor({ timeout: CALL_MS })
        .then(
          async () => ({
            modal: ((await page.getByRole("dialog").textContent()) ?? "").replace(/\s+/g, " "),
          }),
          () => new Promise(() => {}),
        );
      // It settles when the user closes the modal: not awaited here.
      const exporting = callHost(page, "exportWallet", [], 120_000).then(
        () => "closed",
        (error) => said(error),
      );
      const outcome = await Promise.race([loaded, failedInModal, exporting.then((settled) => ({ settled }))]);
      const { response } = outcome;
      assert.ok(
        response,
        `no export page: ${JSON.stringify(outcome)}; the wallet frame's errors: ${JSON.stringify(
          frameErrors.slice(errorsBefore),
        )}`,
      );
      assert.equal(response.status(), 200, `the export page answered ${response.status()}`);
      const url = new URL(response.url());
      assert.equal(url.searchParams.get("entropy_id")?.toLowerCase(), address.toLowerCase());
      const frame = response.frame();
      // Ready for the user: an enabled button (the key is copied or revealed on a click), and no error text.
      await frame.locator("button:enabled:visible").first().waitFor({ timeout: CALL_MS });
      // biome-ignore lint/performance/useDomNodeTextContent: what the user sees, not hidden markup.
      const text = await frame.locator("body").innerText();
      assert.doesNotMatch(
        text,
        /error|unavailable|not found|failed|could not|invalid/i,
        `export page: ${text}`,
      );
      // The button wears the host modal's accent, which the client passes in the query.
      const accent = url.searchParams.get("accent")?.trim() ?? "";
      assert.ok(accent, "the client passed no accent");
      // The colour as the browser computes it (the client sends hsl(), hex or rgb()).
      const rgb = await frame.evaluate((colour) => {
        const probe = document.createElement("div");
        probe.style.backgroundColor = colour;
        document.body.append(probe);
        const computed = getComputedStyle(probe).backgroundColor;
        probe.remove();
        return computed;
      }, accent);
      assert.equal(
        await frame
          .getByRole("button", { name: "Copy private key" })
          .evaluate((button) => getComputedStyle(button).backgroundColor),
        rgb,
      );
      // The published layout (v=1) is one button that copies the key: the key is the wallet's. What the page
      // writes to the clipboard is recorded in the frame itself (reading the clipboard back needs a focused,
      // permitted document, which a headless run does not reliably have).
      await frame.evaluate(() => {
        const write = navigator.clipboard.writeText.bind(navigator.clipboard);
        navigator.clipboard.writeText = (text) => {
          window.__copied = text;
          return write(text);
        };
      });
      await frame.getByRole("button", { name: "Copy private key" }).click();
      await frame.getByRole("button", { name: "Copied" }).waitFor({ timeout: CALL_MS });
      const key = await frame.evaluate(() => window.__copied);
      assert.equal(privateKeyToAddress(key), address, "the copied key is not the wallet's");
      assert.doesNotMatch(
        (await frame.locator("body").textContent()) ?? "",
        /0x[0-9a-f]{64}/i,
        "the key shows on the page",
      );
      // The user closes the modal; exportWallet() then settles. Focus goes back to the host page first (keys
      // typed in the frame stay in the frame).
      await page.getByRole("dialog").getByText("Export wallet", { exact: true }).first().click();
      await page.keyboard.press("Escape");
      const closed = await Promise.race([exporting, page.waitForTimeout(5_000).then(() => "still open")]);
      if (closed === "still open")
        await page.getByRole("button", { name: "close modal" }).click({ timeout: 5_000 });
      assert.equal(await exporting, "closed");
    });

    step(
      "after logout() neither the old provider nor a request posted to the wallet frame signs",
      async ({ page }) => {
        assert.ok(address, "no wallet (an earlier step failed)");
        const accessToken = await callHost(page, "getAccessToken");
        assert.ok(accessToken, "getAccessToken() gave no token while signed in");
        const frameOrigin = serverOrigin();
        // Control while signed in: the same request is answered with a signature, so a refusal below is the
        // logout's doing, not a malformed request.
        const signedIn = await postRpcToFrame(page, {
          frameOrigin,
          appId: stack.appId,
          accessToken,
          address,
          message: "direct rpc while signed in",
        });
        assert.ok(signedIn.found, "the page has no wallet frame");
        const [control] = signaturesIn(signedIn.answer);
        assert.ok(control, `signed in, the frame answered ${JSON.stringify(signedIn.answer)}`);
        assert.ok(
          await verifyMessage({ address, message: "direct rpc while signed in", signature: control }),
        );
        // The provider to keep for later: this wallet's, obtained while signed in.
        await callHost(page, "providerSign", ["before logout"]);

        await callHost(page, "logout");
        await shows(page, "authenticated", "false");

        const failures = [];
        const viaProvider = await callHost(
          page,
          "oldProviderSign",
          ["after logout (provider)", address],
          5_000,
        )
          .then((answer) => ({ answer }))
          .catch((error) => ({ error: said(error) }));
        if (signaturesIn(viaProvider.answer).length) {
          failures.push(`the old provider still signs: ${viaProvider.answer}`);
        }
        network.push(
          "(next: the test's own privy:wallets:rpc with the logged-out token; a refusal is expected)",
        );
        const loggedOut = await postRpcToFrame(page, {
          frameOrigin,
          appId: stack.appId,
          accessToken,
          address,
          message: "direct rpc after logout",
        });
        if (loggedOut.found && signaturesIn(loggedOut.answer).length) {
          failures.push(
            `the wallet frame still signs with the old token: ${JSON.stringify(loggedOut.answer)}`,
          );
        }
        console.log(
          `react-auth ${version} after logout: old provider → ${JSON.stringify(viaProvider)}; direct rpc → ${
            loggedOut.found ? JSON.stringify(loggedOut.answer) : "no wallet frame in the page"
          }`,
        );
        assert.deepEqual(failures, []);
      },
    );
  });
}
