// The wallet frame answers only the app's allowed origins. A page elsewhere can neither embed it (CSP
// frame-ancestors) nor talk to it when it opens it as a window: its messages get no answer at all.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before } from "node:test";
import { browserTest } from "../lib/browser.mjs";
import { useStack } from "../lib/stack.mjs";

const stack = useStack();
let other;

before(async () => {
  // Another origin on this machine: a port of its own, not one of the app's allowed origins.
  other = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<!doctype html><title>Elsewhere</title><p>another site</p>");
  });
  await new Promise((resolve) => other.listen(0, "127.0.0.1", resolve));
});
after(() => new Promise((resolve) => other.close(resolve)));

const frameUrl = () => `${stack.urls.api}/apps/${stack.appId}/embedded-wallets?caid=e2e-origin-test`;

/**
 * In `page`, opens the frame the way `how` says and posts `privy:iframe:ready` to it every 150 ms for `ms`
 * (or until the first answer); returns the answers that came back.
 */
function probe(page, how, ms) {
  return page.evaluate(
    async ({ url, how, ms }) => {
      let target;
      if (how === "iframe") {
        const iframe = document.createElement("iframe");
        iframe.src = url;
        document.body.append(iframe);
        target = iframe.contentWindow;
      } else {
        target = window.open(url, "_blank");
      }
      const answers = [];
      // Only answers to these probes count (the app's own page also runs its hidden wallet frame).
      window.addEventListener("message", (event) => {
        if (String(event.data?.id).startsWith("probe-"))
          answers.push({ origin: event.origin, data: event.data });
      });
      const started = Date.now();
      let n = 0;
      while (Date.now() - started < ms && answers.length === 0) {
        target?.postMessage({ id: `probe-${n++}`, event: "privy:iframe:ready", data: {} }, "*");
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      if (how === "window") target?.close();
      return answers;
    },
    { url: frameUrl(), how, ms },
  );
}

browserTest(
  "the app's own origin gets the ready answer (the control for the tests below)",
  async ({ page }) => {
    await page.goto(stack.urls.web);
    const answers = await probe(page, "window", 10_000);
    assert.ok(answers.length > 0, "no answer to the allowed origin");
    assert.equal(answers[0].origin, new URL(stack.urls.api).origin);
    assert.equal(answers[0].data.event, "privy:iframe:ready");
  },
);

browserTest("a page on another origin gets no answer from the frame it opened", async ({ page }) => {
  await page.goto(`http://127.0.0.1:${other.address().port}/`);
  // As long as the control above may take: the frame has long loaded when this gives up.
  assert.deepEqual(await probe(page, "window", 10_000), []);
});

browserTest("a page on another origin cannot embed the frame", async ({ page }) => {
  await page.goto(`http://127.0.0.1:${other.address().port}/`);
  const blocked = page.waitForEvent("console", {
    predicate: (m) => /frame-ancestors|Refused to frame/i.test(m.text()),
    timeout: 5_000,
  });
  assert.deepEqual(await probe(page, "iframe", 2_000), []);
  await blocked;
});
