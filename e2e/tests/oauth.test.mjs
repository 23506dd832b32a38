// Social login as a person meets it, through the local stand-ins the e2e app points Google and GitHub at
// (tools/stack/src/oidcProvider.mjs, oauth2Provider.mjs): "Continue with Google" by popup and by full-page redirect,
// the privy_oauth_* parameters gone from the address after the return; an email user links GitHub; a tampered
// state, a denied sign-in and a suspended account (spec §2 OAuth status screens, §4 OAuth flow, §5 state check,
// §8 OAuth messages).
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { sharedBrowser } from "../lib/browser.mjs";
import { expectSignedIn, expectSignedOut, logIn, openLoginModal, uniqueEmail } from "../lib/flows.mjs";
import { useStack } from "../lib/stack.mjs";

const stack = useStack();
const step = sharedBrowser();

/** A provider account nobody else in the suite uses. */
function uniqueAccount(tag) {
  const login = `${tag}-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`;
  return { login, email: `${login}@example.com`, name: `${tag} user` };
}

/** On a stand-in's sign-in page: types the account into "Another account" and signs in. */
async function signInOnProvider(providerPage, account) {
  const form = providerPage.locator("form#login");
  await form.getByLabel("Login (the account's subject)").fill(account.login);
  if (account.email) await form.getByLabel("Email (optional)").fill(account.email);
  if (account.name) await form.getByLabel("Name (optional)").fill(account.name);
  await form.getByRole("button", { name: "Sign in" }).click();
}

/** Clicks `button` and returns the popup it opens, once the provider's page at `providerUrl` is loaded in it. */
async function popupFrom(context, button, providerUrl) {
  const opened = context.waitForEvent("page");
  await button.click();
  const popup = await opened;
  await popup.waitForURL((url) => url.origin === new URL(providerUrl).origin);
  await popup.waitForLoadState("domcontentloaded");
  return popup;
}

/** Starts from the signed-out landing page whatever the step before left (so one failure does not cascade). */
async function signedOutStart(page) {
  await page.goto(stack.urls.web);
  const logOut = page.getByRole("button", { name: "Log out" });
  const logIn = page.getByRole("button", { name: "Log in" });
  await logOut.or(logIn).first().waitFor();
  if (await logOut.isVisible()) await logOut.click();
  await expectSignedOut(page);
}

/** No privy_oauth_* parameter is left in the page's address. */
function assertCleanAddress(page) {
  const url = new URL(page.url());
  const left = [...url.searchParams.keys()].filter((key) => key.startsWith("privy_oauth_"));
  assert.deepEqual(left, [], `left in the address: ${url.search}`);
}

const google = uniqueAccount("google");
const redirectUser = uniqueAccount("google-redirect");
const github = uniqueAccount("github");
const emailUser = uniqueEmail("oauth-link");

step(
  "Continue with Google opens the provider in a popup; the popup closes and the user is signed in",
  async ({ context, page }) => {
    await signedOutStart(page);
    const dialog = await openLoginModal(page, stack);
    const popup = await popupFrom(
      context,
      dialog.getByRole("button", { name: "Continue with Google" }),
      stack.urls.oidc,
    );
    await popup.getByRole("heading", { name: "Sign in with Google" }).waitFor();
    const closed = popup.waitForEvent("close");
    await signInOnProvider(popup, google);
    await closed;
    await expectSignedIn(page, google.email);
    assertCleanAddress(page);
    await page.getByRole("button", { name: "Log out" }).click();
    await expectSignedOut(page);
  },
);

step("Google by full-page redirect: back on the app, signed in, privy_oauth_* removed", async ({ page }) => {
  await page.goto(stack.urls.web);
  const back = page.waitForURL((url) => url.searchParams.has("privy_oauth_code"), { waitUntil: "commit" });
  await page.getByRole("button", { name: "Google (full page)" }).click();
  await page.waitForURL((url) => url.href.startsWith(stack.urls.oidc));
  await signInOnProvider(page, redirectUser);
  await back;
  assert.ok(new URL(page.url()).origin === new URL(stack.urls.web).origin, "back on the app");
  await expectSignedIn(page, redirectUser.email);
  await page.waitForFunction(() => !/privy_oauth_/.test(window.location.search));
  assertCleanAddress(page);
  await page.getByRole("button", { name: "Log out" }).click();
  await expectSignedOut(page);
});

step("an email user links GitHub; the accounts card shows it", async ({ context, page }) => {
  await logIn(page, stack, emailUser);
  const accounts = page.getByRole("region", { name: "Accounts" });
  const popup = await popupFrom(
    context,
    accounts.getByRole("button", { name: "Link GitHub", exact: true }),
    stack.urls.oauth2,
  );
  const closed = popup.waitForEvent("close");
  await signInOnProvider(popup, github);
  await closed;
  // The status screen says so, then the modal closes by itself (spec §4 after OAuth success).
  await page.getByRole("dialog").getByText("Successfully connected with GitHub").waitFor();
  await page.getByRole("dialog").waitFor({ state: "hidden" });
  await accounts.getByText(github.login, { exact: true }).waitFor();
  // One GitHub account per user: the Link button is gone, Unlink is there.
  await accounts.getByRole("button", { name: "Link GitHub", exact: true }).waitFor({ state: "detached" });
  await accounts.getByRole("button", { name: `Unlink github ${github.login}` }).waitFor();
  await expectSignedIn(page, emailUser);
  await page.getByRole("button", { name: "Log out" }).click();
  await expectSignedOut(page);
});

step("a tampered state is refused with the phishing message", async ({ context, page }) => {
  // The sign-in at GitHub's page redirects to our callback, which redirects to the app with privy_oauth_state.
  // Redirect hops cannot be routed, so the form post is: its hops are followed here and the last one changed.
  const signIn = `${stack.urls.oauth2}/login/oauth/authorize/*`;
  let tampered = false;
  await context.route(signIn, async (route) => {
    let response = await route.fetch({ maxRedirects: 0 });
    let location = new URL(response.headers().location ?? "", route.request().url());
    for (let hop = 0; hop < 5 && !location.searchParams.has("privy_oauth_state"); hop++) {
      response = await context.request.get(location.toString(), { maxRedirects: 0 });
      location = new URL(response.headers().location ?? "", location);
    }
    if (location.searchParams.has("privy_oauth_state")) {
      location.searchParams.set("privy_oauth_state", "tampered");
      tampered = true;
    }
    await route.fulfill({ status: 302, headers: { location: location.toString() } });
  });
  try {
    await signedOutStart(page);
    const dialog = await openLoginModal(page, stack);
    const popup = await popupFrom(
      context,
      dialog.getByRole("button", { name: "Continue with GitHub" }),
      stack.urls.oauth2,
    );
    await signInOnProvider(popup, uniqueAccount("tampered"));
    await dialog.getByText("Unexpected auth flow. This may be a phishing attempt.").waitFor();
    assert.ok(tampered, "the state was changed on its way back");
    assert.equal(await page.getByTestId("user-email").count(), 0, "nobody signed in");
  } finally {
    await context.unroute(signIn);
  }
  await page.getByRole("button", { name: "Close" }).click();
  await expectSignedOut(page);
});

step(
  "Cancel at the provider is a calm 'cancelled' screen, not a failure, with Try again",
  async ({ context, page }) => {
    await signedOutStart(page);
    const dialog = await openLoginModal(page, stack);
    const popup = await popupFrom(
      context,
      dialog.getByRole("button", { name: "Continue with GitHub" }),
      stack.urls.oauth2,
    );
    const closed = popup.waitForEvent("close");
    await popup.getByRole("button", { name: "Cancel (deny access)" }).click();
    await closed;
    await dialog.getByRole("heading", { name: "GitHub login cancelled" }).waitFor();
    await dialog
      .getByText("Retry and check the requested permissions to finish connecting your account.")
      .waitFor();
    assert.equal(await dialog.getByRole("alert").count(), 0, "a cancel is not announced as an error");
    assert.equal(await dialog.locator(".symbolon-failed").count(), 0, "nor marked as one");
    const retry = dialog.getByRole("button", { name: "Try again" });
    await retry.waitFor();
    // Retry starts again: a new popup at the provider, which this time signs in.
    const again = await popupFrom(context, retry, stack.urls.oauth2);
    const done = again.waitForEvent("close");
    await signInOnProvider(again, uniqueAccount("retry"));
    await done;
    await page.getByTestId("user-email").waitFor();
  },
);

step("a suspended GitHub account gets the spec's message and no Retry", async ({ context, page }) => {
  await signedOutStart(page);
  const dialog = await openLoginModal(page, stack);
  const popup = await popupFrom(
    context,
    dialog.getByRole("button", { name: "Continue with GitHub" }),
    stack.urls.oauth2,
  );
  const closed = popup.waitForEvent("close");
  // The stand-in's `suspended` account signs in; its /user then answers GitHub's 403 for suspended accounts.
  await popup.getByRole("button", { name: "Sign in as Suspended User" }).click();
  await closed;
  await dialog.getByRole("heading", { name: "Authentication failed" }).waitFor();
  await dialog.getByText("Your GitHub account is suspended. Please try another login method.").waitFor();
  assert.equal(await dialog.getByRole("button", { name: "Retry" }).count(), 0, "not retryable");
  assert.equal(await page.getByTestId("user-email").count(), 0, "nobody signed in");
  // "Please try another login method": Back leads to them.
  await dialog.getByRole("button", { name: "Back to login options" }).click();
  await dialog.getByLabel("Email address").waitFor();
  await dialog.getByRole("button", { name: "Continue with Google" }).waitFor();
});
