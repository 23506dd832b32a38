// Compiles the Solidity of the SIWE contract-wallet checks with npm `solc` (0.8.28, the exact
// version pinned in the sources) and writes each contract's creation code as hex next to its
// source. The hex files are committed, so building and testing need no compiler; rerun after
// changing a .sol file:
//   mkdir -p /tmp/solc && cd /tmp/solc && npm install solc@0.8.28
//   NODE_PATH=/tmp/solc/node_modules node crates/server/tests/contracts/build.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(path.join(process.env.NODE_PATH ?? ".", "x.js"));
const solc = require("solc");
const here = path.dirname(fileURLToPath(import.meta.url));
const serverSrc = path.join(here, "../../src/methods/siwe");

const sources = {
  "Eip6492Validator.sol": path.join(serverSrc, "Eip6492Validator.sol"),
  "TestWallet.sol": path.join(here, "TestWallet.sol"),
};
const outputs = [
  ["Eip6492Validator.sol", "Eip6492Validator", path.join(serverSrc, "eip6492_validator.hex")],
  ["TestWallet.sol", "TestWallet", path.join(here, "test_wallet.hex")],
  ["TestWallet.sol", "TestWalletFactory", path.join(here, "test_wallet_factory.hex")],
];

const input = {
  language: "Solidity",
  sources: Object.fromEntries(
    Object.entries(sources).map(([name, file]) => [name, { content: readFileSync(file, "utf8") }]),
  ),
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: "cancun",
    outputSelection: { "*": { "*": ["evm.bytecode.object"] } },
  },
};
const result = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (result.errors ?? []).filter((e) => e.severity === "error");
if (errors.length > 0) {
  for (const e of errors) console.error(e.formattedMessage);
  process.exit(1);
}
for (const [source, contract, file] of outputs) {
  const hex = result.contracts[source][contract].evm.bytecode.object;
  writeFileSync(file, `0x${hex}\n`);
  console.log(`${contract}: ${hex.length / 2} bytes → ${path.relative(process.cwd(), file)}`);
}
