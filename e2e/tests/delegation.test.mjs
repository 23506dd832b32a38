// Delegated actions as a user and a host's back end live them (docs/delegation.md): the user delegates their
// embedded wallet from the web app (the consent screen shows the app's policy), a back-end script with the
// published @privy-io/node sends STT on the local chain within that policy (receipt checked), a payment over the
// policy's cap and one past its daily total are refused with the rule named, and after the user revokes, the next
// call is refused.
import assert from "node:assert/strict";
import { backEnd } from "@symbolon/stack";
import { parseEther } from "viem";
import { sharedBrowser } from "../lib/browser.mjs";
import { logIn, uniqueEmail } from "../lib/flows.mjs";
import { useStack } from "../lib/stack.mjs";
import { chainClient, RECIPIENT, shownAddress } from "../lib/wallet.mjs";

const stack = useStack();
const step = sharedBrowser();
let address;
let walletId;
let back;

/** What the back end's SDK call was refused with: status and body text. */
async function refusal(call) {
  try {
    await call();
  } catch (error) {
    return { status: error.status, text: JSON.stringify(error.error ?? error.message) };
  }
  assert.fail("the call was not refused");
}

async function chainRpc(method, params) {
  const response = await fetch(stack.urls.chain, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const { result, error } = await response.json();
  assert.equal(error, undefined, `${method}: ${JSON.stringify(error)}`);
  return result;
}

step(
  "the user delegates the wallet; the consent screen shows the app's signer and policy",
  async ({ page }) => {
    await logIn(page, stack, uniqueEmail("delegate"));
    address = await shownAddress(page);
    const state = page.getByTestId("delegation-state");
    await state.filter({ hasText: "Not delegated" }).waitFor();
    await page.getByRole("button", { name: "Delegate to this app" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText(/to use your wallet while you're away/).waitFor();
    await dialog.getByText("Demo back end: small payments").waitFor();
    await dialog.getByText("at most 1 STT a payment").waitFor();
    await dialog.getByText(/the 24 h total of ethereum_transaction.value gt 2000000000000000000/).waitFor();
    await dialog.getByRole("button", { name: "Allow", exact: true }).click();
    await dialog.getByText("Delegation enabled").waitFor();
    await dialog.waitFor({ state: "detached", timeout: 10_000 });
    await state.filter({ hasText: "Delegated to this app" }).waitFor();

    back = await backEnd({
      ...stack.delegation,
      apiUrl: stack.urls.api,
      appId: stack.appId,
      appSecret: stack.appSecret,
    });
    const wallets = await back.delegatedWallets();
    const wallet = wallets.find((w) => w.address.toLowerCase() === address.toLowerCase());
    assert.ok(wallet, `the back end sees the wallet delegated: ${JSON.stringify(wallets)}`);
    assert.deepEqual(
      wallet.additional_signers.map((s) => s.signer_id),
      [stack.delegation.keyQuorumId],
    );
    walletId = wallet.id;
  },
);

step(
  "the back end sends 0.01 STT within the policy with @privy-io/node; the receipt is the wallet's",
  async () => {
    await chainRpc("eth_sendTransaction", [
      { from: stack.chain.funder.address, to: address, value: `0x${parseEther("3").toString(16)}` },
    ]);
    const chain = chainClient(stack);
    const before = await chain.getBalance({ address: RECIPIENT });
    const hash = await back.send(walletId, {
      to: RECIPIENT,
      valueWei: parseEther("0.01"),
      chainId: stack.chain.chainId,
    });
    const receipt = await chain.waitForTransactionReceipt({ hash, timeout: 20_000 });
    assert.equal(receipt.status, "success");
    assert.equal(receipt.from.toLowerCase(), address.toLowerCase());
    assert.equal((await chain.getBalance({ address: RECIPIENT })) - before, parseEther("0.01"));
    const signature = await back.signMessage(walletId, "Sign in to the demo");
    assert.match(signature, /^0x[0-9a-f]{130}$/);
  },
);

step("a payment over the policy's cap and a message it does not allow are refused, naming why", async () => {
  const big = await refusal(() =>
    back.send(walletId, { to: RECIPIENT, valueWei: parseEther("1.5"), chainId: stack.chain.chainId }),
  );
  assert.equal(big.status, 403);
  assert.match(big.text, /policy_violation/);
  assert.match(big.text, /at most 1 STT a payment/);
  const message = await refusal(() => back.signMessage(walletId, "Transfer everything"));
  assert.equal(message.status, 403);
  assert.match(message.text, /No rule of the consented policies allows this personal_sign request/);
});

step(
  "payments within the cap add up: the one past 2 STT a day is refused, naming the daily rule",
  async () => {
    const pay = (stt) =>
      back.send(walletId, { to: RECIPIENT, valueWei: parseEther(stt), chainId: stack.chain.chainId });
    await pay("0.9");
    await pay("0.9");
    const past = await refusal(() => pay("0.5"));
    assert.equal(past.status, 403);
    assert.match(past.text, /at most 2 STT a day/);
    // What still fits in the day passes (0.01 + 0.9 + 0.9 + 0.1 ≤ 2).
    const hash = await pay("0.1");
    assert.equal(
      (await chainClient(stack).waitForTransactionReceipt({ hash, timeout: 20_000 })).status,
      "success",
    );
  },
);

step("the user revokes; the back end's next call is refused", async ({ page }) => {
  await page.getByRole("button", { name: "Revoke", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Revoke", exact: true }).click();
  await dialog.getByText("Access revoked").waitFor();
  await dialog.waitFor({ state: "detached", timeout: 10_000 });
  await page.getByTestId("delegation-state").filter({ hasText: "Not delegated" }).waitFor();
  const after = await refusal(() =>
    back.send(walletId, { to: RECIPIENT, valueWei: parseEther("0.01"), chainId: stack.chain.chainId }),
  );
  assert.equal(after.status, 403);
  assert.match(after.text, /user_has_not_delegated_wallet/);
});
