// External wallets as a person meets them (issue 11; spec §4 SIWE and wallet-connection states, §5 embedded
// wallets cannot log in, §8 wallet-connection codes): the test wallets of tools/test-wallets play the browser
// wallets — an injected EIP-1193/EIP-6963 Ethereum wallet and a Wallet Standard Solana wallet whose keys the test
// holds and whose `reject` switch is the user saying no. Each step uses its own page (its own keys) in one browser.
import assert from "node:assert/strict";
import { routeVerifyToStandIn, startWalletConnectWallet } from "@symbolon/stack";
import { verifyMessage } from "viem";
import { sharedBrowser } from "../lib/browser.mjs";
import {
  ETHEREUM_TEST_WALLET,
  exportEmbeddedKey,
  linkWallet,
  logOut,
  openWalletList,
  pickWallet,
  SOLANA_TEST_WALLET,
  walletCall,
} from "../lib/externalWallets.mjs";
import { expectSignedOut, logIn, uniqueEmail } from "../lib/flows.mjs";
import { useStack } from "../lib/stack.mjs";
import {
  newEthereumKey,
  newSolanaKey,
  pageWithTestWallets,
  setReject,
  walletMessages,
  walletRequests,
} from "../lib/testWallets.mjs";
import { readHex, shownAddress } from "../lib/wallet.mjs";

const stack = useStack();
const step = sharedBrowser();

/**
 * Checks the sign-in message the wallet showed (EIP-4361 / Sign In With Solana): this app's host, the account, the
 * app's URI, a nonce, and for Ethereum the chain.
 */
function assertSignInMessage(message, chain, address) {
  const web = new URL(stack.urls.web);
  const lines = message.split("\n");
  assert.equal(lines[0], `${web.host} wants you to sign in with your ${chain} account:`, message);
  assert.equal(lines[1], address, message);
  assert.ok(lines.includes(`URI: ${web.origin}`) || lines.includes(`URI: ${web.origin}/`), message);
  if (chain === "Ethereum") assert.ok(lines.includes("Chain ID: 50312"), message);
  assert.ok(
    lines.some((l) => /^Nonce: [0-9A-Za-z]{8,}$/.test(l)),
    message,
  );
}

/** The `wallet` linked account of `address` in a server user (server form). */
function walletAccount(user, address) {
  return user.linked_accounts.find((a) => a.type === "wallet" && a.address === address);
}

/**
 * The Wallet card of a user signed in with a browser wallet (issue 20): the wallet shown as the connected external
 * one, no Export (Symbolon holds no key for it), "Create an embedded wallet", and signing through the browser wallet.
 */
async function useConnectedWallet(page, address) {
  const card = page.getByRole("region", { name: "Wallet" });
  assert.equal(
    (await card.getByTestId("wallet-kind").textContent())?.trim(),
    "Connected wallet (external) · Symbolon Test Wallet",
  );
  assert.equal((await card.getByTestId("wallet-address").textContent())?.trim(), address);
  assert.equal(await card.getByRole("button", { name: "Export private key" }).count(), 0, "no Export");
  await card.getByRole("button", { name: "Create an embedded wallet" }).waitFor();
  const before = (await walletRequests(page)).filter((m) => m === "personal_sign").length;
  await card.getByLabel("Message").fill("Signed by my browser wallet");
  await card.getByRole("button", { name: "Sign message" }).click();
  const signature = /** @type {`0x${string}`} */ (await readHex(page, "signature"));
  assert.ok(
    await verifyMessage({ address, message: "Signed by my browser wallet", signature }),
    "the browser wallet's key signed",
  );
  const after = (await walletRequests(page)).filter((m) => m === "personal_sign").length;
  assert.equal(after, before + 1, "the browser wallet was asked to sign");
  assert.equal(await card.getByText(/is not an embedded wallet/).count(), 0);
}

step(
  "SIWE: a new user signs in with the injected wallet, and after logging out the same user again",
  async ({ context }) => {
    const key = newEthereumKey();
    // The wallet starts on mainnet, like a fresh browser wallet: connecting switches it to the app's chain.
    const page = await pageWithTestWallets(
      context,
      { ethereum: { privateKey: key.privateKey, chainId: 1 } },
      stack,
    );
    const ids = [];
    // The demo app creates embedded wallets for users without wallets: a wallet user already has one.
    const walletCreations = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname === "/api/v1/embedded_wallets")
        walletCreations.push(request.url());
    });
    for (const round of ["new", "again"]) {
      const dialog = await openWalletList(page, stack);
      // Installed wallets first: once found, the test wallet heads the list.
      await dialog.getByRole("button", { name: /^Symbolon Test Wallet Ethereum Installed$/ }).waitFor();
      const first = dialog.getByRole("list", { name: "Wallets" }).getByRole("button").first();
      assert.match((await first.textContent()) ?? "", /^Symbolon Test Wallet\s*Ethereum\s*Installed$/);
      const answer = walletCall(page, "/api/v1/siwe/authenticate");
      await pickWallet(dialog, ETHEREUM_TEST_WALLET);
      const { status, body } = await answer;
      assert.equal(status, 200, `siwe/authenticate answered ${status}: ${JSON.stringify(body)}`);
      assert.equal(body.is_new_user, round === "new");
      const account = walletAccount(body.user, key.address);
      assert.ok(account, `the server's user has the wallet: ${JSON.stringify(body.user.linked_accounts)}`);
      assert.equal(account.chain_type, "ethereum");
      assert.equal(account.connector_type, "injected");
      assert.equal(account.wallet_client_type, "symbolon_test_wallet");
      await dialog.waitFor({ state: "hidden" });
      // What the user sees: signed in as the wallet's address, with the user's id.
      await page.getByTestId("user-id").waitFor();
      assert.equal((await page.getByTestId("user-id").textContent())?.trim(), body.user.id);
      assert.equal((await page.getByTestId("user-email").textContent())?.trim(), key.address);
      ids.push(body.user.id);
      assert.equal(
        await page.evaluate(() => window.symbolonTestWallet.chainId),
        50312,
        "switched to the app's chain",
      );
      // What the wallet showed (the page's wallet starts afresh on every load).
      const messages = await walletMessages(page);
      assert.equal(messages.length, 1, "one signature per sign-in");
      assertSignInMessage(messages[0], "Ethereum", key.address);
      if (round === "new") await useConnectedWallet(page, key.address);
      await logOut(page);
    }
    assert.equal(ids[1], ids[0], "the same user both times");
    assert.deepEqual(walletCreations, [], "no embedded wallet for a user who signs in with a wallet");
    const asked = await walletRequests(page);
    for (const method of ["eth_requestAccounts", "wallet_switchEthereumChain", "personal_sign"])
      assert.ok(asked.includes(method), `${method} in ${asked.join(", ")}`);
    await page.close();
  },
);

step(
  "a SIWE user creates an embedded wallet from the Wallet card; it then shows the embedded wallet with Export",
  async ({ context }) => {
    const key = newEthereumKey();
    const page = await pageWithTestWallets(context, { ethereum: { privateKey: key.privateKey } }, stack);
    const dialog = await openWalletList(page, stack);
    const answer = walletCall(page, "/api/v1/siwe/authenticate");
    await pickWallet(dialog, ETHEREUM_TEST_WALLET);
    assert.equal((await answer).status, 200);
    await dialog.waitFor({ state: "hidden" });
    const card = page.getByRole("region", { name: "Wallet" });
    const created = page.waitForResponse(
      (r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/api/v1/embedded_wallets",
    );
    await card.getByRole("button", { name: "Create an embedded wallet" }).click();
    assert.ok((await created).ok(), "the server created the wallet");
    await card.getByTestId("wallet-kind").filter({ hasText: "Embedded wallet" }).waitFor({ timeout: 30_000 });
    const address = await shownAddress(page);
    assert.notEqual(address, key.address, "a new wallet, not the browser wallet");
    await card.getByRole("button", { name: "Export private key" }).waitFor();
    assert.equal(await card.getByRole("button", { name: "Create an embedded wallet" }).count(), 0);
    await logOut(page);
    await page.close();
  },
);

step(
  "the user declines the connection, then the signature (4001 shown as a refusal each time); Try again signs in",
  async ({ context }) => {
    const key = newEthereumKey();
    const page = await pageWithTestWallets(context, { ethereum: { privateKey: key.privateKey } }, stack);
    const dialog = await openWalletList(page, stack);
    // Connecting: the wallet's prompt is declined; the connection goes back to disconnected with a retry.
    await setReject(page, true);
    await pickWallet(dialog, ETHEREUM_TEST_WALLET);
    await dialog.getByRole("heading", { name: `Could not connect to ${ETHEREUM_TEST_WALLET}` }).waitFor();
    assert.equal(
      (await dialog.getByRole("alert").textContent())?.trim(),
      "You declined the connection request. Try again to connect.",
    );
    // Try again connects; now the signature is declined.
    await setReject(page, ["personal_sign"]);
    await dialog.getByRole("button", { name: "Try again" }).click();
    // WalletSignScreen: the 4001 reads as the person's refusal, never as a raw error.
    await dialog.getByRole("heading", { name: "Could not sign in" }).waitFor();
    assert.equal(
      (await dialog.getByRole("alert").textContent())?.trim(),
      "You declined the signature request. Try again to sign in.",
    );
    assert.deepEqual(
      (await walletRequests(page)).slice(-1),
      ["personal_sign"],
      "the wallet was asked to sign",
    );
    const retry = dialog.getByRole("button", { name: "Try again" });
    await retry.waitFor();
    assert.equal(await page.getByTestId("user-id").count(), 0, "nobody is signed in");
    await setReject(page, false);
    const answer = walletCall(page, "/api/v1/siwe/authenticate");
    await retry.click();
    const { status, body } = await answer;
    assert.equal(status, 200, JSON.stringify(body));
    assert.ok(walletAccount(body.user, key.address));
    await dialog.waitFor({ state: "hidden" });
    assert.equal((await page.getByTestId("user-email").textContent())?.trim(), key.address);
    await logOut(page);
    await page.close();
  },
);

step(
  "an email user links an Ethereum and a Solana wallet; the accounts card lists both",
  async ({ context }) => {
    const eth = newEthereumKey();
    const sol = newSolanaKey();
    const page = await pageWithTestWallets(
      context,
      { ethereum: { privateKey: eth.privateKey }, solana: { secretKey: sol.secretKey } },
      stack,
    );
    const email = uniqueEmail("wallet-link");
    const login = await logIn(page, stack, email);
    for (const [wallet, path, address] of [
      [ETHEREUM_TEST_WALLET, "/api/v1/siwe/link", eth.address],
      [SOLANA_TEST_WALLET, "/api/v1/siws/link", sol.address],
    ]) {
      const { status, body } = await linkWallet(page, wallet, path);
      assert.equal(status, 200, `${path} answered ${status}: ${JSON.stringify(body)}`);
      assert.equal(body.id ?? body.user?.id, login.user.id, "linked to the signed-in user");
      await page.getByText(address, { exact: true }).first().waitFor();
    }
    // The server's user, as the page reads it again after a reload.
    const me = page.waitForResponse((r) => r.url().endsWith("/api/v1/users/me") && r.status() === 200);
    await page.reload();
    const user = await (await me).json().then((b) => b.user ?? b);
    assert.equal(walletAccount(user, eth.address)?.chain_type, "ethereum");
    assert.equal(walletAccount(user, sol.address)?.chain_type, "solana");
    assert.ok(user.linked_accounts.some((a) => a.type === "email" && a.address === email));
    await logOut(page);
    await page.close();
  },
);

step("SIWS: a new user signs in with the Solana test wallet", async ({ context }) => {
  const sol = newSolanaKey();
  const page = await pageWithTestWallets(context, { solana: { secretKey: sol.secretKey } }, stack);
  const dialog = await openWalletList(page, stack);
  const answer = walletCall(page, "/api/v1/siws/authenticate");
  await pickWallet(dialog, SOLANA_TEST_WALLET);
  const { status, body } = await answer;
  assert.equal(status, 200, `siws/authenticate answered ${status}: ${JSON.stringify(body)}`);
  assert.equal(body.is_new_user, true);
  const account = walletAccount(body.user, sol.address);
  assert.ok(account, JSON.stringify(body.user.linked_accounts));
  assert.equal(account.chain_type, "solana");
  await dialog.waitFor({ state: "hidden" });
  assert.equal((await page.getByTestId("user-email").textContent())?.trim(), sol.address);
  const asked = await walletRequests(page);
  assert.ok(asked.includes("solana:signMessage"), asked.join(", "));
  const [message] = await walletMessages(page);
  assertSignInMessage(message, "Solana", sol.address);
  await logOut(page);
  await page.close();
});

step(
  "an embedded wallet's key cannot sign in with SIWE: 'Cannot link or login with embedded wallet'",
  async ({ context, page: first }) => {
    // A user with an embedded wallet exports its key, as the export screen allows.
    await logIn(first, stack, uniqueEmail("embedded-refused"));
    const address = await shownAddress(first);
    const privateKey = await exportEmbeddedKey(first);
    await logOut(first);
    // The same key in a browser wallet.
    const page = await pageWithTestWallets(context, { ethereum: { privateKey } }, stack);
    const dialog = await openWalletList(page, stack);
    const refusals = [];
    page.on("response", (r) => {
      if (/\/api\/v1\/siwe\//.test(r.url()) && r.status() >= 400) refusals.push(r);
    });
    await pickWallet(dialog, ETHEREUM_TEST_WALLET);
    await dialog.getByText("Cannot link or login with embedded wallet").waitFor();
    assert.equal(await page.getByTestId("user-id").count(), 0, "nobody is signed in");
    assert.equal(refusals.length, 1, "the server refused once");
    const body = await refusals[0].json();
    assert.match(JSON.stringify(body), /embedded wallet/i);
    assert.equal(await page.evaluate(() => window.symbolonTestWallet.address), address);
    await page.keyboard.press("Escape");
    await expectSignedOut(page);
    await page.close();
  },
);

step(
  "WalletConnect: the QR code's pairing URI, scanned by a phone wallet (the Node wallet), signs a new user in",
  async ({ page }) => {
    assert.ok(stack.urls.walletConnectRelay, "the stack runs the WalletConnect relay stand-in");
    const key = newEthereumKey();
    // WalletConnect's Verify service is the stand-in's too (the page's attestations, the wallet's check of them).
    await routeVerifyToStandIn(page, stack.urls.walletExplorer);
    const phone = await startWalletConnectWallet({
      relayUrl: stack.urls.walletConnectRelay,
      privateKey: key.privateKey,
      verifyUrl: stack.urls.walletExplorer,
    });
    try {
      const dialog = await openWalletList(page, stack);
      await dialog.getByRole("button", { name: /^WalletConnect Ethereum$/ }).click();
      const qr = dialog.getByRole("img", { name: "WalletConnect QR code" });
      await qr.waitFor();
      const uri = (await qr.getAttribute("data-value")) ?? "";
      assert.match(uri, /^wc:[0-9a-f]{64}@2\?/);
      const answer = walletCall(page, "/api/v1/siwe/authenticate", 30_000);
      assert.ok(await phone.pair(uri), "the wallet approved the session");
      // The proposal came with a Verify attestation for this page's origin, which the wallet checked.
      assert.deepEqual(phone.verifications, ["VALID"]);
      const { status, body } = await answer;
      assert.equal(status, 200, `siwe/authenticate answered ${status}: ${JSON.stringify(body)}`);
      assert.equal(body.is_new_user, true);
      const account = walletAccount(body.user, key.address);
      assert.ok(account, JSON.stringify(body.user.linked_accounts));
      assert.equal(account.connector_type, "wallet_connect");
      await dialog.waitFor({ state: "hidden" });
      assert.equal((await page.getByTestId("user-email").textContent())?.trim(), key.address);
      assert.ok(
        phone.requests.some((r) => r.method === "personal_sign"),
        "the phone wallet signed the sign-in message",
      );
      await logOut(page);
    } finally {
      await phone.stop();
    }
  },
);
