// The SMS catcher's contract: Twilio's Messages API as the server's TwilioSender speaks it, and the inbox tests read.
import assert from "node:assert/strict";
import { after, before, beforeEach, test } from "node:test";
import { startSmsbox } from "./smsbox.mjs";
import { latestSmsCode, smsMessages } from "./smsboxClient.mjs";

const SID = "ACtest0000000000000000000000000000";
const TO = "+12015550123";
let smsbox;
before(async () => {
  smsbox = await startSmsbox();
});
after(() => smsbox.stop());
beforeEach(() => fetch(`${smsbox.url}/api/messages`, { method: "DELETE" }));

/** POSTs Twilio's form to the catcher. */
function sendSms(form, { sid = SID, auth = `${SID}:token` } = {}) {
  return fetch(`${smsbox.url}/2010-04-01/Accounts/${sid}/Messages.json`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(auth && { authorization: `Basic ${btoa(auth)}` }),
    },
    body: new URLSearchParams(form),
  });
}

test("a message is answered 201 with Twilio's message resource", async () => {
  const res = await sendSms({ To: TO, From: "+12015550199", Body: "123456 is your Acme login code." });
  assert.equal(res.status, 201);
  const message = await res.json();
  assert.match(message.sid, /^SM[0-9a-f]{32}$/);
  assert.equal(message.account_sid, SID);
  assert.equal(message.to, TO);
  assert.equal(message.from, "+12015550199");
  assert.equal(message.body, "123456 is your Acme login code.");
  assert.equal(message.status, "queued");
  assert.equal(message.api_version, "2010-04-01");
  assert.ok(!Number.isNaN(Date.parse(message.date_created)), message.date_created);
  assert.equal(message.uri, `/2010-04-01/Accounts/${SID}/Messages/${message.sid}.json`);
  assert.equal(await latestSmsCode(smsbox.url, TO), "123456");
});

test("a messaging service may stand in for From", async () => {
  const res = await sendSms({ To: TO, MessagingServiceSid: "MG123", Body: "hi" });
  assert.equal(res.status, 201);
  const message = await res.json();
  assert.equal(message.messaging_service_sid, "MG123");
  assert.equal(message.from, null);
});

test("no Basic auth, or a user other than the path's account, is 401 with Twilio's error 20003", async () => {
  for (const options of [{ auth: null }, { auth: "ACother:token" }, { auth: `${SID}:` }]) {
    const res = await sendSms({ To: TO, From: "+12015550199", Body: "x" }, options);
    assert.equal(res.status, 401, JSON.stringify(options));
    const error = await res.json();
    assert.deepEqual(
      { code: error.code, status: error.status },
      { code: 20003, status: 401 },
      JSON.stringify(options),
    );
    assert.equal(typeof error.message, "string");
    assert.match(error.more_info, /20003/);
  }
  assert.deepEqual(await smsMessages(smsbox.url, TO), []);
});

test("an account keeps the first token it is used with: another token is 401", async () => {
  const sid = "ACpinned";
  const form = { To: TO, From: "+12015550199", Body: "x" };
  assert.equal((await sendSms(form, { sid, auth: `${sid}:right` })).status, 201);
  assert.equal((await sendSms(form, { sid, auth: `${sid}:right` })).status, 201);
  const res = await sendSms(form, { sid, auth: `${sid}:wrong` });
  assert.equal(res.status, 401);
  assert.equal((await res.json()).code, 20003);
});

test("a To that is not + and digits is 400 with Twilio's error 21211", async () => {
  for (const to of ["2015550123", "+1 201 555 0123", "+1abc", ""]) {
    const res = await sendSms({ To: to, From: "+12015550199", Body: "x" });
    assert.equal(res.status, 400, to);
    const error = await res.json();
    assert.equal(error.status, 400);
    if (to) {
      assert.equal(error.code, 21211);
      assert.match(error.message, /is not a valid phone number\./);
    }
  }
  const res = await sendSms({ To: TO, Body: "x" });
  assert.equal(res.status, 400, "From or MessagingServiceSid is required");
});

test("the JSON list filters by recipient, newest first", async () => {
  await sendSms({ To: TO, From: "+12015550199", Body: "first 111111" });
  await sendSms({ To: "+447400123456", From: "+12015550199", Body: "other 222222" });
  await sendSms({ To: TO, From: "+12015550199", Body: "second 333333" });
  const list = await smsMessages(smsbox.url, TO);
  assert.deepEqual(
    list.map((m) => m.body),
    ["second 333333", "first 111111"],
  );
  assert.deepEqual(Object.keys(list[0]).sort(), ["body", "from", "id", "receivedAt", "to"]);
  assert.equal((await (await fetch(`${smsbox.url}/api/messages`)).json()).length, 3);
  const typed = await (await fetch(`${smsbox.url}/api/messages?to=${TO}`)).json();
  assert.equal(typed.length, 2, "a raw + in the query (decoded as a space) still matches");
  assert.equal(await latestSmsCode(smsbox.url, TO), "333333");
  await assert.rejects(latestSmsCode(smsbox.url, "+12015550100", { timeoutMs: 200 }), /no SMS/);
  await fetch(`${smsbox.url}/api/messages`, { method: "DELETE" });
  assert.deepEqual(await smsMessages(smsbox.url, TO), []);
});

test("the inbox page escapes message text", async () => {
  await sendSms({ To: TO, From: "+12015550199", Body: `<script>alert("x")</script> & 'code'` });
  const res = await fetch(smsbox.url);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type"), /text\/html/);
  const page = await res.text();
  assert.ok(!page.includes("<script>alert"), "raw script tag in the page");
  assert.ok(page.includes("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;code&#39;"));
  assert.ok(page.includes(TO));
});
