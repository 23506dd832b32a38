import type { ThemePreference } from "@symbolon/react";

/** Class that turns transitions off while the theme changes (see styles.css). */
export const NO_TRANSITIONS_CLASS = "theme-switching";

/** `light` or `dark` for a preference; `system` follows `prefers-color-scheme`. */
export function resolveTheme(preference: ThemePreference, win: Window = window): "light" | "dark" {
  if (preference !== "system") return preference;
  return typeof win.matchMedia === "function" && win.matchMedia("(prefers-color-scheme: dark)").matches
    ? "dark"
    : "light";
}

/**
 * Sets class `light` or `dark` on `<html>`, with transitions disabled for one frame so colours
 * switch at once instead of animating (spec §9).
 */
export function applyTheme(preference: ThemePreference, doc: Document = document): "light" | "dark" {
  const win = doc.defaultView ?? window;
  const theme = resolveTheme(preference, win);
  const root = doc.documentElement;
  root.classList.add(NO_TRANSITIONS_CLASS);
  root.classList.remove(theme === "dark" ? "light" : "dark");
  root.classList.add(theme);
  root.style.colorScheme = theme;
  // Force a style flush so the new colours are computed while transitions are off.
  void win.getComputedStyle(root).color;
  const restore = () => root.classList.remove(NO_TRANSITIONS_CLASS);
  win.requestAnimationFrame(restore);
  // Hidden tabs get no animation frames; do not leave transitions off for good.
  win.setTimeout(restore, 100);
  return theme;
}
