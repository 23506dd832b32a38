#!/usr/bin/env node
// Renders each new modal screen (login methods, More options, phone, SMS code, update email and phone,
// the refusals, transfer, terms, the OAuth buttons and status screens, the in-app-browser screen, the passkey
// and MFA screens) in Chromium without a server, saves light and dark pictures to
// docs/screenshots/ and scans each with axe-core (serious and critical violations fail the run).
//   node packages/react/scripts/screens.mjs
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { chromium } from "playwright-core";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.resolve(HERE, "../../../docs/screenshots");
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

// The page: the modal under a provider context with a real client whose store is set by hand, and a
// controller stepped to the screen named in the query string. No request leaves the page.
const PAGE = `
import { createRoot } from "react-dom/client";
import { createClient, createMemoryStorage } from "@symbolon/core";
import { createModalController } from "../src/provider/createModalController";
import { screenActionsOf } from "../src/modal/screenActions";
import { PrivyContext } from "../src/provider/PrivyContext";
import LoginModal from "../src/modal/LoginModal";
import { loadLoginScreens } from "../src/modal/modalFlows";

const params = new URLSearchParams(location.search);
const name = params.get("screen");
const theme = params.get("theme");
const user = {
  id: "did:privy:1", created_at: 0, mfa_methods: [], has_accepted_terms: false, is_guest: false,
  linked_accounts: [
    { type: "email", address: "ada@example.com", verified_at: 0, first_verified_at: 0, latest_verified_at: 0 },
    { type: "phone", phoneNumber: "+12015550123", verified_at: 0, first_verified_at: 0, latest_verified_at: 0 },
  ],
};
const client = createClient({ appId: "abcdefghijklmnopqrstuvwxy", apiUrl: "http://127.0.0.1:9", storage: createMemoryStorage(), broadcast: false });
const signedIn = name.startsWith("update") || name === "transfer" || name === "linked" || name.startsWith("mfa") || name === "passkeys";
// Passkey and MFA screens: a user with an authenticator app and three passkeys (one in MFA).
const passkey = (i) => ({ type: "passkey", credential_id: "cred-" + i, authenticator_name: ["iCloud Keychain", "Google Password Manager", "YubiKey 5"][i], created_with_browser: "Chrome", created_with_os: "macOS", created_with_device: "desktop", enrolled_in_mfa: i === 0, verified_at: 1764000000, first_verified_at: 1764000000, latest_verified_at: 1764000000 });
if (name.startsWith("mfa") || name === "passkeys") {
  user.linked_accounts.push(passkey(0), passkey(1), passkey(2));
  user.mfa_methods = name === "mfa-intro" ? [] : [{ type: "totp", verified_at: 0 }];
}
client.store.setState({
  ready: true, authenticated: signedIn, user: signedIn ? user : null,
  appConfig: {
    name: "Acme", logo_url: null, disable_plus_emails: false,
    require_users_accept_terms: true, terms_and_conditions_url: "https://acme.test/terms", privacy_policy_url: "https://acme.test/privacy",
    login_methods_and_order: name === "sms-first" ? { primary: ["sms", "email"], overflow: [] }
      : name.startsWith("oauth") ? { primary: ["google", "github", "email"], overflow: ["apple", "sms"] }
      : name.startsWith("passkey-") ? { primary: ["email", "passkey"], overflow: ["sms"] }
      : { primary: ["email"], overflow: ["sms"] },
    mfa_methods: name === "mfa-none" ? [] : ["totp", "sms", "passkey"], mfa_protect_transactions: true,
    google_oauth: true, github_oauth: true, apple_oauth: true, custom_oauth_providers: [],
  },
});
const controller = createModalController(client);
// What the screens call: the steps below press the same buttons a person would.
const a = screenActionsOf(controller, client);
const refusal = (code, data) => Object.assign(new Error(code), { code, data });
// OAuth screens: no popup and no server here; the flow's state is set by hand after the click.
window.open = () => null;
if (name === "in-app-browser") Object.defineProperty(navigator, "userAgent", { get: () => "Mozilla/5.0 (iPhone) Mobile/15E148 Instagram 300.0" });
const oauth = (c, flow) => { c.login(); setTimeout(() => { controller.flows.oauth.startOAuth("google"); if (flow) client.store.setState({ oauthFlow: { ...client.store.getState().oauthFlow, ...flow } }); }, 30); };
const steps = {
  "methods": (c) => c.login(),
  "sms-first": (c) => c.login(),
  "more": (c) => { c.login(); setTimeout(() => a.methods.showMore(), 30); },
  "phone": (c) => { c.login(); setTimeout(() => a.methods.chooseMethod("sms"), 30); },
  "sms-code": (c) => { c.login(); setTimeout(() => a.code.codeSent("+12015550123", "sms"), 30); },
  "update-email": (c) => c.openUpdate("email"),
  "update-phone": (c) => c.openUpdate("phone"),
  "allowlist": (c) => { c.login(); setTimeout(() => { a.code.codeSent("ada@example.com"); controller.flows.refusal.refuse(refusal("allowlist_rejected")); }, 30); },
  "linked": (c) => { c.openLink("email"); setTimeout(() => { a.code.codeSent("ada@example.com"); controller.flows.refusal.refuse(refusal("linked_to_another_user")); }, 30); },
  "transfer": (c) => { c.openLink("email"); setTimeout(() => controller.flows.refusal.refuse(refusal("account_transfer_required", { nonce: "n", account_type: "email", display_name: "ada@example.com", embedded_wallet_address: "0x1234567890abcdef1234567890abcdef12345678" })), 30); },
  "terms": (c) => { c.login(); setTimeout(() => a.account.succeed({ user, isNewUser: true, wasAlreadyAuthenticated: false }), 30); },
  "oauth-methods": (c) => c.login(),
  "oauth-verifying": (c) => oauth(c),
  "oauth-connected": (c) => oauth(c, { status: "done" }),
  "oauth-failed": (c) => oauth(c, { status: "error", error: refusal("invalid_credentials") }),
  "in-app-browser": (c) => { c.login(); setTimeout(() => controller.flows.oauth.startOAuth("google"), 30); },
  "passkey-methods": (c) => c.login(),
  // No server here: the screen as the login starts.
  "passkey-login": (c) => { c.login(); setTimeout(() => a.methods.chooseMethod("passkey"), 30); },
  "passkeys": (c) => c.openPasskeys(),
  "mfa-verify": () => mfa({ modal: "verify", pending: pending(null) }),
  "mfa-not-valid": () => mfa({ modal: "verify", pending: pending({ code: "missing_or_invalid_mfa", message: "The code you entered is not valid" }) }),
  "mfa-max-attempts": () => { mfa({ modal: "verify", pending: pending(null) }); setTimeout(() => mfa({ pending: null, verification: { status: "error", method: "totp", error: { code: "mfa_verification_max_attempts_reached", message: "" } } }), 60); },
  "mfa-intro": () => mfa({ modal: "enroll" }),
  "mfa-choose": () => mfa({ modal: "enroll" }),
  "mfa-none": () => mfa({ modal: "enroll" }),
};
const mfa = (patch) => client.store.setState({ mfaState: { ...client.store.getState().mfaState, ...patch } });
const pending = (error) => ({ methods: ["totp", "sms", "passkey"], attempt: 1, maxAttempts: 4, deadline: Date.now() + 300000, overallDeadline: Date.now() + 1260000, error });
// The modal with the screens of its flows, as the provider loads it.
loadLoginScreens().then((screens) => {
  createRoot(document.getElementById("root")).render(
    <PrivyContext.Provider value={{ client, controller, config: { appearance: { theme } } }}>
      <main><h1>Host app</h1></main>
      <LoginModal screens={screens} />
    </PrivyContext.Provider>,
  );
  steps[name](controller);
});
`;

/** The screens and their file names. */
export const SCREENS = [
  "methods",
  "sms-first",
  "more",
  "phone",
  "sms-code",
  "update-email",
  "update-phone",
  "allowlist",
  "linked",
  "transfer",
  "terms",
  "oauth-methods",
  "oauth-verifying",
  "oauth-connected",
  "oauth-failed",
  "in-app-browser",
  "passkey-methods",
  "passkey-login",
  "passkeys",
  "mfa-verify",
  "mfa-not-valid",
  "mfa-max-attempts",
  "mfa-intro",
  "mfa-choose",
  "mfa-none",
];

// `node screens.mjs passkey mfa`: only the screens whose names start with one of the arguments.
const only = process.argv.slice(2);
const chosen = only.length
  ? SCREENS.filter((screen) => only.some((prefix) => screen.startsWith(prefix)))
  : SCREENS;

const dir = await mkdtemp(path.join(tmpdir(), "symbolon-screens-"));
try {
  await build({
    stdin: { contents: PAGE, loader: "tsx", resolveDir: HERE },
    bundle: true,
    format: "iife",
    jsx: "automatic",
    outfile: path.join(dir, "page.js"),
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "error",
  });
  await writeFile(
    path.join(dir, "index.html"),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Screens</title></head><body><div id="root"></div><script src="page.js"></script></body></html>',
  );
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"],
  });
  const failures = [];
  try {
    const page = await browser.newPage({ viewport: { width: 520, height: 760 } });
    await page.route("**/*", (route) =>
      route.request().url().startsWith("file:") ? route.continue() : route.abort("blockedbyclient"),
    );
    for (const screen of chosen) {
      for (const theme of ["light", "dark"]) {
        const url = `${pathToFileURL(path.join(dir, "index.html")).href}?screen=${screen}&theme=${theme}`;
        await page.goto(url);
        const dialog = page.getByRole("dialog");
        await dialog.waitFor();
        await page.waitForTimeout(400);
        await dialog.screenshot({ path: path.join(OUT, `${screen}-${theme}.png`), animations: "disabled" });
        await page.addScriptTag({ path: AXE });
        const violations = await page.evaluate(async () => {
          const result = await window.axe.run(document.querySelector("[role=dialog]"), {
            resultTypes: ["violations"],
          });
          return result.violations
            .filter((v) => v.impact === "serious" || v.impact === "critical")
            .map(
              (v) =>
                `${v.id}: ${v.help} (${v.nodes.map((n) => `${n.target.join(" ")} ${JSON.stringify(n.any[0]?.data ?? {})}`).join(", ")})`,
            );
        });
        for (const v of violations) failures.push(`${screen} ${theme}: ${v}`);
        console.log(
          `${screen}-${theme}.png${violations.length ? ` — ${violations.length} axe violation(s)` : ""}`,
        );
      }
    }
  } finally {
    await browser.close();
  }
  if (failures.length) {
    console.error(failures.join("\n"));
    process.exitCode = 1;
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
