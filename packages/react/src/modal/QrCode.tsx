import qrcode from "qrcode-generator";
import { useMemo } from "react";

/** Props of {@link QrCode}. */
export interface QrCodeProps {
  /** What the code encodes (a URL). */
  value: string;
  /** Its accessible name. */
  label: string;
  /** Rendered size in CSS pixels. */
  size?: number;
}

/**
 * A QR code as an SVG of its dark modules (qrcode-generator computes the matrix; no HTML strings),
 * with the 4-module quiet zone the standard asks for. Loaded only with the screens that show one.
 */
export function QrCode({ value, label, size = 200 }: QrCodeProps) {
  const { count, path } = useMemo(() => {
    const qr = qrcode(0, "M");
    qr.addData(value);
    qr.make();
    const modules = qr.getModuleCount();
    let d = "";
    for (let row = 0; row < modules; row++)
      for (let col = 0; col < modules; col++) if (qr.isDark(row, col)) d += `M${col + 4} ${row + 4}h1v1h-1z`;
    return { count: modules + 8, path: d };
  }, [value]);
  return (
    <svg
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${count} ${count}`}
      shapeRendering="crispEdges"
      data-value={value}
    >
      <rect width={count} height={count} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
