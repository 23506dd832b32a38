// Rebuilds, from shares captured on the wallet origin, every secret the host page must never see, so the
// isolation test can search the host side for them. The rebuild is checked against the wallet's real address
// and exported key (with the wallet-core wasm), so a wrong rebuild fails the test instead of passing it.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { entropyToMnemonic } from "@scure/bip39";
import { wordlist as english } from "@scure/bip39/wordlists/english";
import { bytesToHex, hexToBytes } from "viem";

const PKG = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../crates/wallet-core/pkg");

let wasm;
/** The wallet-core wasm build, loaded into Node once. */
export async function walletCore() {
  if (!wasm) {
    wasm = await import(path.join(PKG, "symbolon_wallet_core.js"));
    await wasm.default({ module_or_path: readFileSync(path.join(PKG, "symbolon_wallet_core_bg.wasm")) });
  }
  return wasm;
}

// GF(2^8) with the AES polynomial (what vsss-rs uses), only to evaluate the sharing polynomial at other x.
function gfMul(a, b) {
  let product = 0;
  for (let i = 0; i < 8; i++) {
    if (b & 1) product ^= a;
    const carry = a & 0x80;
    a = (a << 1) & 0xff;
    if (carry) a ^= 0x1b;
    b >>= 1;
  }
  return product;
}
function gfInverse(a) {
  for (let b = 1; b < 256; b++) if (gfMul(a, b) === 1) return b;
  throw new Error("0 has no inverse");
}

/** The value at `x` of the degree-1 polynomial through two shares (`identifier || bytes`). */
function evaluateAt(x, shareA, shareB) {
  const [xa, xb] = [shareA[0], shareB[0]];
  const denominator = gfInverse(xa ^ xb);
  const la = gfMul(x ^ xb, denominator); // Lagrange basis at x (subtraction is xor in GF(2^8))
  const lb = gfMul(x ^ xa, denominator);
  return Uint8Array.from(shareA.subarray(1), (ya, i) => gfMul(ya, la) ^ gfMul(shareB[i + 1], lb));
}

/**
 * Every secret of one split, from its auth and recovery shares (base64): entropy, mnemonic, all three shares
 * and the private keys of `walletIndices`. Throws unless they rebuild `address`.
 */
export async function secretsOfSplit({ authShare, recoveryShare, address, exportedKey }) {
  const { Wallet } = await walletCore();
  const auth = Uint8Array.from(Buffer.from(authShare, "base64"));
  const recovery = Uint8Array.from(Buffer.from(recoveryShare, "base64"));
  const entropy = evaluateAt(0, auth, recovery);
  const device = Uint8Array.of(1, ...evaluateAt(1, auth, recovery));
  const wallet = Wallet.fromEntropy(entropy);
  try {
    assert.equal(wallet.address(0), address, "the captured shares rebuild the wallet");
    const privateKey = wallet.exportPrivateKey(0);
    if (exportedKey) assert.equal(privateKey.toLowerCase(), exportedKey.toLowerCase());
    const viaShares = Wallet.recover(device, auth);
    assert.equal(viaShares.address(0), address, "the derived device share is a real share");
    viaShares.free();
    return {
      entropy: bytesToHex(entropy),
      mnemonic: entropyToMnemonic(entropy, english),
      privateKey,
      shares: { device, auth, recovery },
    };
  } finally {
    wallet.free();
  }
}

/** The strings a secret could appear as in text: hex (with and without 0x, any case) and base64 forms. */
export function needlesOf(secrets) {
  const needles = [];
  const add = (name, bytes) => {
    const hex = bytesToHex(bytes).slice(2);
    needles.push({ name: `${name} (hex)`, text: hex, caseless: true });
    const b64 = Buffer.from(bytes).toString("base64");
    needles.push({ name: `${name} (base64)`, text: b64.replace(/=+$/, "") });
    needles.push({ name: `${name} (base64url)`, text: Buffer.from(bytes).toString("base64url") });
  };
  add("entropy", hexToBytes(secrets.entropy));
  add("private key", hexToBytes(secrets.privateKey));
  for (const [kind, share] of Object.entries(secrets.shares)) {
    add(`${kind} share`, share);
    add(`${kind} share value`, share.subarray(1));
  }
  needles.push({ name: "mnemonic", text: secrets.mnemonic, caseless: true });
  return needles;
}

/** The needles found in `haystack`. */
export function findNeedles(needles, haystack) {
  const lower = haystack.toLowerCase();
  return needles.filter((n) =>
    n.caseless ? lower.includes(n.text.toLowerCase()) : haystack.includes(n.text),
  );
}
