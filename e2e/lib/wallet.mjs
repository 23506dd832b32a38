// What a user does with the embedded wallet on the account page, and what the tests check it against:
// the local chain (viem over anvil) and the wallet frame (its origin is the server's).
import assert from "node:assert/strict";
import { createPublicClient, defineChain, getAddress, http } from "viem";

/** Anvil's dev account 1: a recipient with a known address and no part in the faucet. */
export const RECIPIENT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

/** A viem client on the stack's chain (anvil, chain id 50312). */
export function chainClient(stack) {
  const chain = defineChain({
    id: 50312,
    name: "Somnia Testnet (local)",
    nativeCurrency: { name: "Somnia Testnet Token", symbol: "STT", decimals: 18 },
    rpcUrls: { default: { http: [stack.urls.chain] } },
  });
  return createPublicClient({ chain, transport: http(stack.urls.chain) });
}

/** The origin of the wallet frame (the server's). */
export function walletOrigin(stack) {
  return new URL(stack.urls.api).origin;
}

/** The wallet frame inside `page`, once loaded. */
export async function walletFrame(page, stack, timeout = 15_000) {
  const origin = walletOrigin(stack);
  const deadline = Date.now() + timeout;
  for (;;) {
    const frame = page
      .frames()
      .find((f) => f.url().startsWith(`${origin}/apps/`) && !f.url().includes("/embedded-wallets/export"));
    if (frame) return frame;
    if (Date.now() > deadline) throw new Error(`no wallet frame from ${origin} in the page`);
    await page.waitForTimeout(50);
  }
}

/** Waits until the account page shows the wallet address; returns it (checksummed, as shown). */
export async function shownAddress(page, timeout = 20_000) {
  const shown = page.getByTestId("wallet-address");
  await shown.waitFor({ state: "visible", timeout });
  const address = (await shown.textContent())?.trim() ?? "";
  assert.match(address, /^0x[0-9a-fA-F]{40}$/, `shown address ${address}`);
  assert.equal(address, getAddress(address), "the address is shown EIP-55 checksummed");
  return address;
}

/** Confirms the open sign/send screen with its primary button (`Sign` or `Send`). */
export async function confirmInModal(page, button) {
  const dialog = page.getByRole("dialog");
  await dialog.waitFor({ state: "visible" });
  await dialog.getByRole("button", { name: button, exact: true }).click();
  await dialog.waitFor({ state: "hidden" });
}

/** Signs `message` through the page's form and the confirmation screen; returns the shown signature. */
export async function signMessageInUi(page, message) {
  await page.getByLabel("Message").fill(message);
  await page.getByRole("button", { name: "Sign message" }).click();
  await confirmInModal(page, "Sign");
  return readHex(page, "signature");
}

/** Waits for a `0x…` value in the element with `testId` and returns it. */
export async function readHex(page, testId, timeout = 15_000) {
  const shown = page.getByTestId(testId);
  await shown.waitFor({ state: "visible", timeout });
  await page.waitForFunction(
    (id) => /^0x[0-9a-f]+$/i.test(document.querySelector(`[data-testid="${id}"]`)?.textContent?.trim() ?? ""),
    testId,
    { timeout },
  );
  return (await shown.textContent())?.trim() ?? "";
}

/** The balance the page shows, as a number of STT. */
export async function shownBalance(page) {
  const text = (await page.getByTestId("wallet-balance").textContent()) ?? "";
  const match = text.match(/([0-9][0-9,]*(?:\.[0-9]+)?)\s*STT/);
  assert.ok(match, `balance text "${text}"`);
  return Number(match[1].replaceAll(",", ""));
}

/** Waits until the shown balance satisfies `predicate`. */
export async function waitForBalance(page, predicate, timeout = 20_000) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    last = await shownBalance(page).catch(() => Number.NaN);
    if (predicate(last)) return last;
    if (Date.now() > deadline) throw new Error(`balance stayed at ${last} STT`);
    await page.waitForTimeout(100);
  }
}

/** Empties every storage of the wallet frame's origin (a new device, as far as the wallet knows). */
export async function clearWalletStorage(context, page, stack) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Storage.clearDataForOrigin", { origin: walletOrigin(stack), storageTypes: "all" });
  await cdp.detach();
}

/** The frame's stored device keys (IndexedDB `symbolon-wallet`/`device-keys`): what each CryptoKey allows. */
export async function deviceKeysIn(frame) {
  return frame.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open("symbolon-wallet");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains("device-keys")) return resolve([]);
          const all = db.transaction("device-keys").objectStore("device-keys").getAll();
          all.onerror = () => reject(all.error);
          all.onsuccess = () =>
            resolve(
              all.result.map((k) => ({
                extractable: k.privateKey.extractable,
                type: k.privateKey.type,
                algorithm: k.privateKey.algorithm.name,
                publicKey: k.publicKey,
              })),
            );
        };
      }),
  );
}

/** On the open export screen: Reveal private key (once the wallet page allows it), read the key, Done; returns it. */
export async function revealExportedKey(page) {
  const frame = page.frameLocator('iframe[title="Export wallet"]');
  await frame.getByRole("button", { name: "Reveal private key" }).click();
  const field = frame.getByRole("textbox", { name: "Private key" });
  await field.waitFor({ state: "visible" });
  const key = await field.inputValue();
  await page.getByRole("dialog").getByRole("button", { name: "Done" }).click();
  await page.getByRole("dialog").waitFor({ state: "hidden" });
  return key;
}
