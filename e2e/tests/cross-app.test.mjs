// Cross-app login and signing (issue 10 §2): on demo app B, "Log in with app A" opens app A's consent page on the
// server's origin; the visitor signs in to A with an email code and allows B; B signs the user in with a cross_app
// account carrying A's wallet address. Then B asks A's wallet for a personal_sign through A's signing page (a popup),
// and the signature verifies with viem against that address. Closing the signing popup is a rejection.
import assert from "node:assert/strict";
import { getAddress, verifyMessage } from "viem";
import { sharedBrowser } from "../lib/browser.mjs";
import { lookAtCrossAppPage } from "../lib/crossAppPage.mjs";
import { uniqueEmail } from "../lib/flows.mjs";
import { useStack } from "../lib/stack.mjs";
import { chainClient } from "../lib/wallet.mjs";

const stack = useStack();
const step = sharedBrowser();
const email = uniqueEmail("cross-app");
const MESSAGE = "Hello from app B";

/** Clicks `button` on `page` and returns the popup it opens once it shows the server's page at `path`. */
async function popupAt(context, button, path) {
  const opened = context.waitForEvent("page");
  await button.click();
  const popup = await opened;
  await popup.waitForURL(
    (url) => url.origin === new URL(stack.urls.api).origin && url.pathname.endsWith(path),
  );
  return popup;
}

/** The cross-app wallet address app B shows. */
async function crossAppAddress(page) {
  const shown = page.getByTestId("cross-app-address");
  await shown.waitFor({ state: "visible", timeout: 20_000 });
  await page.waitForFunction(
    () =>
      /^0x[0-9a-fA-F]{40}$/.test(
        document.querySelector('[data-testid="cross-app-address"]')?.textContent ?? "",
      ),
    null,
    { timeout: 20_000 },
  );
  return getAddress((await shown.textContent())?.trim() ?? "");
}

step("app B logs in with app A's account through A's consent page", async ({ context, page }) => {
  assert.ok(stack.urls.webB && stack.appBId, "the stack runs demo app B");
  await page.goto(stack.urls.webB);
  await page.getByTestId("app-label").waitFor();
  const consent = await popupAt(
    context,
    page.getByRole("button", { name: "Log in with app A" }),
    `/apps/${stack.appId}/oauth/authorize`,
  );
  await consent.getByText("wants to connect to your").waitFor();
  await consent.getByLabel("Email").waitFor();
  assert.deepEqual(await lookAtCrossAppPage(consent, "sign-in"), { light: [], dark: [] }, "axe: sign-in");
  const after = await stack.mailbox.lastId(email);
  await consent.getByLabel("Email").fill(email);
  await consent.getByRole("button", { name: "Send code" }).click();
  const code = await stack.mailbox.waitForCode(email, { after });
  await consent.getByLabel("Code").fill(code);
  await consent.getByRole("button", { name: "Sign in" }).click();
  await consent.getByRole("button", { name: "Allow" }).waitFor({ timeout: 30_000 });
  await consent.getByRole("heading", { level: 1, name: "Connect to" }).waitFor();
  assert.deepEqual(
    await lookAtCrossAppPage(consent, "consent"),
    { light: [], dark: [] },
    "axe: consent page",
  );
  const closed = consent.waitForEvent("close", { timeout: 30_000 });
  await consent.getByRole("button", { name: "Allow" }).click({ timeout: 30_000 });
  await closed;
  await page.getByTestId("user-email").waitFor({ state: "visible", timeout: 15_000 });
  const address = await crossAppAddress(page);
  assert.match(address, /^0x[0-9a-fA-F]{40}$/);
  // B's Accounts card lists the app-A account the user signed in with, by its wallet there (issue 20).
  const accounts = page.getByRole("region", { name: "Accounts" });
  await accounts.getByText("App A account", { exact: true }).waitFor();
  await accounts.getByText(new RegExp(`^${address}$`, "i")).waitFor();
});

step("a cross-app personal_sign by A's wallet verifies with viem", async ({ context, page }) => {
  const address = await crossAppAddress(page);
  const signing = await popupAt(
    context,
    page.getByRole("button", { name: "Sign with app A" }),
    "/oauth/transact",
  );
  await signing.getByText(MESSAGE).waitFor({ timeout: 20_000 });
  assert.deepEqual(await lookAtCrossAppPage(signing, "message"), { light: [], dark: [] }, "axe: message");
  const closed = signing.waitForEvent("close", { timeout: 30_000 });
  await signing.getByRole("button", { name: "Approve" }).click();
  await closed;
  const shown = page.getByTestId("cross-app-signature");
  await shown.waitFor({ state: "visible", timeout: 15_000 });
  const signature = (await shown.textContent())?.trim() ?? "";
  assert.ok(await verifyMessage({ address, message: MESSAGE, signature }), "signed by A's embedded wallet");
});

step(
  "a cross-app transaction: B fills and submits, A's page signs; the receipt is from A's wallet",
  async ({ context, page }) => {
    const address = await crossAppAddress(page);
    // Gas money for A's wallet (anvil's own RPC).
    await fetch(stack.urls.chain, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "anvil_setBalance",
        params: [address, "0xde0b6b3a7640000"],
      }),
    });
    const signing = await popupAt(
      context,
      page.getByRole("button", { name: "Send with app A" }),
      "/oauth/transact",
    );
    await signing.getByRole("button", { name: "Approve" }).waitFor({ timeout: 20_000 });
    // The transaction as rows (the amount in the chain's currency), never its JSON.
    const cell = (label) => signing.locator(".rows > .row", { hasText: label }).locator("dd").textContent();
    assert.match((await cell("Amount")) ?? "", /^0 [A-Z]+$/);
    assert.ok(await cell("Network"));
    assert.doesNotMatch((await signing.locator("main").textContent()) ?? "", /[{}]/);
    assert.deepEqual(await lookAtCrossAppPage(signing, "transaction"), { light: [], dark: [] }, "axe: tx");
    const closed = signing.waitForEvent("close", { timeout: 30_000 });
    await signing.getByRole("button", { name: "Approve" }).click({ timeout: 20_000 });
    await closed;
    const shown = page.getByTestId("cross-app-tx-hash");
    await shown.waitFor({ state: "visible", timeout: 15_000 });
    const hash = /** @type {`0x${string}`} */ ((await shown.textContent())?.trim() ?? "");
    const receipt = await chainClient(stack).waitForTransactionReceipt({ hash, timeout: 15_000 });
    assert.equal(getAddress(receipt.from), address);
    assert.equal(receipt.status, "success");
  },
);

step("closing the signing popup is 'User rejected request'", async ({ context, page }) => {
  const signing = await popupAt(
    context,
    page.getByRole("button", { name: "Sign with app A" }),
    "/oauth/transact",
  );
  await signing.getByRole("button", { name: "Approve" }).waitFor({ timeout: 20_000 });
  await signing.close();
  await page.getByRole("alert").filter({ hasText: "User rejected request" }).waitFor({ timeout: 5_000 });
});

step(
  "from the login modal: 'Continue with Symbolon Demo', the consent page, the cross-app status screen",
  async ({ context, page }) => {
    const before = (await page.getByTestId("user-id").textContent())?.trim();
    await page.getByRole("button", { name: "Log out" }).click();
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Log in or sign up" });
    const consent = await popupAt(
      context,
      dialog.getByRole("button", { name: "Continue with Symbolon Demo" }),
      `/apps/${stack.appId}/oauth/authorize`,
    );
    await dialog.getByRole("heading", { name: "Connecting to Symbolon Demo" }).waitFor();
    // Still signed in to app A on the server's origin: straight to Allow.
    const closed = consent.waitForEvent("close", { timeout: 30_000 });
    await consent.getByRole("button", { name: "Allow" }).click({ timeout: 20_000 });
    await closed;
    await page.getByTestId("user-id").waitFor({ state: "visible", timeout: 15_000 });
    assert.equal((await page.getByTestId("user-id").textContent())?.trim(), before, "the same user of app B");
  },
);
