// The published client passes its modal's colours in the export page's query (`accent`,
// `foregroundAccent`, `background`, `colorScheme`, …, read from its CSS variables), so the one
// button it frames looks like its own. Only plain colour values are taken: anything else in
// the query is ignored, never written into the page.

/** `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, or `rgb()`/`rgba()`/`hsl()`/`hsla()` of numbers. */
const COLOUR = /^(#[0-9a-f]{3,4}|#[0-9a-f]{6}|#[0-9a-f]{8}|(rgb|rgba|hsl|hsla)\([0-9.,%\s/]+\))$/i;

/** Query name → the page's CSS variable (style.css). */
const VARIABLES: Readonly<Record<string, string>> = {
  accent: "--accent",
  foregroundAccent: "--accent-fg",
  background: "--bg",
};

/** A colour the page may use, or null. */
export function plainColour(value: string | null): string | null {
  const trimmed = value?.trim() ?? "";
  return COLOUR.test(trimmed) ? trimmed : null;
}

/** Applies the host's colours and colour scheme from `params` to `root` (the page's `<html>`). */
export function applyHostTheme(params: URLSearchParams, root: HTMLElement): void {
  for (const [name, variable] of Object.entries(VARIABLES)) {
    const colour = plainColour(params.get(name));
    if (colour !== null) root.style.setProperty(variable, colour);
  }
  const scheme = params.get("colorScheme")?.trim();
  if (scheme === "light" || scheme === "dark") root.style.colorScheme = scheme;
}
