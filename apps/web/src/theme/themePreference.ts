import type { ThemePreference } from "@symbolon/react";

/** localStorage key of the chosen theme. */
export const THEME_STORAGE_KEY = "symbolon:theme";
const PREFERENCES: readonly ThemePreference[] = ["light", "dark", "system"];

/** The stored preference; `system` when none, invalid, or storage is unavailable. */
export function readThemePreference(storage: Storage | undefined = globalThis.localStorage): ThemePreference {
  try {
    const stored = storage?.getItem(THEME_STORAGE_KEY);
    return PREFERENCES.find((preference) => preference === stored) ?? "system";
  } catch {
    return "system";
  }
}

/** Remembers the preference; a storage failure only loses the memory, not the switch. */
export function writeThemePreference(
  preference: ThemePreference,
  storage: Storage | undefined = globalThis.localStorage,
): void {
  try {
    storage?.setItem(THEME_STORAGE_KEY, preference);
  } catch {
    // Private mode or a full quota: the theme still applies for this visit.
  }
}
