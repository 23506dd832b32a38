// The webhook catcher's contract: Svix-signed webhooks verified with the vendor SDK, kept and shown, with forced
// error answers for retry tests.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, beforeEach, test } from "node:test";
import { Webhook } from "svix";
import { startWebhookbox } from "./webhookbox.mjs";

const SECRET = `whsec_${randomBytes(24).toString("base64")}`;
const OTHER_SECRET = `whsec_${randomBytes(24).toString("base64")}`;
let webhookbox;
before(async () => {
  webhookbox = await startWebhookbox();
  webhookbox.addSecret(SECRET);
});
after(() => webhookbox.stop());
beforeEach(() => fetch(`${webhookbox.url}/api/events`, { method: "DELETE" }));

let counter = 0;
/**
 * Signs `body` as Svix does and POSTs it to the catcher.
 * @param {unknown} event the JSON body
 * @param {{ secret?: string, id?: string, at?: Date, path?: string, tamper?: (raw: string) => string }} [options]
 */
function sendWebhook(event, { secret = SECRET, id, at = new Date(), path = "/hooks", tamper } = {}) {
  const svixId = id ?? `msg_${Date.now()}_${counter++}`;
  const raw = typeof event === "string" ? event : JSON.stringify(event);
  const signature = new Webhook(secret).sign(svixId, at, raw);
  return fetch(`${webhookbox.url}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "svix-id": svixId,
      "svix-timestamp": String(Math.floor(at.getTime() / 1000)),
      "svix-signature": signature,
    },
    body: tamper ? tamper(raw) : raw,
  });
}

const listEvents = async (query = "") => (await fetch(`${webhookbox.url}/api/events${query}`)).json();

const userCreated = (id = "did:privy:abc") => ({ type: "user.created", user: { id, linked_accounts: [] } });

test("a correctly signed webhook is answered 204 and listed as verified", async () => {
  const res = await sendWebhook(userCreated(), { id: "msg_first" });
  assert.equal(res.status, 204);
  const [event, ...rest] = await listEvents();
  assert.equal(rest.length, 0);
  assert.equal(event.verified, true);
  assert.equal(event.error, null);
  assert.equal(event.type, "user.created");
  assert.equal(event.svixId, "msg_first");
  assert.equal(event.path, "/hooks");
  assert.equal(event.answered, 204);
  assert.equal(event.duplicate, undefined);
  assert.match(event.timestamp, /^\d+$/);
  assert.ok(!Number.isNaN(Date.parse(event.receivedAt)), event.receivedAt);
  assert.deepEqual(event.body, userCreated());
  assert.equal(webhookbox.events.length, 1);
});

test("a body altered after signing, or one signed with an unregistered secret, is not verified", async () => {
  const tampered = await sendWebhook(userCreated(), { tamper: (raw) => raw.replace("abc", "xyz") });
  assert.equal(tampered.status, 204);
  const foreign = await sendWebhook(userCreated(), { secret: OTHER_SECRET, path: "/hooks/app-123" });
  assert.equal(foreign.status, 204);
  const [altered, unknown] = await listEvents();
  assert.equal(altered.verified, false);
  assert.match(altered.error, /verification failed/i);
  assert.equal(altered.body.user.id, "did:privy:xyz", "the body is kept as received");
  assert.equal(unknown.verified, false);
  assert.match(unknown.error, /verification failed/i);
  assert.equal(unknown.path, "/hooks/app-123");
});

test("a webhook with no registered secret says so", async () => {
  const bare = await startWebhookbox();
  try {
    const res = await fetch(`${bare.url}/hooks`, { method: "POST", body: "not json" });
    assert.equal(res.status, 204);
    const [event] = await (await fetch(`${bare.url}/api/events`)).json();
    assert.equal(event.verified, false);
    assert.equal(event.error, "no signing secret registered");
    assert.equal(event.body, "not json", "a body that is not JSON is kept as text");
    assert.equal(event.type, null);
    assert.equal(event.svixId, null);
  } finally {
    await bare.stop();
  }
});

test("a timestamp 10 minutes old is not verified (replay tolerance)", async () => {
  await sendWebhook(userCreated(), { at: new Date(Date.now() - 10 * 60 * 1000) });
  const [event] = await listEvents();
  assert.equal(event.verified, false);
  assert.match(event.error, /timestamp/i);
});

test("respondWith(500, 2) makes exactly the next two webhooks answer 500", async () => {
  webhookbox.respondWith(500, 2);
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await sendWebhook(userCreated())).status);
  assert.deepEqual(statuses, [500, 500, 204]);
  const events = await listEvents();
  assert.deepEqual(
    events.map((e) => [e.answered, e.verified]),
    [
      [500, true],
      [500, true],
      [204, true],
    ],
  );
});

test("the same svix-id received twice is kept twice, the second flagged duplicate", async () => {
  await sendWebhook(userCreated(), { id: "msg_retry" });
  await sendWebhook(userCreated(), { id: "msg_retry" });
  await sendWebhook(userCreated(), { id: "msg_other" });
  const events = await listEvents();
  assert.deepEqual(
    events.map((e) => [e.svixId, e.duplicate ?? false]),
    [
      ["msg_retry", false],
      ["msg_retry", true],
      ["msg_other", false],
    ],
  );
  assert.ok(events[0].id < events[1].id && events[1].id < events[2].id, "ids increase");
});

test("the list filters by type and empties; the page shows and escapes events; other paths are 404", async () => {
  const empty = await (await fetch(webhookbox.url)).text();
  assert.match(
    empty,
    /symbolon webhooks endpoint create --app &lt;app id&gt; --url http:\/\/localhost:\d+\/hooks/,
  );

  await sendWebhook(userCreated());
  await sendWebhook({ type: "wallet.funds_deposited", note: `<script>alert("x")</script>` });
  const users = await listEvents("?type=user.created");
  assert.deepEqual(
    users.map((e) => e.type),
    ["user.created"],
  );
  assert.equal((await listEvents()).length, 2);

  const res = await fetch(webhookbox.url);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type"), /text\/html/);
  const page = await res.text();
  assert.match(page, /<title>Webhooks/);
  assert.ok(page.includes("user.created"));
  assert.ok(page.includes("wallet.funds_deposited"));
  assert.ok(page.includes("✓ verified"));
  assert.ok(!page.includes("<script>alert"), "raw script tag in the page");
  assert.ok(page.includes("&lt;script&gt;alert(\\&quot;x\\&quot;)&lt;/script&gt;"));
  assert.ok(page.indexOf("wallet.funds_deposited") < page.indexOf("user.created"), "newest first");

  const cleared = await fetch(`${webhookbox.url}/api/events`, { method: "DELETE" });
  assert.deepEqual(await cleared.json(), { success: true });
  assert.deepEqual(await listEvents(), []);

  for (const [method, path] of [
    ["GET", "/nope"],
    ["GET", "/hooks"],
    ["POST", "/hooksx"],
  ]) {
    const missing = await fetch(`${webhookbox.url}${path}`, { method });
    assert.equal(missing.status, 404, `${method} ${path}`);
    assert.deepEqual(await missing.json(), { error: "Not found", code: "not_found" });
  }
});

test("a body over 1 MiB is refused with 413", async () => {
  const res = await fetch(`${webhookbox.url}/hooks`, {
    method: "POST",
    body: "x".repeat(1024 * 1024 + 1),
  }).catch((e) => e);
  // readBody drops the connection past the limit, so the client may see the 413 or a reset.
  if (res instanceof Response) assert.equal(res.status, 413);
  assert.deepEqual(await listEvents(), []);
});
