// Passkeys and 2-step verification as a person meets them (issue 12; spec §2 MFA and passkey screens, §4 passkey
// flow and MFA verification, §5 passkey rules, §6 MFA before export, §8 messages, §9 five passkeys). Chromium's
// virtual WebAuthn authenticator is the person's passkey device; the test is the authenticator app (codes computed
// from the setup key shown on the screen). The demo app has transaction protection on (tools/stack).
import assert from "node:assert/strict";
import { describe } from "node:test";
import { sharedBrowser } from "../lib/browser.mjs";
import { logOut } from "../lib/externalWallets.mjs";
import { logIn, uniqueEmail } from "../lib/flows.mjs";
import {
  CODE_NOT_VALID,
  closeDialog,
  dismissDialogs,
  enrollAuthenticatorApp,
  expectMfaMessage,
  expectMfaPrompt,
  MAX_ATTEMPTS,
  openEnrollment,
  typeCode,
} from "../lib/mfa.mjs";
import {
  addPasskey,
  callApi,
  logInWithPasskey,
  passkeyRows,
  securityCard,
  shownUserId,
  signUpWithPasskey,
  virtualAuthenticator,
  watchAccessToken,
} from "../lib/passkeys.mjs";
import { useStack } from "../lib/stack.mjs";
import {
  chainClient,
  RECIPIENT,
  readHex,
  revealExportedKey,
  shownAddress,
  waitForBalance,
} from "../lib/wallet.mjs";

const stack = useStack();

describe("passkeys", () => {
  const step = sharedBrowser();
  let authenticator;
  let userId;
  let accessToken;

  step(
    "a passkey signs a new user up; after logging out the same passkey logs the same user in",
    async ({ context, page }) => {
      authenticator = await virtualAuthenticator(context, page);
      accessToken = watchAccessToken(page);
      // A new user meets a choice, not a failed login: nothing goes to the browser or the server before it.
      const passkeyCalls = [];
      page.on("request", (r) => {
        const path = new URL(r.url()).pathname;
        if (path.startsWith("/api/v1/passkeys/")) passkeyCalls.push(path);
      });
      const signup = await signUpWithPasskey(page, stack);
      assert.deepEqual(passkeyCalls, ["/api/v1/passkeys/register/init", "/api/v1/passkeys/register"]);
      assert.equal(signup.body.is_new_user, true);
      userId = signup.body.user.id;
      const [account] = signup.body.user.linked_accounts.filter((a) => a.type === "passkey");
      assert.ok(account, JSON.stringify(signup.body.user.linked_accounts));
      const [credential] = await authenticator.credentials();
      assert.equal(credential.isResidentCredential, true, "a discoverable passkey");
      assert.equal(
        account.credential_id,
        Buffer.from(credential.credentialId, "base64").toString("base64url"),
      );
      assert.equal(account.enrolled_in_mfa, false);
      assert.equal(await shownUserId(page), userId);
      await passkeyRows(page).first().waitFor();
      assert.equal(await passkeyRows(page).count(), 1);

      await logOut(page);
      const login = await logInWithPasskey(page, stack);
      assert.equal(login.body.is_new_user, false);
      assert.equal(login.body.user.id, userId);
      assert.equal(await shownUserId(page), userId);
    },
  );

  step(
    "Add a passkey links up to five (each from a new authenticator); at five it is gone and the server refuses a sixth",
    async ({ page }) => {
      for (let n = 2; n <= 5; n += 1) {
        const { body } = await addPasskey(page, authenticator);
        assert.equal(body.linked_accounts.filter((a) => a.type === "passkey").length, n);
      }
      assert.equal(await passkeyRows(page).count(), 5);
      assert.equal(await securityCard(page).getByRole("button", { name: "Add a passkey" }).count(), 0);
      // What a script on the page would get, asking anyway.
      const refused = await callApi(page, stack, "/passkeys/link/init", {}, accessToken());
      // 422: the server's status for cannot_link_more_of_type (as for a second email).
      assert.equal(refused.status, 422, JSON.stringify(refused.body));
      assert.deepEqual(refused.body, {
        error: "Cannot link more passkeys to account.",
        code: "cannot_link_more_of_type",
      });
    },
  );

  step("a passkey enrolled in 2-step verification cannot be unlinked", async ({ page }) => {
    const dialog = await openEnrollment(page);
    await dialog.getByRole("button", { name: "Set up Passkey" }).click();
    const enrolled = page.waitForResponse(
      (r) => new URL(r.url()).pathname === "/api/v1/mfa/passkeys/enroll" && r.request().method() === "POST",
    );
    await dialog.getByRole("button", { name: "Enable passkeys" }).click();
    assert.equal((await enrolled).status(), 200);
    await dialog.getByRole("heading", { name: "Passkey verification is on" }).waitFor();
    await closeDialog(page);
    const badged = passkeyRows(page).filter({ hasText: "MFA" });
    await badged.first().waitFor();

    await badged
      .first()
      .getByRole("button", { name: /^Unlink passkey \d$/ })
      .click();
    await securityCard(page)
      .getByRole("alert")
      .filter({ hasText: "Cannot unlink a passkey enrolled in MFA" })
      .waitFor();
    assert.equal(await passkeyRows(page).count(), 5);
    // The server holds the rule too.
    const credentialId = await badged.first().getAttribute("data-credential-id");
    const refused = await callApi(
      page,
      stack,
      "/passkeys/unlink",
      { credential_id: credentialId },
      accessToken(),
    );
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.deepEqual(refused.body, {
      error: "Cannot unlink a passkey enrolled in MFA",
      code: "invalid_data",
    });
  });

  step(
    "export asks for the passkey: the authenticator answers the prompt and the key shows",
    async ({ page }) => {
      const verified = page.waitForResponse(
        (r) => new URL(r.url()).pathname === "/api/v1/mfa/verify" && r.request().method() === "POST",
      );
      await page.getByRole("button", { name: "Export private key" }).click();
      // Passkey is the user's only method: the verification starts its prompt by itself.
      assert.equal((await verified).status(), 200);
      assert.match(await revealExportedKey(page), /^0x[0-9a-f]{64}$/i);
    },
  );
  step(
    "turning passkey verification off says it deletes the login passkeys, names them, and deletes all but the last way in",
    async ({ page }) => {
      await dismissDialogs(page);
      assert.equal(await passkeyRows(page).count(), 5);
      // The demo shows the setting that decides this.
      await securityCard(page).getByText("shouldUnlinkOnUnenrollMfa: on").waitFor();
      await securityCard(page).getByRole("button", { name: "Manage 2-step verification" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("button", { name: "Remove Passkey" }).click();
      await dialog.getByRole("heading", { name: "Remove Passkey?" }).waitFor();
      // Passkeys are this user's only way in: the server keeps one, and the warning says so.
      await dialog.getByText(/deletes all but one of these passkeys/).waitFor();
      const named = dialog
        .getByRole("list", { name: "Passkeys removed from your login methods" })
        .getByRole("listitem");
      assert.equal(await named.count(), 5);
      const confirm = dialog.getByRole("button", { name: "Remove", exact: true });
      assert.match((await confirm.getAttribute("class")) ?? "", /symbolon-destructive/);
      await confirm.click();
      // Removing a factor needs a verification: the passkey prompt is answered by the authenticator.
      await dialog.getByRole("heading", { name: "Choose a verification method" }).waitFor();
      await dialog.getByRole("status").filter({ hasText: "Passkey removed" }).waitFor();
      await closeDialog(page);
      await page.waitForFunction(
        () => document.querySelectorAll('[aria-label="Passkeys"] li').length === 1,
        undefined,
        { timeout: 10_000 },
      );
    },
  );
});

describe("authenticator app", () => {
  const step = sharedBrowser();
  let app;
  let address;

  /** Clicks Export private key and returns once the verification screen asks for a code. */
  async function askToExport(page) {
    await dismissDialogs(page);
    await page.getByRole("button", { name: "Export private key" }).click();
    await expectMfaPrompt(page);
  }

  step("an email user enrols an authenticator app with the setup key on the screen", async ({ page }) => {
    await logIn(page, stack, uniqueEmail("totp"));
    address = await shownAddress(page);
    app = await enrollAuthenticatorApp(page);
    await securityCard(page).getByRole("button", { name: "Manage 2-step verification" }).waitFor();
  });

  step(
    "export asks for the code: a wrong one is not valid, the right one shows the key",
    async ({ page }) => {
      await askToExport(page);
      await typeCode(page, await app.wrongCode());
      await expectMfaMessage(page, CODE_NOT_VALID);
      await typeCode(page, await app.nextCode());
      assert.match(await revealExportedKey(page), /^0x[0-9a-f]{64}$/i);
    },
  );

  step("with transaction protection on, a send asks for the code and then goes through", async ({ page }) => {
    await dismissDialogs(page);
    await page.getByRole("button", { name: "Get test STT" }).click();
    await waitForBalance(page, (b) => b >= 1);
    await page.getByLabel("Recipient").fill(RECIPIENT);
    await page.getByLabel("Amount (STT)").fill("0.01");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    const confirm = page.getByRole("dialog", { name: "Send transaction" });
    await confirm.getByRole("button", { name: "Send", exact: true }).click();
    await expectMfaPrompt(page);
    await typeCode(page, await app.nextCode());
    const hash = await readHex(page, "tx-hash", 30_000);
    const receipt = await chainClient(stack).waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, "success");
    assert.equal(receipt.from.toLowerCase(), address.toLowerCase());
  });

  step(
    "a second send right after needs no new code: one verification covers a short run of signatures",
    async ({ page }) => {
      await dismissDialogs(page);
      const before = await readHex(page, "tx-hash", 5_000);
      const verifications = [];
      page.on("request", (r) => {
        if (new URL(r.url()).pathname === "/api/v1/mfa/verify") verifications.push(r.url());
      });
      await page.getByLabel("Recipient").fill(RECIPIENT);
      await page.getByLabel("Amount (STT)").fill("0.02");
      await page.getByRole("button", { name: "Send", exact: true }).click();
      const confirm = page.getByRole("dialog", { name: "Send transaction" });
      await confirm.getByRole("button", { name: "Send", exact: true }).click();
      await page.waitForFunction(
        (old) => {
          const shown = document.querySelector('[data-testid="tx-hash"]')?.textContent ?? "";
          return /0x[0-9a-f]{64}/i.test(shown) && !shown.includes(old);
        },
        before,
        { timeout: 30_000 },
      );
      const hash = await readHex(page, "tx-hash", 5_000);
      const receipt = await chainClient(stack).waitForTransactionReceipt({ hash });
      assert.equal(receipt.status, "success");
      assert.deepEqual(verifications, [], "no second verification");
    },
  );

  step("four wrong codes end with the max-attempts message, and no key is shown", async ({ page }) => {
    await askToExport(page);
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      await typeCode(page, await app.wrongCode());
      await expectMfaMessage(page, CODE_NOT_VALID);
    }
    await typeCode(page, await app.wrongCode());
    await expectMfaMessage(page, MAX_ATTEMPTS);
    assert.equal(await page.getByLabel("Digit 1").count(), 0, "no more codes taken");
    await closeDialog(page);
    assert.equal(await page.frameLocator('iframe[title="Export wallet"]').getByRole("textbox").count(), 0);
  });
});
