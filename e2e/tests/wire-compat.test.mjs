// The spec's published client works against our server in a real browser: from a page on the app's
// origin, every host route is called cross-origin with credentials and the exact header set that
// client sends (including `privy-retry-attempt` on every request). The browser must let the page
// read each answer: a JSON body, not a TypeError from a refused CORS preflight.
// Real preflights only: see the `unroute` below.
import assert from "node:assert/strict";
import { browserTest } from "../lib/browser.mjs";
import { useStack } from "../lib/stack.mjs";

const stack = useStack();

/** Every route host pages call, as `[method, path]` (`{app}` is the app id). */
const HOST_ROUTES = [
  ["GET", "/health"],
  ["GET", "/api/v1/apps/{app}"],
  ["GET", "/api/v1/apps/{app}/jwks.json"],
  ["POST", "/api/v1/analytics_events"],
  ["POST", "/api/v1/passwordless/init"],
  ["POST", "/api/v1/passwordless/authenticate"],
  ["POST", "/api/v1/passwordless/link"],
  ["POST", "/api/v1/passwordless/unlink"],
  ["POST", "/api/v1/passwordless/update"],
  ["POST", "/api/v1/passwordless/transfer"],
  ["POST", "/api/v1/passwordless_sms/init"],
  ["POST", "/api/v1/passwordless_sms/authenticate"],
  ["POST", "/api/v1/passwordless_sms/link"],
  ["POST", "/api/v1/passwordless_sms/unlink"],
  ["POST", "/api/v1/passwordless_sms/update"],
  ["POST", "/api/v1/passwordless_sms/transfer"],
  ["POST", "/api/v1/guest/authenticate"],
  ["POST", "/api/v1/custom_jwt_account/authenticate"],
  ["POST", "/api/v1/custom_jwt_account/link"],
  ["POST", "/api/v1/sessions"],
  ["POST", "/api/v1/sessions/logout"],
  ["GET", "/api/v1/users/me"],
  ["POST", "/api/v1/users/me/accept_terms"],
  ["POST", "/api/v1/siwe/unlink"],
];

browserTest(
  "every host route answers the spec client's cross-origin calls readably",
  async ({ page, context }) => {
    await page.goto(stack.urls.web);
    // While any route is set, Playwright answers CORS preflights itself, allowing every header
    // (crNetworkManager), so the server's preflight would never be tested: drop the routes (the page
    // has loaded; everything below goes to this machine).
    await context.unroute("**/*");
    const results = await page.evaluate(
      async ({ api, appId, routes }) => {
        const out = [];
        for (const [method, template] of routes) {
          const path = template.replace("{app}", appId);
          const headers = {
            "privy-app-id": appId,
            "privy-client-id": "wire-compat-client",
            "privy-client": "react-auth:3.3.0",
            "privy-ca-id": crypto.randomUUID(),
            "privy-retry-attempt": "0",
            "privy-idempotency-key": crypto.randomUUID(),
            "x-native-app-identifier": "com.example.wirecompat",
            authorization: "Bearer not-a-session-token",
            "content-type": "application/json",
          };
          try {
            const response = await fetch(`${api}${path}`, {
              method,
              headers,
              credentials: "include",
              ...(method === "POST" ? { body: "{}" } : {}),
            });
            const text = await response.text();
            let body = null;
            try {
              body = JSON.parse(text);
            } catch {
              body = null;
            }
            out.push({ method, path, status: response.status, body, text: text.slice(0, 200) });
          } catch (error) {
            out.push({ method, path, blocked: `${error?.name}: ${error?.message}` });
          }
        }
        return out;
      },
      { api: stack.urls.api, appId: stack.appId, routes: HOST_ROUTES },
    );
    assert.equal(results.length, HOST_ROUTES.length);
    for (const result of results) {
      const where = `${result.method} ${result.path}`;
      assert.equal(result.blocked, undefined, `${where}: the browser blocked the call (${result.blocked})`);
      assert.ok(
        result.body !== null && typeof result.body === "object",
        `${where}: no JSON body (status ${result.status}: ${result.text})`,
      );
      if (result.status >= 400) {
        assert.equal(typeof result.body.code, "string", `${where}: error without a code: ${result.text}`);
        assert.equal(typeof result.body.error, "string", `${where}: error without a message: ${result.text}`);
      }
    }
    // The unknown client id is refused by the server (not the browser), which proves the headers arrived.
    const app = results.find((r) => r.path === `/api/v1/apps/${stack.appId}`);
    assert.equal(app.body.code, "missing_or_invalid_privy_client_id", JSON.stringify(app.body));
  },
);
