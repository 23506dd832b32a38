// Sending the whole balance as a person tries it: the confirmation counts the network fee and says
// what is missing instead of letting the chain refuse it; Cancel returns to the form without an
// error; Max leaves the fee and that send goes through; the form clears. Typed data is shown as
// rows. Screens are saved in light and dark with an axe scan of each.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { parseEther } from "viem";
import { sharedBrowser } from "../lib/browser.mjs";
import { logIn, uniqueEmail } from "../lib/flows.mjs";
import { saveScreen } from "../lib/screens.mjs";
import { useStack } from "../lib/stack.mjs";
import { chainClient, RECIPIENT, readHex, shownAddress, waitForBalance } from "../lib/wallet.mjs";

const stack = useStack();
const step = sharedBrowser();
const email = uniqueEmail("send");
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
let address;

/** Serious and critical axe violations inside the open dialog. */
async function dialogViolations(page) {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async () => {
    const result = await /** @type {any} */ (window).axe.run('[role="dialog"]', {
      resultTypes: ["violations"],
    });
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
  return found;
}

const theme = (page, name) =>
  page.getByRole("radiogroup", { name: "Theme" }).getByRole("radio", { name }).check();

/** Fills the send form and opens the confirmation; returns the dialog. */
async function askToSend(page, amount) {
  await page.getByLabel("Recipient").fill(RECIPIENT);
  await page.getByLabel("Amount (STT)").fill(amount);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Send transaction" });
  await dialog.waitFor({ state: "visible" });
  return dialog;
}

step("a new user is funded with 1 STT", async ({ page }) => {
  await logIn(page, stack, email);
  address = await shownAddress(page);
  await page.getByRole("button", { name: "Get test STT" }).click();
  await waitForBalance(page, (b) => b >= 1);
});

step("sending the whole balance says the network fee does not fit, with Send disabled", async ({ page }) => {
  for (const name of ["Dark", "Light"]) {
    await theme(page, name);
    const dialog = await askToSend(page, "1");
    const alert = dialog.getByRole("alert");
    await alert.waitFor({ state: "visible" });
    assert.match(
      (await alert.textContent())?.trim() ?? "",
      /^Not enough STT to cover the network fee\. You need 0\.\d+ STT more\.$/,
    );
    assert.equal(await dialog.getByRole("button", { name: "Send", exact: true }).isDisabled(), true);
    await saveScreen(page, `confirm-send-short-${name.toLowerCase()}`);
    assert.deepEqual(await dialogViolations(page), []);
    // Cancel is not an error: back to the form, nothing red, what was typed is still there.
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    assert.equal(await page.getByRole("alert").count(), 0);
    assert.equal(await page.getByLabel("Amount (STT)").inputValue(), "1");
    // Focus is back on the control that opened the confirmation.
    await page.waitForFunction(() => document.activeElement?.textContent === "Send");
  }
  assert.equal(await chainClient(stack).getBalance({ address }), parseEther("1"), "nothing was sent");
});

step("Max leaves the fee; that send goes through and the form clears", async ({ page }) => {
  await page.getByLabel("Recipient").fill(RECIPIENT);
  await page.getByRole("button", { name: "Max" }).click();
  const amountField = page.getByLabel("Amount (STT)");
  await page.waitForFunction(() => {
    const field = /** @type {HTMLInputElement | null} */ (
      document.querySelector('input[inputmode="decimal"]')
    );
    return field !== null && /^0\.9\d+$/.test(field.value);
  });
  const amount = await amountField.inputValue();
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Send transaction" });
  await dialog.waitFor({ state: "visible" });
  assert.equal(await dialog.getByRole("alert").count(), 0, "the fee fits");
  await dialog.getByRole("button", { name: "Send", exact: true }).click();
  await dialog.waitFor({ state: "hidden" });
  const hash = await readHex(page, "tx-hash");
  assert.match(hash, /^0x[0-9a-f]{64}$/);
  await page.getByText(/^Confirmed in block \d+$/).waitFor();
  const receipt = await chainClient(stack).getTransactionReceipt({ hash });
  assert.equal(receipt.status, "success");
  const tx = await chainClient(stack).getTransaction({ hash });
  assert.equal(tx.value, parseEther(amount));
  assert.equal(await page.getByLabel("Recipient").inputValue(), "");
  assert.equal(await amountField.inputValue(), "");
  assert.equal(await page.getByRole("button", { name: "Copy transaction hash" }).count(), 1);
});

step(
  "typed data is shown as labelled rows with the JSON behind Details; Cancel is quiet",
  async ({ page }) => {
    for (const name of ["Dark", "Light"]) {
      await theme(page, name);
      await page.getByRole("button", { name: "Sign typed data" }).click();
      const dialog = page.getByRole("dialog", { name: "Sign typed data" });
      await dialog.waitFor({ state: "visible" });
      const json = JSON.parse((await dialog.getByTestId("confirm-typed-data").textContent()) ?? "");
      assert.equal(
        await dialog.getByTestId("confirm-typed-data").isVisible(),
        false,
        "the JSON is folded away",
      );
      const row = (label) =>
        dialog
          .locator("dt", { hasText: new RegExp(`^${label}$`) })
          .first()
          .locator("+ dd");
      assert.equal((await row("App").textContent())?.trim(), String(json.domain.name));
      assert.equal((await row("Type").textContent())?.trim(), json.primaryType);
      await saveScreen(page, `typed-data-${name.toLowerCase()}`);
      assert.deepEqual(await dialogViolations(page), []);
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "hidden" });
      assert.equal(await page.getByRole("alert").count(), 0, "a cancel shows no error");
      await page.waitForFunction(() => document.activeElement?.textContent === "Sign typed data");
    }
  },
);
