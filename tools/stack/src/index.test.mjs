// startStack with the real server binary (built by `make setup`): what dev, e2e and bench rely on.
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import {
  approveLatestChannel,
  appSettingsToml,
  DEMO_APP_ID,
  FUNDER,
  multicallBalances,
  PortInUseError,
  rpcClient,
  signInAt,
  startStack,
} from "./index.mjs";

/** POSTs JSON to the stack's `/api/v1{route}` as the demo app from `origin`; resolves status and body. */
const apiCaller = (stack, origin) => (route, body) =>
  fetch(`${stack.urls.api}/api/v1${route}`, {
    method: "POST",
    headers: { "privy-app-id": stack.appId, origin, "content-type": "application/json" },
    body: JSON.stringify(body),
  }).then(async (res) => ({ status: res.status, body: await res.json() }));

const processAlive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test("starts the server with the demo app and the chain, and stops every process it started", async () => {
  const stack = await startStack({ mode: "test", web: false, origins: ["http://localhost:5173"] });
  try {
    assert.equal(stack.appId, DEMO_APP_ID);
    const health = await fetch(`${stack.urls.api}/health`);
    assert.deepEqual(await health.json(), { status: "ok" });
    const config = await fetch(`${stack.urls.api}/api/v1/apps/${stack.appId}`, {
      headers: { "privy-app-id": stack.appId, origin: "http://localhost:5173" },
    });
    assert.equal(config.status, 200);
    const settings = await config.json();
    assert.equal(settings.name, "Symbolon Demo");
    // Passkey login (the list: the SMS test below); every second factor, with transaction protection.
    assert.equal(settings.passkey_auth, true);
    assert.deepEqual(settings.mfa_methods, ["totp", "sms", "passkey"]);
    assert.equal(settings.mfa_protect_transactions, true);

    assert.ok(stack.urls.chain, "the chain is on by default in test mode");
    const rpc = rpcClient(stack.urls.chain);
    assert.equal(await rpc("eth_chainId"), "0xc488");
    assert.deepEqual(stack.chain?.funder, FUNDER);
    const [balance] = await multicallBalances(rpc, [FUNDER.address]);
    assert.ok(balance > 0n, "Multicall3 reads the funder's balance");
  } finally {
    await stack.stop();
  }
  await assert.rejects(rpcClient(stack.urls.chain)("eth_chainId"), "the chain is gone after stop()");
  assert.equal(processAlive(stack.serverPid), false, "the server is gone after stop()");
  assert.equal(existsSync(stack.logs.server), false, "the temp dir is removed");
  await assert.rejects(fetch(`${stack.urls.api}/health`));
});

test("the demo app's settings: passkey login after the wallet, MFA by app, SMS or passkey with transaction protection", () => {
  const toml = (app) => appSettingsToml({ customAuth: false, oauth: false, ...app }, {}, null);
  const demo = toml({});
  assert.match(demo, /^primary = \["email", "sms", "wallet", "passkey"\]$/m);
  assert.match(demo, /^\[mfa\]\nmethods = \["totp", "sms", "passkey"\]\nprotect_transactions = true$/m);
  assert.match(
    toml({ mfa: ["totp"], protectTransactions: false }),
    /^methods = \["totp"\]\nprotect_transactions = false$/m,
  );
  assert.doesNotMatch(toml({ mfa: [] }), /\[mfa\]/, "no second factor: MFA off");
});

test("a taken fixed port is reported by service and port before anything starts", async () => {
  const blocker = net.createServer();
  await new Promise((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  const { port } = blocker.address();
  try {
    await assert.rejects(
      startStack({ mode: "test", web: false, ports: { api: port } }),
      (error) => error instanceof PortInUseError && error.port === port && error.service === "API server",
    );
  } finally {
    blocker.close();
  }
});

test("a taken chain port is reported as the chain RPC's", async () => {
  const blocker = net.createServer();
  await new Promise((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  const { port } = blocker.address();
  try {
    await assert.rejects(
      startStack({ mode: "test", web: false, ports: { chain: port } }),
      (error) => error instanceof PortInUseError && error.port === port && error.service === "chain RPC",
    );
  } finally {
    blocker.close();
  }
});

test("test mode refuses to start without the built wallet frame and says how to build it", async () => {
  const empty = await mkdtemp(path.join(tmpdir(), "symbolon-no-frame-"));
  try {
    await assert.rejects(startStack({ mode: "test", web: false, walletFrameDir: empty }), {
      message: `The wallet frame is not built (${path.join(empty, "index.html")} is missing): run make setup.`,
    });
  } finally {
    await rm(empty, { recursive: true, force: true });
  }
});

test("without the chain (as in bench), no anvil starts and urls.chain is null", async () => {
  const stack = await startStack({ mode: "test", web: false, chain: false });
  try {
    assert.equal(stack.urls.chain, null);
    assert.equal(stack.chain, null);
    // The SMS catcher runs with every stack; the server is pointed at it.
    assert.equal((await fetch(stack.urls.smsInbox)).status, 200);
    assert.deepEqual(await stack.smsbox.messagesFor("+12015550123"), []);
  } finally {
    await stack.stop();
  }
});

test("the demo app signs in by SMS through the catcher and by the host-auth stand-in's JWT", async () => {
  const origin = "http://localhost:9";
  const stack = await startStack({ mode: "test", web: false, chain: false, origins: [origin] });
  const call = apiCaller(stack, origin);
  try {
    const config = await (await fetch(`${stack.urls.api}/api/v1/apps/${stack.appId}`)).json();
    assert.deepEqual(config.login_methods_and_order, {
      primary: ["email", "google", "github", "wallet", "passkey"],
      overflow: ["sms"],
    });
    assert.equal(config.guest_auth, true);
    assert.equal(config.custom_jwt_auth, true);

    const phoneNumber = "+12015550177";
    assert.equal((await call("/passwordless_sms/init", { phoneNumber })).status, 200);
    const code = await stack.smsbox.latestCode(phoneNumber);
    const sms = await call("/passwordless_sms/authenticate", { phoneNumber, code });
    assert.equal(sms.status, 200, JSON.stringify(sms.body));
    assert.equal(sms.body.user.linked_accounts[0].phoneNumber, phoneNumber);

    const token = await stack.hostAuth.mintToken("host-user-7");
    const custom = await call("/custom_jwt_account/authenticate", { token });
    assert.equal(custom.status, 200, JSON.stringify(custom.body));
    assert.equal(custom.body.user.linked_accounts[0].custom_user_id, "host-user-7");
    const forged = await call("/custom_jwt_account/authenticate", { token: `${token.slice(0, -4)}AAAA` });
    assert.equal(forged.body.code, "invalid_credentials");

    // The demo app's endpoint points at the catcher: both sign-ups arrive signed, verified with the vendor SDK.
    const created = await waitFor(() => {
      const seen = stack.webhookbox.events.filter((e) => e.type === "user.created");
      return seen.length === 2 && seen;
    });
    assert.ok(
      created.every((e) => e.verified && e.answered === 204),
      JSON.stringify(created),
    );
    assert.deepEqual(
      created.map((e) => e.body.user.id),
      [sms.body.user.id, custom.body.user.id],
    );
    const page = await (await fetch(stack.urls.webhooks)).text();
    assert.match(page, /user\.created/);
  } finally {
    await stack.stop();
  }
});

test("the demo app signs in with Google and GitHub through the local OAuth stand-ins", async () => {
  const origin = "http://localhost:9";
  const stack = await startStack({ mode: "test", web: false, chain: false, origins: [origin] });
  const call = apiCaller(stack, origin);
  /** The whole flow as the client runs it: init, the provider's page, our callback, authenticate. */
  const logInWith = async (provider, who) => {
    const verifier = randomBytes(36).toString("base64url");
    const state = randomBytes(36).toString("base64url");
    const init = await call("/oauth/init", {
      provider,
      redirect_to: `${origin}/`,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      state_code: state,
    });
    assert.equal(init.status, 200, JSON.stringify(init.body));
    const callback = await signInAt(init.body.url, who);
    assert.equal(`${callback.origin}${callback.pathname}`, `${stack.urls.api}/api/v1/oauth/callback`);
    const back = await fetch(callback, { redirect: "manual" });
    const app = new URL(back.headers.get("location") ?? "");
    assert.equal(app.origin, origin);
    assert.equal(app.searchParams.get("privy_oauth_state"), state);
    assert.equal(app.searchParams.get("privy_oauth_provider"), provider);
    return call("/oauth/authenticate", {
      authorization_code: app.searchParams.get("privy_oauth_code"),
      state_code: state,
      code_verifier: verifier,
      provider,
    });
  };
  try {
    const config = await (await fetch(`${stack.urls.api}/api/v1/apps/${stack.appId}`)).json();
    assert.equal(config.google_oauth, true);
    assert.equal(config.github_oauth, true);

    const google = await logInWith("google", { login: "stack-alice", email: "stack-alice@example.com" });
    assert.equal(google.status, 200, JSON.stringify(google.body));
    assert.equal(google.body.is_new_user, true);
    const account = google.body.user.linked_accounts.find((a) => a.type === "google_oauth");
    assert.equal(account?.subject, "stack-alice");
    assert.equal(account?.email, "stack-alice@example.com");

    const github = await logInWith("github", { login: "octocat" });
    assert.equal(github.status, 200, JSON.stringify(github.body));
    assert.equal(
      github.body.user.linked_accounts.find((a) => a.type === "github_oauth")?.username,
      "octocat",
    );

    const suspended = await logInWith("github", { login: "suspended" });
    assert.equal(suspended.body.code, "oauth_account_suspended", JSON.stringify(suspended.body));
  } finally {
    await stack.stop();
  }
});

test("the demo app signs in with Farcaster through the local relay, its custody read from the local chain", async () => {
  const origin = "http://localhost:9";
  const stack = await startStack({
    mode: "test",
    web: false,
    origins: [origin],
    app: { loginMethods: ["email", "farcaster"] },
  });
  const headers = { "privy-app-id": stack.appId, origin, "content-type": "application/json" };
  try {
    assert.ok(stack.urls.farcasterRelay, "the relay runs with the chain");
    const init = await (
      await fetch(`${stack.urls.api}/api/v1/farcaster/init`, { method: "POST", headers, body: "{}" })
    ).json();
    assert.match(init.connect_uri, /^farcaster:\/\/connect\?channelToken=/);
    await approveLatestChannel(stack.urls.farcasterRelay, 1002);
    const status = await (
      await fetch(`${stack.urls.api}/api/v1/farcaster/status`, {
        headers: { ...headers, "farcaster-channel-token": init.channel_token },
      })
    ).json();
    assert.equal(status.state, "completed");
    const res = await fetch(`${stack.urls.api}/api/v1/farcaster/authenticate`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        channel_token: init.channel_token,
        message: status.message,
        signature: status.signature,
        fid: status.fid,
      }),
    });
    const body = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    const [account] = body.user.linked_accounts;
    assert.equal(account.type, "farcaster");
    assert.equal(account.fid, 1002);
    assert.equal(account.username, "bob");
  } finally {
    await stack.stop();
  }
});

/** Polls `check` (every 50 ms, up to 10 s) until it returns something truthy. */
async function waitFor(check) {
  const until = Date.now() + 10_000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
