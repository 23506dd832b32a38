// A local Somnia-Testnet stand-in for dev and tests: anvil (npm `@foundry-rs/anvil`) with chain id 50312 and
// Multicall3 at its canonical address, so the client's one-call balance read works as on the real chain.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { BINARY_NAME, PLATFORM_SPECIFIC_PACKAGE_NAME } from "@foundry-rs/anvil/const.mjs";
import { decodeFunctionResult, encodeFunctionData, multicall3Abi } from "viem";
import { freePort, PortInUseError, portIsFree } from "./ports.mjs";
import { createSupervisor, waitUntil } from "./processes.mjs";

export const CHAIN_ID = 50312;
export const MULTICALL3_ADDRESS = "0xcA11bde05977b3631167028862bE2a173976CA11";
/** anvil's dev account 0 (from its fixed test mnemonic), 10,000 ETH at genesis: the faucet of dev and tests. */
export const FUNDER = Object.freeze({
  address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
  privateKey: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
});

const require = createRequire(import.meta.url);

/** The anvil binary from the platform package `@foundry-rs/anvil` depends on (no install script needed). */
export function anvilBinary() {
  const platformPackage = PLATFORM_SPECIFIC_PACKAGE_NAME("anvil");
  if (!platformPackage) throw new Error(`anvil has no npm build for ${process.platform}/${process.arch}`);
  const anvilPackage = createRequire(require.resolve("@foundry-rs/anvil/package.json"));
  try {
    return anvilPackage.resolve(`${platformPackage}/bin/${BINARY_NAME("anvil")}`);
  } catch {
    throw new Error(
      `anvil binary not found: ${platformPackage} is not installed. Run \`make setup\` (npm ci).`,
    );
  }
}

/**
 * Multicall3's creation code. viem ships it (its deployless multicall uses it) but does not list it in its
 * package exports, so it is loaded from viem's own module file; the pinned viem version keeps the path stable.
 */
async function multicall3CreationCode() {
  const viemDir = path.dirname(require.resolve("viem/package.json"));
  const file = path.join(viemDir, "_esm/constants/contracts.js");
  const code = existsSync(file) ? (await import(pathToFileURL(file).href)).multicall3Bytecode : undefined;
  if (typeof code !== "string" || !code.startsWith("0x")) {
    throw new Error(
      `Multicall3 bytecode not found in ${file}: viem's layout changed; update tools/stack/src/chain.mjs`,
    );
  }
  return code;
}

/**
 * Starts anvil and places Multicall3 at 0xcA11…CA11.
 * @param {{
 *   chainId?: number,
 *   port?: number,
 *   quiet?: boolean,
 *   blockTime?: number,
 *   stateFile?: string,
 *   logFile?: string,
 *   supervisor?: ReturnType<typeof createSupervisor>,
 * }} [options]
 *   `port` 0 picks a free one. `blockTime`: seconds between blocks (default: a block per transaction, at once).
 *   `stateFile`: load the chain from this file and save it there on stop (dev keeps balances across restarts).
 *   `supervisor`: the caller's (startStack's) process set; without one the chain gets its own, and its log goes
 *   to a temp dir removed on stop.
 * @returns {Promise<{ rpcUrl: string, chainId: number, multicall3: string, funder: { address: string, privateKey: string },
 *   pid: number, logFile: string, stop: () => Promise<void> }>}
 */
export async function startChain(options = {}) {
  const { chainId = CHAIN_ID, port = 0, quiet = true, blockTime, stateFile } = options;
  const say = quiet ? () => {} : (m) => console.log(`[chain] ${m}`);
  const own = !options.supervisor;
  const supervisor = options.supervisor ?? createSupervisor();
  let logDir;
  try {
    if (!options.logFile) {
      logDir = await mkdtemp(path.join(tmpdir(), "symbolon-chain-"));
      supervisor.watch(`!${logDir}`);
      const dir = logDir;
      supervisor.onStop(() => rm(dir, { recursive: true, force: true }));
    }
    const logFile = options.logFile ?? path.join(/** @type {string} */ (logDir), "anvil.log");
    // anvil does not exit when its port is taken (it logs and keeps running), so check first.
    if (port && !(await portIsFree(port))) throw new PortInUseError("chain RPC", port);
    const chosenPort = port || (await freePort());
    const args = ["--chain-id", String(chainId), "--host", "127.0.0.1", "--port", String(chosenPort)];
    if (blockTime) args.push("--block-time", String(blockTime));
    // Also saved every 10 s, so a killed stack (closed terminal, SIGKILL) loses little.
    if (stateFile) args.push("--state", stateFile, "--state-interval", "10");
    const anvil = supervisor.child(anvilBinary(), args, { logFile, name: "anvil" });
    const rpcUrl = `http://127.0.0.1:${chosenPort}`;
    const rpc = rpcClient(rpcUrl);
    const probe = rpcClient(rpcUrl, { timeoutMs: 1_000 });

    const want = `0x${chainId.toString(16)}`;
    await waitUntil(`anvil on ${chosenPort}`, async () => (await probe("eth_chainId")) === want, {
      timeoutMs: 15_000,
      intervalMs: 50,
      died: anvil.exitInfo,
      log: logFile,
    });
    await placeMulticall3(rpc, (blockTime ?? 0) * 1000 + 10_000);
    say(`anvil: ${rpcUrl} (chain ${chainId}, pid ${anvil.proc.pid}, log ${logFile})`);
    return {
      rpcUrl,
      chainId,
      multicall3: MULTICALL3_ADDRESS,
      funder: { ...FUNDER },
      pid: /** @type {number} */ (anvil.proc.pid),
      logFile,
      // Under the caller's supervisor the caller's stop() ends the chain; alone, this stops it.
      stop: own ? supervisor.stop : async () => {},
    };
  } catch (error) {
    if (own) await supervisor.stop();
    throw error;
  }
}

/**
 * Deploys Multicall3 from the funder, copies its runtime code to the canonical address (where apps and viem
 * expect it) and checks that a `getEthBalance` through `aggregate3` there returns the funder's balance.
 * @param {(method: string, params?: unknown[]) => Promise<any>} rpc
 * @param {number} receiptTimeoutMs
 */
async function placeMulticall3(rpc, receiptTimeoutMs) {
  const hash = await rpc("eth_sendTransaction", [
    { from: FUNDER.address, data: await multicall3CreationCode() },
  ]);
  // Anvil mines the transaction a moment after answering (or at the next block with `blockTime`).
  const deadline = Date.now() + receiptTimeoutMs;
  let receipt = await rpc("eth_getTransactionReceipt", [hash]);
  while (!receipt && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    receipt = await rpc("eth_getTransactionReceipt", [hash]);
  }
  if (receipt?.status !== "0x1" || !receipt.contractAddress) {
    throw new Error(`Multicall3 deployment failed: ${JSON.stringify(receipt)}`);
  }
  const runtime = await rpc("eth_getCode", [receipt.contractAddress, "latest"]);
  await rpc("anvil_setCode", [MULTICALL3_ADDRESS, runtime]);

  const [balanceCall] = await multicallBalances(rpc, [FUNDER.address]);
  const balance = BigInt(await rpc("eth_getBalance", [FUNDER.address, "latest"]));
  if (balanceCall !== balance) {
    throw new Error(`Multicall3 check failed: getEthBalance gave ${balanceCall}, eth_getBalance ${balance}`);
  }
}

/**
 * Balances of `addresses` in one `aggregate3` call of `getEthBalance` through the canonical Multicall3.
 * @param {(method: string, params?: unknown[]) => Promise<any>} rpc
 * @param {string[]} addresses
 * @returns {Promise<bigint[]>}
 */
export async function multicallBalances(rpc, addresses) {
  const calls = addresses.map((address) => ({
    target: /** @type {`0x${string}`} */ (MULTICALL3_ADDRESS),
    allowFailure: false,
    callData: encodeFunctionData({
      abi: multicall3Abi,
      functionName: "getEthBalance",
      args: [/** @type {`0x${string}`} */ (address)],
    }),
  }));
  const data = encodeFunctionData({ abi: multicall3Abi, functionName: "aggregate3", args: [calls] });
  const result = await rpc("eth_call", [{ to: MULTICALL3_ADDRESS, data }, "latest"]);
  const answers = decodeFunctionResult({ abi: multicall3Abi, functionName: "aggregate3", data: result });
  return answers.map(({ returnData }) =>
    decodeFunctionResult({ abi: multicall3Abi, functionName: "getEthBalance", data: returnData }),
  );
}

/**
 * A minimal JSON-RPC client: returns `result`, throws with the node's error message.
 * @param {string} url
 * @param {{ timeoutMs?: number }} [options] per call, so a stuck listener cannot hang the start-up
 * @returns {(method: string, params?: unknown[]) => Promise<any>}
 */
export function rpcClient(url, { timeoutMs = 10_000 } = {}) {
  let id = 0;
  return async (method, params = []) => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await res.json();
    if (body.error) throw new Error(`${method}: ${body.error.message ?? JSON.stringify(body.error)}`);
    return body.result;
  };
}
