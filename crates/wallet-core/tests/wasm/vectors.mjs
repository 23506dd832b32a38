// Published vectors and error cases for the wasm build of symbolon-wallet-core, as one list that
// both runners use: node.test.mjs (Node) and chromium.test.mjs (a real Chromium page loads this
// file next to the wasm glue). Plain ES module, no Node or browser APIs beyond the language and
// crypto.getRandomValues. Each vector throws an Error naming what differed.

/** @typedef {typeof import("../../pkg/symbolon_wallet_core.js")} WalletCore */

const hex = (bytes) => `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
const bytes = (text) =>
  Uint8Array.from(text.replace(/^0x/, "").match(/../g) ?? [], (b) => Number.parseInt(b, 16));

function equal(actual, expected, what) {
  if (actual !== expected) {
    throw new Error(`${what}: expected ${expected}, got ${actual}`);
  }
}

function equalBytes(actual, expected, what) {
  equal(hex(actual), hex(expected), what);
}

/** The `code` of the WalletError `fn` throws ("no error" if it returns). */
function codeOf(fn) {
  try {
    fn();
  } catch (error) {
    if (error?.name !== "WalletError") throw error;
    return error.code;
  }
  return "no error";
}

/** The WalletError `fn` throws, checked for `code` (and `message` when given). */
function rejects(fn, code, what, message) {
  let thrown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  if (thrown?.name !== "WalletError") {
    throw new Error(`${what}: expected WalletError ${code}, got ${thrown ?? "no error"}`);
  }
  equal(thrown.code, code, `${what} (code)`);
  if (message !== undefined) equal(thrown.message, message, `${what} (message)`);
}

/** Runs `fn(wallet)` and frees the wallet even when `fn` throws. */
function using(wallet, fn) {
  try {
    return fn(wallet);
  } finally {
    wallet.free();
  }
}

// Hardhat/Anvil "test test … junk" mnemonic entropy: accounts 0 and 1 are the well-known
// development accounts, so this checks entropy → BIP-39 → PBKDF2 seed → BIP-32 path in wasm.
const ANVIL_ENTROPY = "df9bf37e6fcdf9bf37e6fcdf9bf37e3c";
const ANVIL_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const COW_KEY = "0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4"; // keccak256("cow")
const HELLO_SIGNATURE =
  "0xa461f509887bd19e312c0c58467ce8ff8e300d3c1a90b608a760c5b80318eaf15fe57c96f9175d6cd4daad4663763baa7e78836e067d0163e9a2ccf2ff753f5b1b";
const MAIL_SIGNATURE =
  "0x4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d07299936d304c153f6443dfa05f40ff007d72911b6f72307f996231605b915621c";

/** The "Mail" example of EIP-712. */
const mail = () => ({
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
});

/** viem's EIP-1559 vector (Anvil account 0, chain 1). */
const EIP1559_TX = {
  chainId: 1,
  nonce: 0,
  maxFeePerGas: "20000000000",
  maxPriorityFeePerGas: "0x0",
  gas: 21000,
  to: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
  value: "0xde0b6b3a7640000",
};
const EIP1559_RAW =
  "0x02f86f0180808504a817c8008252089470997970c51812dc3a010c7d01b50e0d17dc79c8880de0b6b3a764000080c001a0f40a2d2ae9638056cafbe9083c7125edc8555e0e715db0984dd859a5c6dfac57a020f36fd0b32bef4d6d75c62f220e59c5fb60c244ca3b361e750985ee5c3a0931";

/** @type {{ name: string, run: (core: WalletCore) => void }[]} */
export const vectors = [
  {
    name: "BIP-39/BIP-32: Anvil mnemonic accounts 0 and 1 (m/44'/60'/0'/0/i)",
    run: ({ Wallet }) =>
      using(Wallet.fromEntropy(bytes(ANVIL_ENTROPY)), (wallet) => {
        equal(wallet.address(0), "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "address 0");
        equal(wallet.address(1), "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "address 1");
        equal(wallet.exportPrivateKey(0), ANVIL_KEY, "private key 0");
      }),
  },
  {
    name: "BIP-39/BIP-32: 'abandon … about' first account",
    run: ({ Wallet }) =>
      using(Wallet.fromEntropy(new Uint8Array(16)), (wallet) => {
        equal(wallet.address(0), "0x9858EfFD232B4033E47d90003D41EC34EcaEda94", "address 0");
        rejects(() => wallet.address(0x80000000), "derivation_failed", "hardened wallet index");
      }),
  },
  {
    name: "EIP-191 personal_sign (viem vector), utf-8 and hex",
    run: ({ Wallet }) =>
      using(Wallet.fromEntropy(bytes(ANVIL_ENTROPY)), (wallet) => {
        equal(wallet.personalSign(0, "hello world", "utf-8"), HELLO_SIGNATURE, "utf-8");
        equal(wallet.personalSign(0, "0x68656c6c6f20776f726c64", "hex"), HELLO_SIGNATURE, "hex");
        rejects(
          () => wallet.personalSign(0, "0x123", "hex"),
          "invalid_message",
          "odd hex",
          "invalid message: invalid hex: odd number of hex digits",
        );
        rejects(
          () => wallet.personalSign(0, "hi", "base64"),
          "invalid_message",
          "unknown encoding",
          'invalid message: unknown encoding "base64"',
        );
      }),
  },
  {
    name: "EIP-712 Mail example (text, object and BigInt forms)",
    run: ({ Wallet }) =>
      using(Wallet.fromPrivateKey(COW_KEY), (key) => {
        equal(key.address(0), "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826", "address");
        equal(key.signTypedData(0, JSON.stringify(mail())), MAIL_SIGNATURE, "JSON text");
        equal(key.signTypedData(0, mail()), MAIL_SIGNATURE, "object");
        const big = mail();
        big.domain.chainId = 1n;
        equal(key.signTypedData(0, big), MAIL_SIGNATURE, "BigInt chainId");
        rejects(() => key.address(1), "derivation_failed", "imported key, index 1");
        rejects(() => key.split(new Uint8Array(32), "u"), "invalid_share", "imported key split");
      }),
  },
  {
    name: "EIP-712 rejects NaN, Infinity, unsafe numbers and malformed input",
    run: ({ Wallet }) =>
      using(Wallet.fromPrivateKey(COW_KEY), (key) => {
        const withChainId = (chainId) => ({ ...mail(), domain: { ...mail().domain, chainId } });
        for (const chainId of ["NaN", "Infinity", "-Infinity", Number.NaN, Number.POSITIVE_INFINITY]) {
          rejects(
            () => key.signTypedData(0, withChainId(chainId)),
            "non_finite_number",
            `chainId ${String(chainId)}`,
            "non-finite number not allowed: EIP712Domain.chainId",
          );
        }
        equal(
          codeOf(() => key.signTypedData(0, JSON.stringify(withChainId(Number.NaN)))),
          "invalid_number",
          "NaN stringified to null",
        );
        rejects(() => key.signTypedData(0, withChainId(1.5)), "invalid_number", "fraction");
        rejects(
          () => key.signTypedData(0, withChainId(2 ** 53)),
          "invalid_number",
          "beyond 2^53",
          "invalid number: EIP712Domain.chainId exceeds 2^53 - 1; pass it as a decimal or 0x string",
        );
        equal(key.signTypedData(0, withChainId("1")), MAIL_SIGNATURE, "decimal string chainId");
        rejects(() => key.signTypedData(0, '{"domain": NaN}'), "invalid_json", "bare NaN token");
        rejects(() => key.signTypedData(0, '{"domain": {},}'), "invalid_json", "trailing comma");
        rejects(
          () => key.signTypedData(0, { ...mail(), primaryType: "Nope" }),
          "invalid_typed_data",
          "unknown primaryType",
          'invalid typed data: primaryType "Nope" is not in types',
        );
        rejects(
          () => key.signTypedData(0, { ...mail(), message: { ...mail().message, contents: () => 1 } }),
          "invalid_json",
          "function value",
          "invalid JSON: functions and symbols are not data",
        );
        let deep = {};
        for (let i = 0; i < 200; i += 1) deep = { deep };
        rejects(
          () => key.signTypedData(0, { ...mail(), message: deep }),
          "invalid_json",
          "deep object",
          "invalid JSON: nesting too deep",
        );
        const badAddress = mail();
        badAddress.message.to.wallet = "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBb";
        rejects(() => key.signTypedData(0, badAddress), "invalid_address", "short address");
      }),
  },
  {
    name: "EIP-155 example transaction",
    run: ({ Wallet }) =>
      using(Wallet.fromPrivateKey(`0x${"46".repeat(32)}`), (key) => {
        const tx = {
          type: "0x0",
          nonce: 9,
          gasPrice: "20000000000",
          gas: 21000,
          to: "0x3535353535353535353535353535353535353535",
          value: "1000000000000000000",
          chainId: 1,
        };
        const signed = key.signTransaction(0, JSON.stringify(tx));
        equal(
          signed.raw,
          "0xf86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83",
          "raw",
        );
        equal(signed.hash, "0x33469b22e9f636356c4160a87eb19df52b7412e8eac32a4a55ffe88ea8350788", "hash");
      }),
  },
  {
    name: "EIP-1559 transaction (viem vector) and malformed requests",
    run: ({ Wallet }) =>
      using(Wallet.fromEntropy(bytes(ANVIL_ENTROPY)), (wallet) => {
        equal(wallet.signTransaction(0, JSON.stringify(EIP1559_TX)).raw, EIP1559_RAW, "JSON text");
        equal(
          wallet.signTransaction(0, { ...EIP1559_TX, value: 10n ** 18n }).raw,
          EIP1559_RAW,
          "object, BigInt value",
        );
        rejects(
          () => wallet.signTransaction(0, { ...EIP1559_TX, to: "0x1234" }),
          "invalid_address",
          "short to",
        );
        rejects(
          () => wallet.signTransaction(0, { ...EIP1559_TX, value: "Infinity" }),
          "non_finite_number",
          "Infinity value",
        );
        rejects(
          () => wallet.signTransaction(0, { ...EIP1559_TX, value: 1e18 }),
          "invalid_number",
          "unsafe number value",
        );
        rejects(
          () => wallet.signTransaction(0, { ...EIP1559_TX, gasPrice: 1 }),
          "invalid_transaction",
          "gasPrice on 1559",
        );
        rejects(
          () =>
            wallet.signTransaction(0, { ...EIP1559_TX, from: "0x3535353535353535353535353535353535353535" }),
          "invalid_transaction",
          "from another wallet",
          "invalid transaction: from 0x3535353535353535353535353535353535353535 is not the signing wallet 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
        );
      }),
  },
  {
    name: "EIP-55 checksum on output, mixed-case checksum enforced on input",
    run: ({ Wallet }) =>
      using(Wallet.fromPrivateKey(COW_KEY), (key) => {
        const tx = (to) => ({ chainId: 1, nonce: 0, gas: 21000, gasPrice: 1, to });
        equal(
          key.signTransaction(0, tx("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")).raw.slice(0, 4),
          "0xf8",
          "checksummed",
        );
        equal(
          key.signTransaction(0, tx("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")).raw.slice(0, 4),
          "0xf8",
          "lower case",
        );
        rejects(
          () => key.signTransaction(0, tx("0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")),
          "invalid_address_checksum",
          "bad checksum",
        );
      }),
  },
  {
    name: "create, split, encrypt, recover from any two shares, re-split",
    run: ({ Wallet, encryptShare, decryptShare }) => {
      const deviceKey = crypto.getRandomValues(new Uint8Array(32));
      const user = "did:privy:test-user";
      using(Wallet.create(), (wallet) => {
        const address = wallet.address(0);
        const shares = wallet.split(deviceKey, user);
        equal(shares.address, address, "split address");
        equal(shares.authShare.length, 17, "auth share length");
        equal(shares.recoveryShare.length, 17, "recovery share length");
        const device = decryptShare(deviceKey, "device", shares.deviceShare, address, user);
        rejects(
          () => decryptShare(deviceKey, "device", shares.deviceShare, address, "someone-else"),
          "share_decryption_failed",
          "other user",
        );
        rejects(
          () => decryptShare(deviceKey, "auth", shares.deviceShare, address, user),
          "share_decryption_failed",
          "other kind",
        );
        const tampered = shares.deviceShare.slice();
        tampered[tampered.length - 1] ^= 1;
        rejects(
          () => decryptShare(deviceKey, "device", tampered, address, user),
          "share_decryption_failed",
          "tampered",
        );
        rejects(
          () => decryptShare(deviceKey.slice(0, 16), "device", shares.deviceShare, address, user),
          "invalid_share_key",
          "short key",
        );
        for (const [a, b, what] of [
          [device, shares.authShare, "device + auth"],
          [shares.authShare, shares.recoveryShare, "auth + recovery"],
          [shares.recoveryShare, device, "recovery + device"],
        ]) {
          using(Wallet.recover(a, b), (rebuilt) => equal(rebuilt.address(0), address, what));
        }
        rejects(() => Wallet.recover(device, device), "duplicate_share", "same share twice");
        rejects(
          () => Wallet.recover(device, device.slice(0, 5)),
          "invalid_share",
          "short share",
          "invalid share: 5 bytes, expected 17",
        );
        const authKey = crypto.getRandomValues(new Uint8Array(32));
        const sealed = encryptShare(authKey, "auth", shares.authShare, address, user);
        equalBytes(
          decryptShare(authKey, "auth", sealed, address, user),
          shares.authShare,
          "auth share round trip",
        );
        const again = wallet.split(deviceKey, user);
        if (hex(again.authShare) === hex(shares.authShare)) throw new Error("re-split: same auth share");
        using(Wallet.recover(again.authShare, again.recoveryShare), (mixed) =>
          equal(mixed.address(0), address, "re-split"),
        );
      });
    },
  },
];

/** Runs every vector; a failure is reported with the vector's name. */
export function runVectors(core) {
  return vectors.map(({ name, run }) => {
    try {
      run(core);
      return { name, ok: true };
    } catch (error) {
      return { name, ok: false, error: `${name}: ${error?.stack ?? error}` };
    }
  });
}
