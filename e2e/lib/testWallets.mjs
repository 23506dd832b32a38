// The test wallets of tools/test-wallets in a page: the test holds the keys, the page's init script gets them
// (each test uses its own page, since init scripts cannot be taken back), and `window.symbolonTestWallet` is the
// switch through which the "user" accepts or rejects prompts.
import { createPrivateKey, createPublicKey, randomBytes } from "node:crypto";
import { base58 } from "@scure/base";
import { testWalletsInitScript } from "@symbolon/test-wallets/bundle";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";

/** A fresh Ethereum key and its (checksummed) address. */
export function newEthereumKey() {
  const privateKey = generatePrivateKey();
  return { privateKey, address: privateKeyToAddress(privateKey) };
}

/** A fresh ed25519 seed (hex) and its Solana address (base58 of the public key), computed by Node's crypto. */
export function newSolanaKey() {
  const seed = randomBytes(32);
  const pkcs8 = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]);
  const jwk = createPublicKey(createPrivateKey({ key: pkcs8, format: "der", type: "pkcs8" })).export({
    format: "jwk",
  });
  return { secretKey: seed.toString("hex"), address: base58.encode(Buffer.from(String(jwk.x), "base64url")) };
}

/**
 * A new page of `context` with the test wallets installed (before any script of the app runs).
 * The Ethereum wallet starts on the stack's chain (50312), which it knows with the local RPC.
 * @param {import('playwright-core').BrowserContext} context
 * @param {{ ethereum?: { privateKey: string, chainId?: number }, solana?: { secretKey: string } }} wallets
 * @param {{ urls: { chain: string | null } }} stack
 */
export async function pageWithTestWallets(context, wallets, stack) {
  const config = {
    ...(wallets.ethereum && {
      ethereum: {
        chainId: 50312,
        ...wallets.ethereum,
        chains: [{ id: 50312, ...(stack.urls.chain && { rpcUrl: stack.urls.chain }) }],
      },
    }),
    ...(wallets.solana && { solana: wallets.solana }),
  };
  const page = await context.newPage();
  await page.addInitScript({ content: await testWalletsInitScript(config) });
  return page;
}

/** Sets the wallets' reject switch: true refuses every prompt (4001), a list only those methods, false none. */
export async function setReject(page, reject) {
  await page.evaluate((value) => {
    window.symbolonTestWallet.reject = value;
  }, reject);
}

/** The requests the page's test wallets received so far (method or feature names, in order). */
export async function walletRequests(page) {
  return page.evaluate(() => [...(window.symbolonTestWallet?.requests ?? [])]);
}

/** The messages the page's wallets were asked to sign, as the user read them in the wallet (text). */
export async function walletMessages(page) {
  return page.evaluate(() => [...(window.symbolonTestWallet?.messages ?? [])]);
}

/** Closes every page of the context but `keep` (earlier tests' pages keep their own wallets). */
export async function closeOtherPages(context, keep) {
  for (const page of context.pages()) if (page !== keep) await page.close();
}
