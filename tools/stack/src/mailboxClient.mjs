// Reads the mailbox's JSON API from outside the process that runs it (tests, benchmarks, other tools).

const CODE = /\b(\d{6})\b/;

/**
 * A client for the mailbox at `url` (the inbox URL printed by the stack).
 * @param {string} url
 */
export function mailboxClient(url) {
  const base = url.replace(/\/$/, "");

  /** Every message sent to `email`, oldest first. */
  async function messagesFor(email) {
    const res = await fetch(`${base}/api/messages?to=${encodeURIComponent(email.toLowerCase())}`);
    if (!res.ok) throw new Error(`mailbox answered ${res.status}`);
    return /** @type {{id:number,to:string[],subject:string,text:string,date:string}[]} */ (await res.json());
  }

  /** The id of the newest message to `email` (0 when none): pass it as `after` to wait for the next one. */
  async function lastId(email) {
    const list = await messagesFor(email);
    return list.length ? list[list.length - 1].id : 0;
  }

  /**
   * Waits for a message to `email` newer than `after` and returns the 6-digit code in it.
   * @param {string} email
   * @param {{ after?: number | Date, timeoutMs?: number }} [options] `after`: a message id (from `lastId`) or a time.
   * @returns {Promise<string>} the code
   */
  async function waitForCode(email, { after = 0, timeoutMs = 15_000 } = {}) {
    const deadline = Date.now() + timeoutMs;
    const isNew =
      after instanceof Date ? (m) => new Date(m.date).getTime() >= after.getTime() : (m) => m.id > after;
    for (;;) {
      const fresh = (await messagesFor(email)).filter(isNew);
      const message = fresh[fresh.length - 1];
      if (message) {
        const match = CODE.exec(message.subject) ?? CODE.exec(message.text);
        if (!match)
          throw new Error(`no 6-digit code in the mail to ${email}: ${message.subject}\n${message.text}`);
        return match[1];
      }
      if (Date.now() > deadline) throw new Error(`no mail to ${email} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  return { url: base, messagesFor, lastId, waitForCode };
}
