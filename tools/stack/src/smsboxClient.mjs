// Reads the SMS catcher's JSON API from outside the process that runs it (tests, benchmarks, other tools).

const CODE = /\b(\d{6})\b/;

/**
 * Every SMS to `to` (E.164), newest first.
 * @param {string} url the catcher's inbox URL
 * @param {string} to
 * @returns {Promise<{id:number,to:string,from:string,body:string,receivedAt:string}[]>}
 */
export async function smsMessages(url, to) {
  const res = await fetch(`${url.replace(/\/$/, "")}/api/messages?to=${encodeURIComponent(to)}`);
  if (!res.ok) throw new Error(`smsbox answered ${res.status}`);
  return res.json();
}

/**
 * Waits for an SMS to `to` newer than `after` (a message id) and returns the 6-digit code in the newest one.
 * @param {string} url the catcher's inbox URL
 * @param {string} to E.164 number
 * @param {{ after?: number, timeoutMs?: number }} [options]
 * @returns {Promise<string>} the code
 */
export async function latestSmsCode(url, to, { after = 0, timeoutMs = 5_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [message] = (await smsMessages(url, to)).filter((m) => m.id > after);
    if (message) {
      const match = CODE.exec(message.body);
      if (!match) throw new Error(`no 6-digit code in the SMS to ${to}: ${message.body}`);
      return match[1];
    }
    if (Date.now() > deadline) throw new Error(`no SMS to ${to} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
