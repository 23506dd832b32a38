/**
 * White or near-black, whichever has the higher WCAG contrast on `color` (a #rgb or #rrggbb hex);
 * undefined for other CSS colours (the theme's accent text then stays).
 */
export function readableTextOn(color: string): "#ffffff" | "#0f1115" | undefined {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim())?.[1];
  if (!hex) return undefined;
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex;
  const channel = (i: number) => {
    const value = Number.parseInt(full.slice(i, i + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
  const dark = 0.0054; // relative luminance of #0f1115
  const onWhite = 1.05 / (luminance + 0.05);
  const onDark = (luminance + 0.05) / (dark + 0.05);
  return onWhite >= onDark ? "#ffffff" : "#0f1115";
}
