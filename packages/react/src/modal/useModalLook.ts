import { MOBILE_BREAKPOINT_PX } from "@symbolon/core";
import { useInsertionEffect } from "react";
import type { PrivyConfig } from "../provider/PrivyConfig";
import { injectStyles } from "./injectStyles";
import { useMediaQuery } from "./useMediaQuery";

/** How every modal screen looks: its layout, resolved theme and accent colour. */
export interface ModalLook {
  layout: "dialog" | "sheet";
  theme: "light" | "dark";
  accentColor: string | undefined;
}

/** Injects the modal's styles and resolves the look from the config and the viewport (spec §2, §9). */
export function useModalLook(config: PrivyConfig | undefined): ModalLook {
  const sheet = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`);
  const prefersDark = useMediaQuery("(prefers-color-scheme: dark)");
  useInsertionEffect(() => injectStyles(), []);
  const appearance = config?.appearance ?? {};
  const preference = appearance.theme ?? "light";
  return {
    layout: sheet ? "sheet" : "dialog",
    theme: preference === "system" ? (prefersDark ? "dark" : "light") : preference,
    accentColor: appearance.accentColor,
  };
}
