// The embedded wallet as a user lives it: created on first sign-in, sign a message and typed data, get test STT,
// send 0.01 STT, then the same wallet on a "new device" (the frame's storage wiped); then a wallet the host
// pregenerated over /v1 is the user's at first sign-in.
import assert from "node:assert/strict";
import { PrivyClient } from "@privy-io/node";
import { parseEther, recoverTypedDataAddress, verifyMessage } from "viem";
import { sharedBrowser } from "../lib/browser.mjs";
import { expectSignedOut, logIn, uniqueEmail } from "../lib/flows.mjs";
import { useStack } from "../lib/stack.mjs";
import {
  chainClient,
  clearWalletStorage,
  confirmInModal,
  deviceKeysIn,
  RECIPIENT,
  readHex,
  shownAddress,
  signMessageInUi,
  waitForBalance,
  walletFrame,
} from "../lib/wallet.mjs";

const stack = useStack();
const step = sharedBrowser();
const email = uniqueEmail("wallet");
let address;

step("a new user gets an embedded wallet without doing anything; its address is shown", async ({ page }) => {
  const created = page.waitForResponse(
    (r) => r.url().endsWith("/api/v1/embedded_wallets") && r.request().method() === "POST",
  );
  await logIn(page, stack, email);
  const response = await created;
  assert.equal(response.status(), 200);
  const { user, wallet } = await response.json();
  address = await shownAddress(page);
  assert.equal(wallet.address, address);
  const linked = user.linked_accounts.find((a) => a.type === "wallet");
  assert.deepEqual(
    {
      type: linked.type,
      address: linked.address,
      chain_type: linked.chain_type,
      wallet_client_type: linked.wallet_client_type,
      connector_type: linked.connector_type,
      wallet_index: linked.wallet_index,
      recovery_method: linked.recovery_method,
    },
    {
      type: "wallet",
      address,
      chain_type: "ethereum",
      wallet_client_type: "privy",
      connector_type: "embedded",
      wallet_index: 0,
      recovery_method: "privy",
    },
  );
  assert.equal(typeof linked.id, "string");
  // The shares went from the wallet origin, not from the page the user is on.
  assert.equal(new URL(response.url()).origin, new URL(stack.urls.api).origin);
  assert.notEqual(response.frame(), page.mainFrame());
});

step("personal_sign: the signature verifies for the wallet address", async ({ page }) => {
  const message = `Hello from ${email} at ${new Date().toISOString()}`;
  const signature = await signMessageInUi(page, message);
  assert.equal(await verifyMessage({ address, message, signature }), true);
});

step("a message of only spaces is refused on the page; no blank confirmation opens", async ({ page }) => {
  await page.getByLabel("Message").fill("   ");
  await page.getByRole("button", { name: "Sign message" }).click();
  await page.getByRole("alert").filter({ hasText: "Write a message to sign first." }).waitFor();
  assert.equal(await page.getByRole("dialog").count(), 0, "no confirmation");
  await page.getByLabel("Message").fill("");
});

step("typed data (EIP-712): the signature recovers to the wallet address", async ({ page }) => {
  await page.getByRole("button", { name: "Sign typed data" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.waitFor({ state: "visible" });
  // The confirmation screen shows what is signed; the test signs exactly that.
  const typedData = JSON.parse(await page.getByTestId("confirm-typed-data").textContent());
  await confirmInModal(page, "Sign");
  const signature = await readHex(page, "typed-signature");
  const recovered = await recoverTypedDataAddress({ ...typedData, signature });
  assert.equal(recovered, address);
});

step("the faucet funds the wallet and the balance updates", async ({ page }) => {
  await page.getByRole("button", { name: "Get test STT" }).click();
  const balance = await waitForBalance(page, (b) => b >= 1);
  const onChain = await chainClient(stack).getBalance({ address });
  assert.equal(onChain, parseEther(String(balance)));
});

step("sending 0.01 STT produces a receipt on the chain and the balance goes down", async ({ page }) => {
  const chain = chainClient(stack);
  const before = await chain.getBalance({ address: RECIPIENT });
  const shownBefore = await waitForBalance(page, (b) => b >= 1);
  await page.getByLabel("Recipient").fill(RECIPIENT);
  await page.getByLabel("Amount (STT)").fill("0.01");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await confirmInModal(page, "Send");
  const hash = await readHex(page, "tx-hash", 30_000);
  const receipt = await chain.waitForTransactionReceipt({ hash, timeout: 15_000 });
  assert.equal(receipt.status, "success");
  assert.equal(receipt.from.toLowerCase(), address.toLowerCase());
  assert.equal(receipt.to.toLowerCase(), RECIPIENT.toLowerCase());
  const tx = await chain.getTransaction({ hash });
  assert.equal(tx.value, parseEther("0.01"));
  assert.equal(tx.chainId, 50312);
  assert.equal((await chain.getBalance({ address: RECIPIENT })) - before, parseEther("0.01"));
  await waitForBalance(page, (b) => b < shownBefore - 0.0099);
});

step(
  "new device: with the frame's storage wiped, logging in again gives the same address and signing works",
  async ({ context, page }) => {
    const frame = await walletFrame(page, stack);
    assert.ok((await frame.evaluate(() => localStorage.length)) > 0, "the frame kept a device share");
    await page.getByRole("button", { name: "Log out" }).click();
    await expectSignedOut(page);
    await clearWalletStorage(context, page, stack);

    const walletCalls = [];
    const onRequest = (r) => r.url().includes("/api/v1/embedded_wallets") && walletCalls.push(r.url());
    page.on("request", onRequest);
    await page.reload();
    assert.equal(await (await walletFrame(page, stack)).evaluate(() => localStorage.length), 0);
    await logIn(page, stack, email);
    assert.equal(await shownAddress(page), address);
    const message = "Same wallet, new device";
    const signature = await signMessageInUi(page, message);
    page.off("request", onRequest);
    assert.equal(await verifyMessage({ address, message, signature }), true);
    // Recovered from the server's shares and re-split; no second wallet was created.
    assert.ok(
      walletCalls.some((u) => u.endsWith("/recovery/key_material")),
      walletCalls.join("\n"),
    );
    assert.ok(
      walletCalls.some((u) => u.endsWith("/shares")),
      walletCalls.join("\n"),
    );
    assert.ok(!walletCalls.some((u) => u.endsWith("/embedded_wallets")), walletCalls.join("\n"));
    const frameAfter = await walletFrame(page, stack);
    assert.ok((await frameAfter.evaluate(() => localStorage.length)) > 0, "a fresh device share was stored");
  },
);

step(
  "a reload in the same session unlocks with the device key: the server sends the auth share only",
  async ({ page }) => {
    const keys = await deviceKeysIn(await walletFrame(page, stack));
    assert.equal(keys.length, 1, "one device key for the user");
    assert.deepEqual(
      { extractable: keys[0].extractable, type: keys[0].type, algorithm: keys[0].algorithm },
      { extractable: false, type: "private", algorithm: "ECDSA" },
    );
    const exchanges = [];
    const onResponse = async (response) => {
      if (!response.url().endsWith("/recovery/key_material")) return;
      exchanges.push({
        request: response.request().postDataJSON(),
        body: await response.json().catch(() => null),
      });
    };
    page.on("response", onResponse);
    await page.reload();
    assert.equal(await shownAddress(page), address);
    const message = "Unlocked by this device";
    const signature = await signMessageInUi(page, message);
    page.off("response", onResponse);
    assert.equal(await verifyMessage({ address, message, signature }), true);
    assert.ok(exchanges.length > 0, "the reload unlocked through key_material");
    for (const { request, body } of exchanges) {
      assert.equal(request.recovery, undefined, JSON.stringify(request));
      assert.match(request.device_signature, /^[A-Za-z0-9+/]{86}==$/);
      assert.equal(body.recovery_share, null, "no recovery share for a known device");
      assert.equal(typeof body.auth_share, "string");
    }
  },
);

step(
  "a wallet the host pregenerated with @privy-io/node is the user's at first sign-in: same address, signs",
  async ({ page }) => {
    await page.getByRole("button", { name: "Log out" }).click();
    await expectSignedOut(page);
    const host = new PrivyClient({ appId: stack.appId, appSecret: stack.appSecret, apiUrl: stack.urls.api });
    const newcomer = uniqueEmail("pregenerated");
    const created = await host.users().create({
      linked_accounts: [{ type: "email", address: newcomer }],
      wallets: [{ chain_type: "ethereum" }],
    });
    const pregenerated = created.linked_accounts.find((a) => a.type === "wallet");
    assert.equal(pregenerated.wallet_index, 0);

    const walletCalls = [];
    const onRequest = (r) => r.url().includes("/api/v1/embedded_wallets") && walletCalls.push(r.url());
    page.on("request", onRequest);
    await logIn(page, stack, newcomer);
    assert.equal(await shownAddress(page), pregenerated.address);
    const message = "My pregenerated wallet";
    const signature = await signMessageInUi(page, message);
    page.off("request", onRequest);
    assert.equal(await verifyMessage({ address: pregenerated.address, message, signature }), true);
    // The frame recovered it (no device share existed) and made no wallet of its own.
    assert.ok(
      walletCalls.some((u) => u.endsWith("/recovery/key_material")),
      walletCalls.join("\n"),
    );
    assert.ok(!walletCalls.some((u) => u.endsWith("/embedded_wallets")), walletCalls.join("\n"));
    const user = await host.users()._get(created.id);
    assert.deepEqual(
      user.linked_accounts.filter((a) => a.type === "wallet").map((a) => a.address),
      [pregenerated.address],
    );
  },
);
