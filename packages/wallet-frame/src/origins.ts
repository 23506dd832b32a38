// The server writes the app's allowed origins into the page; only they may talk to the frame.

export const ALLOWED_ORIGINS_META = "symbolon-allowed-origins";

/** The origins listed in `<meta name="symbolon-allowed-origins" content="a b">` (none if absent). */
export function readAllowedOrigins(doc: Pick<Document, "querySelector">): ReadonlySet<string> {
  const content = doc.querySelector(`meta[name="${ALLOWED_ORIGINS_META}"]`)?.getAttribute("content") ?? "";
  return new Set(content.split(/\s+/).filter((origin) => origin !== ""));
}
