import type { ThemePreference } from "@symbolon/react";
import { useEffect, useState } from "react";
import { applyTheme } from "./applyTheme";
import { readThemePreference, writeThemePreference } from "./themePreference";

/** The theme preference, remembered and applied to `<html>`; `system` follows the OS live. */
export function useTheme(): [ThemePreference, (preference: ThemePreference) => void] {
  const [preference, setPreference] = useState(readThemePreference);

  useEffect(() => {
    applyTheme(preference);
    if (preference !== "system" || typeof window.matchMedia !== "function") return;
    const query = window.matchMedia("(prefers-color-scheme: dark)");
    const follow = () => applyTheme("system");
    query.addEventListener("change", follow);
    return () => query.removeEventListener("change", follow);
  }, [preference]);

  const choose = (next: ThemePreference) => {
    writeThemePreference(next);
    setPreference(next);
  };
  return [preference, choose];
}
