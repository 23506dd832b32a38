// Published vectors against the wasm build of symbolon-wallet-core (wasm-bindgen --target web).
// Run after scripts/build-wasm.sh:  node --test crates/wallet-core/tests/wasm/vectors.test.mjs
// In a browser, pass the wasm bytes (or URL) to `init` the same way.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const pkg = new URL("../../pkg/", import.meta.url);
const wasm = await import(new URL("symbolon_wallet_core.js", pkg).href);
await wasm.default({ module_or_path: readFileSync(new URL("symbolon_wallet_core_bg.wasm", pkg)) });
const { Wallet, mnemonicToSeed, derivePath, encryptShare, decryptShare } = wasm;

const hex = (bytes) => `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
const bytes = (text) =>
  Uint8Array.from(text.replace(/^0x/, "").match(/../g) ?? [], (b) => Number.parseInt(b, 16));
const codeOf = (fn) => {
  try {
    fn();
  } catch (error) {
    return error.code;
  }
  return "no error";
};

// Hardhat/Anvil "test test … junk" mnemonic entropy: account 0 is 0xf39F…2266.
const ANVIL_ENTROPY = bytes("df9bf37e6fcdf9bf37e6fcdf9bf37e3c");
const COW_KEY = "0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4"; // keccak256("cow")

test("BIP-39 Trezor vectors (passphrase TREZOR)", () => {
  const vectors = [
    [
      "00000000000000000000000000000000",
      "c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04",
    ],
    [
      "7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f",
      "2e8905819b8723fe2c1d161860e5ee1830318dbf49a83bd451cfb8440c28bd6fa457fe1296106559a3c80937a1c1069be3a3a5bd381ee6260e8d9739fce1f607",
    ],
    [
      "80808080808080808080808080808080",
      "d71de856f81a8acc65e6fc851a38d4d7ec216fd0796d0a6827a3ad6ed5511a30fa280f12eb2e47ed2ac03b5c462a0358d18d69fe4f985ec81778c1b370b652a8",
    ],
    [
      "ffffffffffffffffffffffffffffffff",
      "ac27495480225222079d7be181583751e86f571027b0497b5b5d11218e0a8a13332572917f0f8e5a589620c6f15b11c61dee327651a14c34e18231052e48c069",
    ],
  ];
  for (const [entropy, seed] of vectors) {
    assert.equal(hex(mnemonicToSeed(bytes(entropy), "TREZOR")), `0x${seed}`);
  }
});

/** Base58Check-decodes an xprv into [chain code, private key] hex. */
function decodeXprv(text) {
  const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  let n = 0n;
  for (const c of text) n = n * 58n + BigInt(alphabet.indexOf(c));
  const raw = bytes(n.toString(16).padStart(164, "0"));
  return [hex(raw.slice(13, 45)), hex(raw.slice(46, 78))];
}

test("BIP-32 test vector 1", () => {
  const seed = bytes("000102030405060708090a0b0c0d0e0f");
  const H = 0x80000000;
  const cases = [
    [
      [],
      "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi",
    ],
    [
      [H],
      "xprv9uHRZZhk6KAJC1avXpDAp4MDc3sQKNxDiPvvkX8Br5ngLNv1TxvUxt4cV1rGL5hj6KCesnDYUhd7oWgT11eZG7XnxHrnYeSvkzY7d2bhkJ7",
    ],
    [
      [H, 1],
      "xprv9wTYmMFdV23N2TdNG573QoEsfRrWKQgWeibmLntzniatZvR9BmLnvSxqu53Kw1UmYPxLgboyZQaXwTCg8MSY3H2EU4pWcQDnRnrVA1xe8fs",
    ],
    [
      [H, 1, H + 2],
      "xprv9z4pot5VBttmtdRTWfWQmoH1taj2axGVzFqSb8C9xaxKymcFzXBDptWmT7FwuEzG3ryjH4ktypQSAewRiNMjANTtpgP4mLTj34bhnZX7UiM",
    ],
    [
      [H, 1, H + 2, 2],
      "xprvA2JDeKCSNNZky6uBCviVfJSKyQ1mDYahRjijr5idH2WwLsEd4Hsb2Tyh8RfQMuPh7f7RtyzTtdrbdqqsunu5Mm3wDvUAKRHSC34sJ7in334",
    ],
    [
      [H, 1, H + 2, 2, 1000000000],
      "xprvA41z7zogVVwxVSgdKUHDy1SKmdb533PjDz7J6N6mV6uS3ze1ai8FHa8kmHScGpWmj4WggLyQjgPie1rFSruoUihUZREPSL39UNdE3BBDu76",
    ],
  ];
  for (const [path, xprv] of cases) {
    const node = derivePath(seed, Uint32Array.from(path));
    const [chainCode, key] = decodeXprv(xprv);
    assert.equal(hex(node.slice(0, 32)), key, `key ${path}`);
    assert.equal(hex(node.slice(32)), chainCode, `chain code ${path}`);
  }
});

test("wallet derivation m/44'/60'/0'/0/i from the Anvil mnemonic", () => {
  const wallet = Wallet.fromEntropy(ANVIL_ENTROPY);
  assert.equal(wallet.address(0), "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
  assert.equal(wallet.address(1), "0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
  assert.equal(
    wallet.exportPrivateKey(0),
    "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  );
  wallet.free();
});

test("EIP-191 personal_sign (viem vector)", () => {
  const wallet = Wallet.fromEntropy(ANVIL_ENTROPY);
  const expected =
    "0xa461f509887bd19e312c0c58467ce8ff8e300d3c1a90b608a760c5b80318eaf15fe57c96f9175d6cd4daad4663763baa7e78836e067d0163e9a2ccf2ff753f5b1b";
  assert.equal(wallet.personalSign(0, "hello world", "utf-8"), expected);
  assert.equal(wallet.personalSign(0, "0x68656c6c6f20776f726c64", "hex"), expected);
  assert.equal(
    codeOf(() => wallet.personalSign(0, "0x123", "hex")),
    "invalid_message",
  );
  wallet.free();
});

const MAIL = {
  types: {
    EIP712Domain: [
      { name: "name", type: "string" },
      { name: "version", type: "string" },
      { name: "chainId", type: "uint256" },
      { name: "verifyingContract", type: "address" },
    ],
    Person: [
      { name: "name", type: "string" },
      { name: "wallet", type: "address" },
    ],
    Mail: [
      { name: "from", type: "Person" },
      { name: "to", type: "Person" },
      { name: "contents", type: "string" },
    ],
  },
  primaryType: "Mail",
  domain: {
    name: "Ether Mail",
    version: "1",
    chainId: 1,
    verifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC",
  },
  message: {
    from: { name: "Cow", wallet: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826" },
    to: { name: "Bob", wallet: "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB" },
    contents: "Hello, Bob!",
  },
};

test("EIP-712 Mail example (signature with the EIP's key)", () => {
  const key = Wallet.fromPrivateKey(COW_KEY);
  assert.equal(key.address(0), "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826");
  assert.equal(
    key.signTypedData(0, JSON.stringify(MAIL)),
    "0x4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d07299936d304c153f6443dfa05f40ff007d72911b6f72307f996231605b915621c",
  );
  assert.equal(
    codeOf(() => key.address(1)),
    "derivation_failed",
  );
  assert.equal(
    codeOf(() => key.split(new Uint8Array(32), "u")),
    "invalid_share",
  );
  key.free();
});

test("EIP-712 rejects NaN, Infinity and malformed input", () => {
  const key = Wallet.fromPrivateKey(COW_KEY);
  const withChainId = (chainId) => JSON.stringify({ ...MAIL, domain: { ...MAIL.domain, chainId } });
  assert.equal(
    codeOf(() => key.signTypedData(0, withChainId("NaN"))),
    "non_finite_number",
  );
  assert.equal(
    codeOf(() => key.signTypedData(0, withChainId("Infinity"))),
    "non_finite_number",
  );
  assert.equal(
    codeOf(() => key.signTypedData(0, withChainId(null))),
    "invalid_number",
  ); // JSON.stringify(NaN)
  assert.equal(
    codeOf(() => key.signTypedData(0, withChainId(1.5))),
    "invalid_number",
  );
  assert.equal(
    codeOf(() => key.signTypedData(0, '{"domain": NaN}')),
    "non_finite_number",
  );
  assert.equal(
    codeOf(() => key.signTypedData(0, '{"domain": {},}')),
    "invalid_json",
  );
  assert.equal(
    codeOf(() => key.signTypedData(0, JSON.stringify({ ...MAIL, primaryType: "Nope" }))),
    "invalid_typed_data",
  );
  const badAddress = structuredClone(MAIL);
  badAddress.message.to.wallet = "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBb";
  assert.equal(
    codeOf(() => key.signTypedData(0, JSON.stringify(badAddress))),
    "invalid_address",
  );
  key.free();
});

test("EIP-155 example transaction", () => {
  const key = Wallet.fromPrivateKey(`0x${"46".repeat(32)}`);
  const signed = key.signTransaction(
    0,
    JSON.stringify({
      type: "0x0",
      nonce: 9,
      gasPrice: "20000000000",
      gas: 21000,
      to: "0x3535353535353535353535353535353535353535",
      value: "1000000000000000000",
      chainId: 1,
    }),
  );
  assert.equal(
    signed.raw,
    "0xf86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83",
  );
  assert.match(signed.hash, /^0x[0-9a-f]{64}$/);
  key.free();
});

test("EIP-1559 transaction (viem vector) and malformed requests", () => {
  const wallet = Wallet.fromEntropy(ANVIL_ENTROPY);
  const tx = {
    chainId: 1,
    nonce: 0,
    maxFeePerGas: "20000000000",
    maxPriorityFeePerGas: "0x0",
    gas: 21000,
    to: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
    value: "0xde0b6b3a7640000",
  };
  assert.equal(
    wallet.signTransaction(0, JSON.stringify(tx)).raw,
    "0x02f86f0180808504a817c8008252089470997970c51812dc3a010c7d01b50e0d17dc79c8880de0b6b3a764000080c001a0f40a2d2ae9638056cafbe9083c7125edc8555e0e715db0984dd859a5c6dfac57a020f36fd0b32bef4d6d75c62f220e59c5fb60c244ca3b361e750985ee5c3a0931",
  );
  assert.equal(
    codeOf(() => wallet.signTransaction(0, JSON.stringify({ ...tx, to: "0x1234" }))),
    "invalid_address",
  );
  assert.equal(
    codeOf(() => wallet.signTransaction(0, JSON.stringify({ ...tx, value: "Infinity" }))),
    "non_finite_number",
  );
  assert.equal(
    codeOf(() => wallet.signTransaction(0, JSON.stringify({ ...tx, gasPrice: 1 }))),
    "invalid_transaction",
  );
  wallet.free();
});

test("EIP-55 checksum on output, mixed-case checksum enforced on input", () => {
  const key = Wallet.fromPrivateKey(COW_KEY);
  const tx = (to) => JSON.stringify({ chainId: 1, nonce: 0, gas: 21000, gasPrice: 1, to });
  assert.match(key.signTransaction(0, tx("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")).raw, /^0xf8/);
  assert.match(key.signTransaction(0, tx("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")).raw, /^0xf8/);
  assert.equal(
    codeOf(() => key.signTransaction(0, tx("0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"))),
    "invalid_address_checksum",
  );
  key.free();
});

test("create, split, encrypt, recover from any two shares, re-split", () => {
  const deviceKey = crypto.getRandomValues(new Uint8Array(32));
  const user = "did:privy:test-user";
  const wallet = Wallet.create();
  const address = wallet.address(0);
  const shares = wallet.split(deviceKey, user);
  assert.equal(shares.address, address);
  assert.equal(shares.authShare.length, 17);
  assert.equal(shares.recoveryShare.length, 17);
  const device = decryptShare(deviceKey, "device", shares.deviceShare, address, user);
  assert.equal(
    codeOf(() => decryptShare(deviceKey, "device", shares.deviceShare, address, "someone-else")),
    "share_decryption_failed",
  );
  assert.equal(
    codeOf(() => decryptShare(deviceKey, "auth", shares.deviceShare, address, user)),
    "share_decryption_failed",
  );
  const tampered = shares.deviceShare.slice();
  tampered[tampered.length - 1] ^= 1;
  assert.equal(
    codeOf(() => decryptShare(deviceKey, "device", tampered, address, user)),
    "share_decryption_failed",
  );

  for (const [a, b] of [
    [device, shares.authShare],
    [shares.authShare, shares.recoveryShare],
    [shares.recoveryShare, device],
  ]) {
    const rebuilt = Wallet.recover(a, b);
    assert.equal(rebuilt.address(0), address);
    rebuilt.free();
  }
  assert.equal(
    codeOf(() => Wallet.recover(device, device)),
    "duplicate_share",
  );
  assert.equal(
    codeOf(() => Wallet.recover(device, device.slice(0, 5))),
    "invalid_share",
  );

  const authKey = crypto.getRandomValues(new Uint8Array(32));
  const sealed = encryptShare(authKey, "auth", shares.authShare, address, user);
  assert.deepEqual(decryptShare(authKey, "auth", sealed, address, user), shares.authShare);

  const again = wallet.split(deviceKey, user);
  assert.notDeepEqual(again.authShare, shares.authShare);
  const mixed = Wallet.recover(again.authShare, again.recoveryShare);
  assert.equal(mixed.address(0), address);
  mixed.free();
  wallet.free();
});
