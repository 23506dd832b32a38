// Webhooks as a host back end meets them (docs/webhooks.md): a person signs up in the browser, and the demo app's
// endpoint (the stack's catcher) receives `user.created` and `user.authenticated` for them, signed so that the
// published server SDK's `webhooks().verify` accepts them and refuses them altered or under another secret.
import assert from "node:assert/strict";
import { PrivyClient } from "@privy-io/node";
import { sharedBrowser } from "../lib/browser.mjs";
import { logIn, uniqueEmail } from "../lib/flows.mjs";
import { useStack } from "../lib/stack.mjs";

const stack = useStack();
const step = sharedBrowser();

/** Polls the catcher until `pick` finds something (up to 10 s). */
async function waitForEvent(type, pick) {
  const until = Date.now() + 10_000;
  for (;;) {
    const found = (await stack.webhooks.events(type)).find(pick);
    if (found) return found;
    assert.ok(Date.now() < until, `no ${type} webhook arrived`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

step(
  "a browser sign-up reaches the host's endpoint as user.created, verified with the SDK",
  async ({ page }) => {
    const email = uniqueEmail("webhook");
    const session = await logIn(page, stack, email);
    const userId = session.user.id;
    const created = await waitForEvent("user.created", (e) => e.body?.user?.id === userId);
    assert.equal(created.verified, true, created.error);
    assert.equal(created.body.user.linked_accounts[0].address, email);
    const signedIn = await waitForEvent("user.authenticated", (e) => e.body?.user?.id === userId);
    assert.equal(signedIn.body.account.type, "email");
    assert.ok(signedIn.svixId > created.svixId, "message ids follow the order of events");

    // What the host's back end runs on the request it received: the published SDK's verifier.
    const privy = new PrivyClient({ appId: stack.appId, appSecret: stack.appSecret, apiUrl: stack.urls.api });
    const headers = {
      "svix-id": created.svixId,
      "svix-timestamp": created.timestamp,
      "svix-signature": created.signature,
    };
    const payload = privy
      .webhooks()
      .verify({ payload: created.raw, headers, signing_secret: stack.webhooks.secret });
    assert.equal(payload.type, "user.created");
    assert.equal(payload.user.id, userId);
    assert.throws(
      () =>
        privy.webhooks().verify({
          payload: created.raw.replace(userId, "did:privy:someone-else"),
          headers,
          signing_secret: stack.webhooks.secret,
        }),
      /verification failed/i,
    );
    assert.throws(
      () =>
        privy.webhooks().verify({
          payload: created.raw,
          headers,
          signing_secret: `whsec_${Buffer.alloc(24, 7).toString("base64")}`,
        }),
      /verification failed/i,
    );
  },
);
