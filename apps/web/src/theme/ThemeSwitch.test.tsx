import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { NO_TRANSITIONS_CLASS } from "./applyTheme";
import { ThemeSwitch } from "./ThemeSwitch";
import { THEME_STORAGE_KEY } from "./themePreference";
import { useTheme } from "./useTheme";

function Harness() {
  const [theme, setTheme] = useTheme();
  return <ThemeSwitch value={theme} onChange={setTheme} />;
}

const html = document.documentElement;
const radio = (name: string) =>
  within(screen.getByRole("radiogroup", { name: "Theme" })).getByRole("radio", { name }) as HTMLInputElement;

function prefersDark(dark: boolean) {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: dark && query === "(prefers-color-scheme: dark)",
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

describe("theme switch", () => {
  it("defaults to System, which follows prefers-color-scheme", () => {
    prefersDark(true);
    render(<Harness />);
    expect(radio("System").checked).toBe(true);
    expect(html.classList.contains("dark")).toBe(true);
    vi.unstubAllGlobals();
  });

  it("applies and remembers Dark and Light as a class on <html>", () => {
    prefersDark(false);
    render(<Harness />);
    fireEvent.click(radio("Dark"));
    expect(html.classList.contains("dark")).toBe(true);
    expect(html.classList.contains("light")).toBe(false);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("dark");
    fireEvent.click(radio("Light"));
    expect(html.className).toContain("light");
    expect(html.classList.contains("dark")).toBe(false);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("light");
    vi.unstubAllGlobals();
  });

  it("restores the remembered theme", () => {
    localStorage.setItem(THEME_STORAGE_KEY, "dark");
    render(<Harness />);
    expect(radio("Dark").checked).toBe(true);
    expect(html.classList.contains("dark")).toBe(true);
  });

  it("disables transitions for one frame while switching", async () => {
    render(<Harness />);
    await act(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    fireEvent.click(radio("Dark"));
    expect(html.classList.contains(NO_TRANSITIONS_CLASS)).toBe(true);
    await act(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(html.classList.contains(NO_TRANSITIONS_CLASS)).toBe(false);
  });
});
