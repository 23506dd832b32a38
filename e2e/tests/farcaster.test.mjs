// Sign In With Farcaster as a person meets it, through the stack's local relay (which speaks the Farcaster Auth
// relay's API): the modal shows the channel as a QR code and polls; the test plays the Farcaster app by approving
// the channel on the relay as one of its test accounts, whose custody key signs the message; the server checks the
// signature against the ID-registry stand-in on the local chain.
import assert from "node:assert/strict";
import { browserTest, sharedBrowser } from "../lib/browser.mjs";
import { expectSignedIn, expectSignedOut, logIn, uniqueEmail } from "../lib/flows.mjs";
import { useStack } from "../lib/stack.mjs";

const stack = useStack();
const step = sharedBrowser();

async function openFarcaster(page) {
  await page.getByRole("button", { name: "Log in" }).click();
  const dialog = page.getByRole("dialog", { name: "Log in or sign up" });
  await dialog.getByRole("button", { name: "More options" }).click();
  await dialog.getByRole("button", { name: "Farcaster" }).click();
  return dialog;
}

step("the QR code's channel, approved in the Farcaster app, signs the account in", async ({ page }) => {
  const bob = stack.farcaster.accounts.find((a) => a.fid === 1002);
  assert.ok(bob);
  await page.goto(stack.urls.web);
  const dialog = await openFarcaster(page);
  const qr = dialog.getByRole("img", { name: "Farcaster sign-in QR code" });
  await qr.waitFor();
  assert.match((await qr.getAttribute("data-value")) ?? "", /^farcaster:\/\/connect\?channelToken=/);
  assert.match(
    (await dialog.getByRole("link", { name: "Open the Farcaster app" }).getAttribute("href")) ?? "",
    /^farcaster:/,
  );
  // The modal polls the status while nobody approved.
  const polled = page.waitForResponse((r) => r.url().endsWith("/api/v1/farcaster/status"));
  assert.equal((await (await polled).json()).state, "pending");
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/v1/farcaster/authenticate"), {
    timeout: 15_000,
  });
  await stack.farcaster.approve(bob.fid);
  const response = await answer;
  assert.equal(response.status(), 200);
  const account = (await response.json()).user.linked_accounts.find((a) => a.type === "farcaster");
  assert.equal(account.fid, bob.fid);
  assert.equal(account.username, bob.username);
  assert.match(account.owner_address, /^0x[0-9a-fA-F]{40}$/);
  await expectSignedIn(page, `@${bob.username}`);
  await page.getByRole("button", { name: "Log out" }).click();
  await expectSignedOut(page);
});

step("an email user links a Farcaster account from the accounts card, then unlinks it", async ({ page }) => {
  const carol = stack.farcaster.accounts.find((a) => a.fid === 1003);
  assert.ok(carol);
  const email = uniqueEmail("farcaster-link");
  await logIn(page, stack, email);
  await page.getByRole("button", { name: "Link Farcaster" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("img", { name: "Farcaster sign-in QR code" }).waitFor();
  const linked = page.waitForResponse((r) => r.url().endsWith("/api/v1/farcaster/link"), { timeout: 15_000 });
  await stack.farcaster.approve(carol.fid);
  const response = await linked;
  assert.equal(response.status(), 200, await response.text());
  await dialog.getByText("Farcaster account added").waitFor();
  await page.getByText(`@${carol.username}`).waitFor();
  await page.getByRole("button", { name: `Unlink farcaster @${carol.username}` }).click();
  await page.getByRole("button", { name: "Link Farcaster" }).waitFor();
});

step("a Farcaster account linked to another user is moved with the transfer offer", async ({ page }) => {
  const alice = stack.farcaster.accounts.find((a) => a.fid === 1001);
  assert.ok(alice);
  const linkAlice = async () => {
    await page.getByRole("button", { name: "Link Farcaster" }).click();
    await page.getByRole("img", { name: "Farcaster sign-in QR code" }).waitFor();
    const answer = page.waitForResponse((r) => r.url().endsWith("/api/v1/farcaster/link"), {
      timeout: 15_000,
    });
    await stack.farcaster.approve(alice.fid);
    return answer;
  };
  await page.getByRole("button", { name: "Log out" }).click();
  await expectSignedOut(page);
  await logIn(page, stack, uniqueEmail("farcaster-first-owner"));
  assert.equal((await linkAlice()).status(), 200);
  await page.getByRole("dialog").waitFor({ state: "hidden" });
  await page.getByRole("button", { name: "Log out" }).click();
  await expectSignedOut(page);
  await logIn(page, stack, uniqueEmail("farcaster-taker"));
  const refused = await linkAlice();
  assert.equal((await refused.json()).code, "account_transfer_required");
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("heading", { name: "Transfer this Farcaster account?" }).waitFor();
  const moved = page.waitForResponse((r) => r.url().endsWith("/api/v1/farcaster/transfer"));
  await dialog.getByRole("button", { name: "Transfer" }).click();
  assert.equal((await moved).status(), 200);
  await page.getByText(`@${alice.username}`).waitFor();
  await page.getByRole("dialog").waitFor({ state: "hidden" });
});

step(
  "a Farcaster user with an embedded wallet has a signer approved in the Farcaster app",
  async ({ page }) => {
    const bob = stack.farcaster.accounts.find((a) => a.fid === 1002);
    assert.ok(bob);
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "Log out" }).click();
    await expectSignedOut(page);
    await openFarcaster(page);
    await page.getByRole("img", { name: "Farcaster sign-in QR code" }).waitFor();
    await stack.farcaster.approve(bob.fid);
    await expectSignedIn(page, `@${bob.username}`);
    // Spec §5: signers need an embedded wallet; the demo creates one on login.
    await page.getByTestId("wallet-address").waitFor({ timeout: 30_000 });
    await page.getByRole("button", { name: "Request signer" }).click();
    const dialog = page.getByRole("dialog", { name: "Approve the Farcaster signer" });
    const qr = dialog.getByRole("img", { name: "Farcaster signer QR code" });
    await qr.waitFor();
    const approvalUrl = new URL((await qr.getAttribute("data-value")) ?? "");
    const token = approvalUrl.searchParams.get("token");
    assert.ok(token, approvalUrl.href);
    // The modal polls while the request waits for the user.
    const polled = await page.waitForResponse((r) => r.url().endsWith("/api/v1/farcaster/signer/status"));
    assert.equal((await polled.json()).status, "pending_approval");
    const approve = await fetch(`${stack.urls.farcasterRelay}/signer/approve`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token, fid: bob.fid }),
    });
    assert.equal(approve.status, 200);
    await page.getByText("Farcaster signer approved").waitFor({ timeout: 10_000 });
    await page.getByText("Signer approved", { exact: true }).waitFor({ timeout: 10_000 });
  },
);

browserTest(
  "on a phone the channel is a link that opens the Farcaster app, not a QR code",
  async ({ page }) => {
    await page.goto(stack.urls.web);
    const dialog = await openFarcaster(page);
    const link = dialog.getByRole("link", { name: "Open the Farcaster app" });
    await link.waitFor();
    assert.match((await link.getAttribute("href")) ?? "", /^farcaster:\/\/connect\?channelToken=/);
    assert.equal(await dialog.getByRole("img", { name: "Farcaster sign-in QR code" }).count(), 0);
    // Closing the modal stops the poll.
    await dialog.getByRole("button", { name: "Close" }).click();
    let polls = 0;
    page.on("request", (r) => {
      if (r.url().endsWith("/api/v1/farcaster/status")) polls++;
    });
    await page.waitForTimeout(4_500);
    assert.equal(polls, 0);
  },
  { viewport: { width: 390, height: 800 } },
);
