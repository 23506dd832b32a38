// bin/services.mjs as the Rust server tests use it: one JSON line of addresses, everything gone when stdin closes.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { FUNDER, MULTICALL3_ADDRESS, rpcClient } from "./chain.mjs";
import { custodyOf, ID_REGISTRY_ADDRESS } from "./farcasterRelay.mjs";

const SERVICES = path.join(path.dirname(fileURLToPath(import.meta.url)), "../bin/services.mjs");

test("--chain prints the chain's RPC URL, id, Multicall3 and funder, and stops it when stdin closes", async () => {
  const services = spawn(process.execPath, [SERVICES, "--chain"], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise((resolve) => services.once("exit", resolve));
  try {
    const [line] = await Promise.race([
      new Promise((resolve) => createInterface({ input: services.stdout }).once("line", (l) => resolve([l]))),
      exited.then((code) => assert.fail(`services.mjs exited (${code}) before printing`)),
    ]);
    const out = JSON.parse(line);
    assert.deepEqual(
      { ...out, chainRpcUrl: undefined },
      {
        chainRpcUrl: undefined,
        chainId: 50312,
        multicall3: MULTICALL3_ADDRESS,
        funderAddress: FUNDER.address,
        funderPrivateKey: FUNDER.privateKey,
      },
    );
    assert.equal(await rpcClient(out.chainRpcUrl)("eth_chainId"), "0xc488");

    services.stdin.end();
    assert.equal(await exited, 0);
    await assert.rejects(rpcClient(out.chainRpcUrl)("eth_chainId"), "anvil is gone with services.mjs");
  } finally {
    services.kill();
  }
});

test("--smsbox prints the SMS catcher's URL and stops it when stdin closes", async () => {
  const services = spawn(process.execPath, [SERVICES, "--smsbox"], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise((resolve) => services.once("exit", resolve));
  try {
    const line = await Promise.race([
      new Promise((resolve) => createInterface({ input: services.stdout }).once("line", resolve)),
      exited.then((code) => assert.fail(`services.mjs exited (${code}) before printing`)),
    ]);
    const { smsboxUrl } = JSON.parse(line);
    assert.match(smsboxUrl, /^http:\/\/localhost:\d+$/);
    assert.equal((await fetch(`${smsboxUrl}/api/messages`)).status, 200);

    services.stdin.end();
    assert.equal(await exited, 0);
    await assert.rejects(fetch(`${smsboxUrl}/api/messages`), "the catcher is gone with services.mjs");
  } finally {
    services.kill();
  }
});

test("--oidc --oauth2 print the OpenID issuer and the OAuth 2.0 provider's URL, gone when stdin closes", async () => {
  const services = spawn(process.execPath, [SERVICES, "--oidc", "--oauth2"], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => services.once("exit", resolve));
  try {
    const line = await Promise.race([
      new Promise((resolve) => createInterface({ input: services.stdout }).once("line", resolve)),
      exited.then((code) => assert.fail(`services.mjs exited (${code}) before printing`)),
    ]);
    const { oidcIssuer, oauth2Url } = JSON.parse(line);
    assert.match(oidcIssuer, /^http:\/\/localhost:\d+$/);
    assert.match(oauth2Url, /^http:\/\/localhost:\d+$/);
    const discovery = await (await fetch(`${oidcIssuer}/.well-known/openid-configuration`)).json();
    assert.equal(discovery.issuer, oidcIssuer);
    assert.equal((await fetch(`${oauth2Url}/user`)).status, 401);

    services.stdin.end();
    assert.equal(await exited, 0);
    await assert.rejects(fetch(oidcIssuer), "the OpenID provider is gone with services.mjs");
    await assert.rejects(fetch(oauth2Url), "the OAuth 2.0 provider is gone with services.mjs");
  } finally {
    services.kill();
  }
});

test("--farcaster prints the relay, the chain and the test accounts registered in the ID registry", async () => {
  const services = spawn(process.execPath, [SERVICES, "--farcaster"], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise((resolve) => services.once("exit", resolve));
  try {
    const line = await Promise.race([
      new Promise((resolve) => createInterface({ input: services.stdout }).once("line", resolve)),
      exited.then((code) => assert.fail(`services.mjs exited (${code}) before printing`)),
    ]);
    const out = JSON.parse(line);
    assert.match(out.farcasterRelayUrl, /^http:\/\/localhost:\d+$/);
    assert.equal(out.farcasterIdRegistry, ID_REGISTRY_ADDRESS);
    const rpc = rpcClient(out.farcasterRpcUrl);
    for (const account of out.farcasterAccounts) {
      assert.equal(await custodyOf(rpc, account.fid), account.custody);
    }
    services.stdin.end();
    assert.equal(await exited, 0);
    await assert.rejects(
      fetch(`${out.farcasterRelayUrl}/api/channels`),
      "the relay is gone with services.mjs",
    );
  } finally {
    services.kill();
  }
});
