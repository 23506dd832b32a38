// Telegram's Login Widget API, served from the Symbolon server at /js/telegram-login.js: the
// published @privy-io/react-auth loads this script from its apiUrl and calls
// `window.Telegram.Login.auth({bot_id, request_access}, callback)`. This is that one call, not
// the widget's button: it opens Telegram's own login popup (https://oauth.telegram.org/auth), waits
// for the widget's `auth_result` message from that origin and that popup, and calls back with the
// signed result (the server checks its hash with the bot token), or with `false` when the popup
// closes without one.
(() => {
  const AUTH_ORIGIN = "https://oauth.telegram.org";
  window.Telegram = window.Telegram || {};
  const telegram = window.Telegram;
  if (typeof telegram.Login?.auth === "function") return;

  function auth(options, callback) {
    const botId = options?.bot_id;
    if (typeof callback !== "function") throw new TypeError("Telegram.Login.auth needs a callback");
    if (botId === undefined || botId === null || String(botId) === "") {
      throw new TypeError("Telegram.Login.auth needs options.bot_id");
    }
    const url = new URL("/auth", AUTH_ORIGIN);
    url.searchParams.set("bot_id", String(botId));
    url.searchParams.set("origin", window.location.origin);
    url.searchParams.set("embed", "1");
    if (options.request_access) url.searchParams.set("request_access", "write");
    if (options.lang) url.searchParams.set("lang", String(options.lang));
    const width = 550;
    const height = 470;
    const left = Math.max(0, (window.screen.width - width) / 2);
    const top = Math.max(0, (window.screen.height - height) / 2);
    const popup = window.open(
      url.toString(),
      `telegram_oauth_bot${botId}`,
      `width=${width},height=${height},left=${left},top=${top},status=0,location=0,menubar=0,toolbar=0`,
    );
    if (!popup) {
      callback(false);
      return;
    }
    let done = false;
    const finish = (result) => {
      if (done) return;
      done = true;
      window.removeEventListener("message", onMessage);
      clearInterval(closedCheck);
      callback(result);
    };
    function onMessage(event) {
      if (event.origin !== AUTH_ORIGIN || event.source !== popup) return;
      let data = event.data;
      if (typeof data === "string") {
        try {
          data = JSON.parse(data);
        } catch {
          return;
        }
      }
      if (data?.event !== "auth_result") return;
      let result = data.result;
      if (typeof result === "string") {
        try {
          result = JSON.parse(result);
        } catch {
          result = false;
        }
      }
      try {
        popup.close();
      } catch {}
      finish(result || false);
    }
    window.addEventListener("message", onMessage);
    const closedCheck = setInterval(() => {
      if (popup.closed) finish(false);
    }, 300);
  }

  telegram.Login = Object.assign(telegram.Login || {}, { auth });
})();
