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
  it("is hidden until export mode binds it, then shows heading and warning, and the address once unlocked", () => {
    expect(byId("export").hidden).toBe(true);
    const view = createExportView(document);
    expect(byId("export").hidden).toBe(false);
    expect(byId("export").classList.contains("export-compact")).toBe(false);
    expect(byId("export-title").textContent).toBe("Export wallet");
    expect(document.querySelector("[role=note]")?.textContent).toMatch(/private key gives full control/);
    expect(byId("export-address").textContent).toBe("");
    view.enableReveal(() => KEY, ADDRESS);
    expect(byId("export-address").textContent).toBe(ADDRESS);
  });

  it("reveals the key only after the wallet is ready and the button is pressed", () => {
    const view = createExportView(document);
    const reveal = byId<HTMLButtonElement>("export-reveal");
    expect(reveal.textContent).toBe("Reveal private key");
    expect(reveal.disabled).toBe(true);
    const read = vi.fn(() => KEY);
    view.enableReveal(read, ADDRESS);
    expect(byId("export-status").textContent).toBe("Ready. Make sure nobody can see your screen.");
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
    const view = createExportView(document);
    view.enableReveal(() => KEY, ADDRESS);
    byId("export-reveal").click();
    byId<HTMLButtonElement>("export-copy").click();
    await flush();
    expect(writeText).toHaveBeenCalledWith(KEY);
    expect(byId("export-status").textContent).toBe("Copied to the clipboard.");
  });

  it("tells the user when copying fails", async () => {
    const writeText = vi.fn(() => Promise.reject(new Error("denied")));
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    const view = createExportView(document);
    view.enableReveal(() => KEY, ADDRESS);
    byId("export-reveal").click();
    byId<HTMLButtonElement>("export-copy").click();
    await flush();
    expect(byId("export-status").textContent).toBe("Copying failed: select the key and copy it yourself.");
  });

  it("shows errors and a key read failure in the status line", () => {
    const view = createExportView(document);
    view.showError("Linked account not found");
    expect(byId("export-status").textContent).toBe("Linked account not found");
    // The full page keeps its button as it is.
    expect(byId("export-reveal").textContent).toBe("Reveal private key");
    view.enableReveal(() => {
      throw new Error("gone");
    }, ADDRESS);
    byId("export-reveal").click();
    expect(byId("export-key").hidden).toBe(true);
    expect(byId("export-status").textContent).toBe(
      "The key could not be read. Close this window and try again.",
    );
  });
});

describe("compact export view (?v=1, the published client's dialog)", () => {
  it("is one button that copies the key to the clipboard, never showing it on the page", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    const view = createExportView(document, { compact: true });
    const reveal = byId<HTMLButtonElement>("export-reveal");
    expect(byId("export").hidden).toBe(false);
    expect(byId("export").classList.contains("export-compact")).toBe(true);
    expect(reveal.textContent).toBe("Copy private key");
    expect(reveal.disabled).toBe(true);
    // Pressed before the wallet is unlocked: nothing is read or copied.
    reveal.click();
    await flush();
    expect(writeText).not.toHaveBeenCalled();

    const read = vi.fn(() => KEY);
    view.enableReveal(read, ADDRESS);
    expect(reveal.disabled).toBe(false);
    expect(byId("export-address").textContent).toBe(ADDRESS);
    expect(read).not.toHaveBeenCalled();
    reveal.click();
    await flush();
    expect(writeText).toHaveBeenCalledWith(KEY);
    expect(reveal.textContent).toBe("Copied");
    expect(byId("export-status").textContent).toBe("Your private key was copied to the clipboard.");
    // The key never reaches the page.
    expect(byId("export-key").hidden).toBe(true);
    expect(byId<HTMLTextAreaElement>("export-key-field").value).toBe("");
    expect(document.documentElement.innerHTML).not.toContain(KEY.slice(2));
  });

  it("says when copying fails or the key cannot be read", async () => {
    const writeText = vi.fn(() => Promise.reject(new Error("denied")));
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    const view = createExportView(document, { compact: true });
    const reveal = byId<HTMLButtonElement>("export-reveal");
    view.enableReveal(() => KEY, ADDRESS);
    reveal.click();
    await flush();
    expect(reveal.textContent).toBe("Copying failed");
    expect(byId("export-status").textContent).toBe(
      "Copying failed: the browser did not allow the clipboard.",
    );

    writeText.mockClear();
    view.enableReveal(() => {
      throw new Error("gone");
    }, ADDRESS);
    reveal.click();
    await flush();
    expect(writeText).not.toHaveBeenCalled();
    expect(byId("export-status").textContent).toBe(
      "The key could not be read. Close this window and try again.",
    );
  });

  it("shows an error on the button: Export unavailable, the message as its title", () => {
    const view = createExportView(document, { compact: true });
    view.showError("Linked account not found");
    const reveal = byId<HTMLButtonElement>("export-reveal");
    expect(reveal.textContent).toBe("Export unavailable");
    expect(reveal.title).toBe("Linked account not found");
    expect(reveal.disabled).toBe(true);
    expect(byId("export-status").textContent).toBe("Linked account not found");
  });
});
