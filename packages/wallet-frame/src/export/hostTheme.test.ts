// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { applyHostTheme, plainColour } from "./hostTheme.ts";

describe("the host's colours on the export page", () => {
  it("takes plain colours only", () => {
    for (const colour of [
      "#fff",
      "#5b4fff",
      " #5B4FFF ",
      "#5b4fff80",
      "rgb(91, 79, 255)",
      "hsl(245 100% 65%)",
    ]) {
      expect(plainColour(colour)).toBe(colour.trim());
    }
    for (const value of [
      null,
      "",
      "red; background: url(https://evil.example/x)",
      "url(https://evil.example/x)",
      "var(--x)",
      "#12345",
      "expression(alert(1))",
      "rgb(1,2,3)) ; color: red",
    ]) {
      expect(plainColour(value)).toBeNull();
    }
  });

  it("sets the page's accent, text-on-accent, background and scheme, and ignores the rest", () => {
    const root = document.documentElement;
    applyHostTheme(
      new URLSearchParams({
        accent: "#5b4fff",
        foregroundAccent: " #ffffff",
        background: "url(https://evil.example/x)",
        colorScheme: "dark",
        success: "#0f0",
      }),
      root,
    );
    expect(root.style.getPropertyValue("--accent")).toBe("#5b4fff");
    expect(root.style.getPropertyValue("--accent-fg")).toBe("#ffffff");
    expect(root.style.getPropertyValue("--bg")).toBe("");
    expect(root.style.colorScheme).toBe("dark");
    applyHostTheme(new URLSearchParams({ colorScheme: "sepia" }), root);
    expect(root.style.colorScheme).toBe("dark");
  });
});
