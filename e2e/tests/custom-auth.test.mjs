// Custom auth: a host page signed in to the host's own login (the local host-auth stand-in issuing JWTs)
// gets a Symbolon session from that token (spec §4 custom token sync).
import assert from "node:assert/strict";
import { sharedBrowser } from "../lib/browser.mjs";
import { expectSignedIn } from "../lib/flows.mjs";
import { useStack } from "../lib/stack.mjs";

const stack = useStack();
const step = sharedBrowser();
const hostUser = `host-user-${Date.now().toString(36)}`;

step("a host user's JWT signs them in (custom auth)", async ({ page }) => {
  await page.goto(stack.urls.web);
  await page.getByLabel("Host user id").fill(hostUser);
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/v1/custom_jwt_account/authenticate"));
  await page.getByRole("button", { name: "Sign in with the host app" }).click();
  const response = await answer;
  assert.equal(response.status(), 200);
  const body = await response.json();
  assert.equal(body.user.linked_accounts[0].type, "custom_auth");
  assert.equal(body.user.linked_accounts[0].custom_user_id, hostUser);
  await expectSignedIn(page, hostUser);
});
