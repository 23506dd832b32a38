// startChain with the real anvil binary: what the wallet's balance read and the e2e faucet rely on.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import net from "node:net";
import { test } from "node:test";
import {
  anvilBinary,
  CHAIN_ID,
  FUNDER,
  MULTICALL3_ADDRESS,
  multicallBalances,
  rpcClient,
  startChain,
} from "./chain.mjs";
import { portIsFree } from "./ports.mjs";

const processAlive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test("answers as chain 50312 with Multicall3 reading balances at its canonical address", async (t) => {
  const started = Date.now();
  const chain = await startChain();
  t.diagnostic(`chain ready in ${Date.now() - started} ms`);
  try {
    const rpc = rpcClient(chain.rpcUrl);
    assert.equal(chain.chainId, CHAIN_ID);
    assert.equal(await rpc("eth_chainId"), "0xc488");
    assert.equal(chain.multicall3, MULTICALL3_ADDRESS);
    assert.deepEqual(chain.funder, FUNDER);

    const code = await rpc("eth_getCode", [MULTICALL3_ADDRESS, "latest"]);
    assert.ok(code.length > 1000, `Multicall3 has code (got ${code.slice(0, 20)}…)`);

    // A second, freshly funded account shows the balances are read, not echoed.
    const other = "0x00000000000000000000000000000000000000ab";
    await rpc("anvil_setBalance", [other, "0x2386f26fc10000"]); // 0.01 ETH
    const funderBalance = BigInt(await rpc("eth_getBalance", [FUNDER.address, "latest"]));
    assert.ok(funderBalance > 9_000n * 10n ** 18n, "the funder holds the dev account's ETH");
    assert.deepEqual(await multicallBalances(rpc, [FUNDER.address, other]), [funderBalance, 10n ** 16n]);

    // Transactions are mined at once: a transfer from the funder lands without waiting for a block time.
    const hash = await rpc("eth_sendTransaction", [{ from: FUNDER.address, to: other, value: "0x1" }]);
    let receipt = null;
    for (let i = 0; !receipt && i < 50; i++) {
      receipt = await rpc("eth_getTransactionReceipt", [hash]);
      if (!receipt) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(receipt?.status, "0x1");
    assert.deepEqual(await multicallBalances(rpc, [other]), [10n ** 16n + 1n]);
  } finally {
    await chain.stop();
  }
});

test("stop() kills anvil, frees its port and removes its log", async () => {
  const chain = await startChain();
  const port = Number(new URL(chain.rpcUrl).port);
  assert.equal(processAlive(chain.pid), true);
  assert.equal(existsSync(chain.logFile), true);
  await chain.stop();
  assert.equal(processAlive(chain.pid), false, "anvil is gone after stop()");
  assert.equal(await portIsFree(port), true, "the port is free again");
  assert.equal(existsSync(chain.logFile), false, "the temp log is removed");
  await assert.rejects(rpcClient(chain.rpcUrl)("eth_chainId"));
});

test("a taken port is refused before anvil starts, naming the port", async () => {
  const blocker = net.createServer();
  await new Promise((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  const { port } = /** @type {net.AddressInfo} */ (blocker.address());
  try {
    const started = Date.now();
    await assert.rejects(startChain({ port }), {
      name: "PortInUseError",
      message: `Port ${port} (chain RPC) is already in use. Stop whatever is using it (e.g. \`ss -ltnp 'sport = :${port}'\`) and retry.`,
    });
    assert.ok(Date.now() - started < 2_000, "fails at once");
  } finally {
    blocker.close();
  }
});

test("with a block time, blocks come on their own and Multicall3 is still in place", async () => {
  const chain = await startChain({ blockTime: 1 });
  try {
    const rpc = rpcClient(chain.rpcUrl);
    const first = Number(await rpc("eth_blockNumber"));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.ok(Number(await rpc("eth_blockNumber")) > first, "a block was mined without a transaction");
    const [balance] = await multicallBalances(rpc, [FUNDER.address]);
    assert.equal(balance, BigInt(await rpc("eth_getBalance", [FUNDER.address, "latest"])));
  } finally {
    await chain.stop();
  }
});

test("runs anvil from the npm package's platform binary", () => {
  const bin = anvilBinary();
  assert.match(bin, /@foundry-rs\/anvil-[a-z0-9]+-[a-z0-9]+\/bin\/anvil(\.exe)?$/);
  assert.equal(existsSync(bin), true);
});
