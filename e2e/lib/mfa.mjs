// 2-step verification as a person meets it (issue 12): the Security card's enrolment in the modal, an
// authenticator app played by the test (the setup key read off the screen, codes from `otpauth`), and the
// verification screen a wallet operation opens. Screen texts follow packages/react/src/modal/ (docs/screens.md).
import assert from "node:assert/strict";
import { Secret, TOTP } from "otpauth";
import { securityCard } from "./passkeys.mjs";

const PERIOD_S = 30;

/** Spec §8: what the verification screen says. */
export const CODE_NOT_VALID = "The code you entered is not valid";
export const MAX_ATTEMPTS =
  "You have exceeded the maximum number of attempts. Please close this window and try again in 10 seconds.";

/**
 * An authenticator app holding `setupKey` (base32). The server takes each 30 s step once (±1 step of clock skew), so
 * `nextCode()` never hands out a step twice: the current one, else the next (still inside the skew), else it waits
 * for the clock to catch up.
 */
export function authenticatorApp(setupKey) {
  const totp = new TOTP({
    secret: Secret.fromBase32(setupKey.replace(/\s+/g, "")),
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD_S,
  });
  let lastStep = -1;
  const stepNow = () => Math.floor(Date.now() / 1000 / PERIOD_S);
  return {
    async nextCode() {
      let step = Math.max(stepNow(), lastStep + 1);
      while (step > stepNow() + 1) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        step = Math.max(stepNow(), lastStep + 1);
      }
      lastStep = step;
      return totp.generate({ timestamp: step * PERIOD_S * 1000 });
    },
    /** A code no step of the window gives (the right one with its digits shifted). */
    async wrongCode() {
      const now = stepNow();
      const valid = new Set([-1, 0, 1].map((d) => totp.generate({ timestamp: (now + d) * PERIOD_S * 1000 })));
      for (let n = 0; ; n += 1) {
        const candidate = String((Number(totp.generate()) + 111_111 * (n + 1)) % 1_000_000).padStart(6, "0");
        if (!valid.has(candidate)) return candidate;
      }
    },
  };
}

/** Types a 6-digit code into the open dialog's code boxes (focus moves on by itself). */
export async function typeCode(page, code) {
  const first = page.getByRole("dialog").getByLabel("Digit 1").locator("visible=true");
  await first.waitFor({ state: "visible" });
  await page.waitForFunction(() => {
    const boxes = [...document.querySelectorAll('[role="dialog"] input[aria-label^="Digit "]')].filter((b) =>
      b.checkVisibility(),
    );
    return boxes.length === 6 && boxes.every((b) => b.value === "" && !b.readOnly && !b.disabled);
  });
  await first.click();
  await page.keyboard.type(code);
}

/**
 * From the Security card: "Set up 2-step verification", the intro (the transaction-protection one: Continue),
 * "Set up Authenticator app", the setup key read off the screen, Continue, then a code from it. Returns the app.
 */
export async function enrollAuthenticatorApp(page) {
  const dialog = await openEnrollment(page);
  await dialog.getByRole("button", { name: "Set up Authenticator app" }).click();
  await dialog.getByRole("img", { name: "Authenticator app QR code" }).waitFor();
  const setupKey = ((await dialog.getByTestId("totp-setup-key").textContent()) ?? "").trim();
  assert.match(setupKey.replace(/\s+/g, ""), /^[A-Z2-7]{16,}=*$/, `setup key "${setupKey}"`);
  const app = authenticatorApp(setupKey);
  const enrolled = page.waitForResponse(
    (r) => new URL(r.url()).pathname === "/api/v1/mfa/totp/enroll" && r.request().method() === "POST",
  );
  await dialog.getByRole("button", { name: "Continue", exact: true }).click();
  await typeCode(page, await app.nextCode());
  assert.equal((await enrolled).status(), 200);
  await dialog.getByRole("heading", { name: "Authenticator app is on" }).waitFor();
  await closeDialog(page);
  await securityCard(page)
    .getByRole("list", { name: "Second factors" })
    .getByText("Authenticator app")
    .waitFor();
  return app;
}

/**
 * "Set up 2-step verification" on the Security card, past the intro (the demo app's is the transaction-protection
 * one: Continue / Not now) to the choice of methods; returns the dialog.
 */
export async function openEnrollment(page) {
  await securityCard(page).getByRole("button", { name: "Set up 2-step verification" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("heading", { name: "Protect your transactions" }).waitFor();
  await dialog.getByRole("button", { name: "Not now" }).waitFor();
  await dialog.getByRole("button", { name: "Continue", exact: true }).click();
  await dialog.getByRole("heading", { name: "Choose a verification method" }).waitFor();
  return dialog;
}

/** The dialog while it shows the verification screen (over the export or signing flow, or alone). */
export function mfaDialog(page) {
  return page
    .getByRole("dialog")
    .filter({ has: page.getByRole("heading", { name: "Verify your identity" }) });
}

/** Waits for the verification screen a wallet operation opened, asking for a code. */
export async function expectMfaPrompt(page, timeout = 20_000) {
  await mfaDialog(page).getByLabel("Digit 1").waitFor({ timeout });
}

/** Waits until the verification screen says `text` in an alert. */
export async function expectMfaMessage(page, text, timeout = 15_000) {
  await mfaDialog(page).getByRole("alert").filter({ hasText: text }).waitFor({ timeout });
}

/** Closes the open dialog with its Done or Close button and waits until it is gone. */
export async function closeDialog(page) {
  const dialog = page.getByRole("dialog");
  await dialog
    .getByRole("button", { name: /^(Done|Close)$/ })
    .last()
    .click();
  await dialog.waitFor({ state: "hidden" });
}

/** Closes whatever dialog an earlier, failed step left open (Escape), so the next step starts from the page. */
export async function dismissDialogs(page) {
  const dialog = page.getByRole("dialog");
  if ((await dialog.count()) === 0) return;
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
}
