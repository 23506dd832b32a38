#!/usr/bin/env node
// Under `make dev`: the demo back end sends from a wallet its user delegated (docs/delegation.md), with the
// published `@privy-io/node` and the demo signer's authorization key from `.dev/delegation.json`.
//
//   node tools/stack/bin/delegated-send.mjs [--to 0x…] [--value 0.01] [--wallet <wallet id>]
//
// Without `--wallet`, the first delegated wallet of the demo app. A refusal (not delegated, revoked, over the
// policy's cap) prints the server's code and message.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { backEnd } from "../src/delegation.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const { values } = parseArgs({
  options: {
    to: { type: "string", default: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" },
    value: { type: "string", default: "0.01" },
    wallet: { type: "string" },
  },
});
let config;
try {
  config = JSON.parse(readFileSync(path.join(root, ".dev", "delegation.json"), "utf8"));
} catch {
  console.error("✖ .dev/delegation.json not found: start the product with `make dev` first.");
  process.exit(1);
}
const [whole, fraction = ""] = values.value.split(".");
const valueWei = BigInt(whole || "0") * 10n ** 18n + BigInt((fraction + "0".repeat(18)).slice(0, 18) || "0");
const back = await backEnd(config);
try {
  const walletId = values.wallet ?? (await back.delegatedWallets())[0]?.id;
  if (!walletId) {
    console.error("✖ No delegated wallet yet: sign in to the web app and click “Delegate to this app”.");
    process.exit(1);
  }
  const hash = await back.send(walletId, { to: values.to, valueWei, chainId: config.chainId });
  console.log(`✔ sent ${values.value} from wallet ${walletId} to ${values.to}: ${hash}`);
} catch (error) {
  const body = error?.error ?? {};
  console.error(
    `✖ refused: ${error?.status ?? ""} ${body.code ?? ""} ${body.error ?? error?.message ?? error}`,
  );
  process.exit(1);
}
