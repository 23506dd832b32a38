// @vitest-environment jsdom
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createExportView } from "./exportView.ts";

const ADDRESS = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const KEY = `0x${"ab".repeat(32)}`;
// The real page markup (jsdom's URL is not Node's, so build the path from a string).
const html = readFileSync(join(dirname(fileURLToPath(import.meta.url)), "../../index.html"), "utf8");

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  document.documentElement.innerHTML = new DOMParser().parseFromString(
    html,
    "text/html",
  ).documentElement.innerHTML;
});

describe("export page view", () => {
  it("is hidden until export mode binds it, then shows heading, warning and address", () => {
    expect(byId("export").hidden).toBe(true);
    createExportView(document, ADDRESS);
    expect(byId("export").hidden).toBe(false);
    expect(byId("export-title").textContent).toBe("Export wallet");
    expect(document.querySelector("[role=note]")?.textContent).toMatch(/private key gives full control/);
    expect(byId("export-address").textContent).toBe(ADDRESS);
  });

  it("reveals the key only after the wallet is ready and the button is pressed", () => {
    const view = createExportView(document, ADDRESS);
    const reveal = byId<HTMLButtonElement>("export-reveal");
    expect(reveal.textContent).toBe("Reveal private key");
    expect(reveal.disabled).toBe(true);
    const read = vi.fn(() => KEY);
    view.enableReveal(read);
    expect(reveal.disabled).toBe(false);
    expect(byId("export-key").hidden).toBe(true);
    expect(read).not.toHaveBeenCalled();

    reveal.click();
    expect(byId("export-key").hidden).toBe(false);
    const field = byId<HTMLTextAreaElement>("export-key-field");
    expect(field.value).toBe(KEY);
    expect(field.readOnly).toBe(true);
    expect(document.querySelector("label[for=export-key-field]")?.textContent).toBe("Private key");
    expect(byId("export-status").textContent).toBe("Your private key is shown below.");
    expect(reveal.hidden).toBe(true);
    expect(document.activeElement).toBe(field);
  });

  it("copies the key to the clipboard and says so", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    const view = createExportView(document, ADDRESS);
    view.enableReveal(() => KEY);
    byId("export-reveal").click();
    byId<HTMLButtonElement>("export-copy").click();
    await flush();
    expect(writeText).toHaveBeenCalledWith(KEY);
    expect(byId("export-status").textContent).toBe("Copied to the clipboard.");
  });

  it("tells the user when copying fails", async () => {
    const writeText = vi.fn(() => Promise.reject(new Error("denied")));
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    const view = createExportView(document, ADDRESS);
    view.enableReveal(() => KEY);
    byId("export-reveal").click();
    byId<HTMLButtonElement>("export-copy").click();
    await flush();
    expect(byId("export-status").textContent).toBe("Copying failed: select the key and copy it yourself.");
  });

  it("shows errors and a key read failure in the status line", () => {
    const view = createExportView(document, ADDRESS);
    view.showError("Linked account not found");
    expect(byId("export-status").textContent).toBe("Linked account not found");
    view.enableReveal(() => {
      throw new Error("gone");
    });
    byId("export-reveal").click();
    expect(byId("export-key").hidden).toBe(true);
    expect(byId("export-status").textContent).toBe(
      "The key could not be read. Close this window and try again.",
    );
  });
});
