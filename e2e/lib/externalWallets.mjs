// What a user does with external wallets in the login modal and on the demo's accounts card (issue 11).
// Screen texts follow the modal's wallet screens (packages/react/src/modal/).
import assert from "node:assert/strict";
import { expectSignedOut } from "./flows.mjs";
import { revealExportedKey } from "./wallet.mjs";

/** The wallets' names as the wallet list shows them (tools/test-wallets). */
export const ETHEREUM_TEST_WALLET = "Symbolon Test Wallet";
export const SOLANA_TEST_WALLET = "Symbolon Test Solana Wallet";

/** Opens the web app, the login modal and its wallet list; returns the dialog. */
export async function openWalletList(page, stack) {
  await page.goto(stack.urls.web);
  await page.getByRole("button", { name: "Log in" }).click();
  const dialog = page.getByRole("dialog", { name: "Log in or sign up" });
  await dialog.waitFor({ state: "visible" });
  await continueWithWallet(dialog);
  return dialog;
}

/** On the login (or link) screen: "Continue with a wallet", behind "More options" when the app lists it there. */
async function continueWithWallet(dialog) {
  const wallet = dialog.getByRole("button", { name: "Continue with a wallet" });
  const more = dialog.getByRole("button", { name: "More options" });
  await wallet.or(more).first().waitFor();
  if (!(await wallet.isVisible())) await more.click();
  await wallet.click();
}

/**
 * Picks an installed wallet in the wallet list (connecting and signing follow by themselves). A list entry reads
 * "<name> <chain> Installed" (WalletListScreen.tsx).
 */
export async function pickWallet(dialog, name) {
  const option = dialog.getByRole("button", { name: new RegExp(`^${name} (Ethereum|Solana) Installed$`) });
  await option.first().click();
}

/** Resolves with the status and JSON body of the next POST whose path ends with `path`. */
export async function walletCall(page, path, timeout = 15_000) {
  const response = await page.waitForResponse(
    (r) => new URL(r.url()).pathname === path && r.request().method() === "POST",
    { timeout },
  );
  return { status: response.status(), body: await response.json() };
}

/** On the accounts card: "Link a wallet", then `wallet` in the list; returns the answer of `path`. */
export async function linkWallet(page, wallet, path) {
  const answer = walletCall(page, path);
  await page.getByRole("button", { name: "Link a wallet" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.waitFor({ state: "visible" });
  await pickWallet(dialog, wallet);
  const result = await answer;
  await dialog.waitFor({ state: "hidden" });
  return result;
}

/** Logs out from the account card and waits for the landing page. */
export async function logOut(page) {
  await page.getByRole("button", { name: "Log out" }).click();
  await expectSignedOut(page);
}

/** Reveals the embedded wallet's private key on the export screen (as a user may) and returns it. */
export async function exportEmbeddedKey(page) {
  await page.getByRole("button", { name: "Export private key" }).click();
  const key = await revealExportedKey(page);
  assert.match(key, /^0x[0-9a-f]{64}$/i);
  return key;
}
