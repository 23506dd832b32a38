// The mailbox as tests and the load generator use it: a real SMTP delivery, then the code read over HTTP.
import assert from "node:assert/strict";
import net from "node:net";
import { after, before, test } from "node:test";
import { startMailbox } from "./mailbox.mjs";
import { mailboxClient } from "./mailboxClient.mjs";

let mailbox;
let client;
before(async () => {
  mailbox = await startMailbox();
  client = mailboxClient(mailbox.url);
});
after(() => mailbox.stop());

/** Delivers one plain-text message over SMTP, speaking the protocol by hand (no mail library needed). */
function sendMail(port, to, subject, text) {
  const script = [
    "HELO test.localhost",
    "MAIL FROM:<login@symbolon.localhost>",
    `RCPT TO:<${to}>`,
    "DATA",
    `From: login@symbolon.localhost\r\nTo: ${to}\r\nSubject: ${subject}\r\n\r\n${text}\r\n.`,
    "QUIT",
  ];
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let step = 0;
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => {
      for (const line of chunk.split("\r\n").filter(Boolean)) {
        if (/^\d{3}-/.test(line)) continue; // continuation of a multi-line reply
        if (!/^[23]\d\d /.test(line)) return reject(new Error(`SMTP refused: ${line}`));
        if (step < script.length) socket.write(`${script[step++]}\r\n`);
      }
    });
    socket.on("error", reject);
    socket.on("close", resolve);
  });
}

test("waitForCode returns the code of a message that arrives while it waits", async () => {
  const email = "first@example.com";
  const waiting = client.waitForCode(email, { after: await client.lastId(email) });
  await sendMail(
    mailbox.smtpPort,
    email,
    "Your login code",
    "Your code is 483920. It expires in 10 minutes.",
  );
  assert.equal(await waiting, "483920");
});

test("waitForCode ignores messages older than `after` and other recipients", async () => {
  const email = "second@example.com";
  await sendMail(mailbox.smtpPort, email, "Your login code", "Code: 111111");
  const seen = await client.lastId(email);
  await sendMail(mailbox.smtpPort, "someone-else@example.com", "Your login code", "Code: 999999");
  const waiting = client.waitForCode(email, { after: seen });
  await sendMail(mailbox.smtpPort, email, "222222 is your code", "Enter it in the app.");
  assert.equal(await waiting, "222222");
});

test("waitForCode fails with the address when nothing arrives in time", async () => {
  await assert.rejects(
    client.waitForCode("nobody@example.com", { timeoutMs: 300 }),
    /no mail to nobody@example.com/,
  );
});
