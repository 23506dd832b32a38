const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);
const EXTENSION_PROTOCOLS = new Set([
  "chrome-extension:",
  "moz-extension:",
  "safari-web-extension:",
  "ms-browser-extension:",
]);

/** The error thrown when the page is served over plain HTTP away from localhost. */
export const INSECURE_ORIGIN_MESSAGE =
  "PrivyProvider must run on an https page (or localhost, or a browser extension); this page is served over";

/** Throws unless the page is https, a browser extension, or on localhost (spec §5). */
export function assertSecureOrigin(location: { protocol: string; hostname: string }): void {
  const { protocol, hostname } = location;
  if (protocol === "https:" || EXTENSION_PROTOCOLS.has(protocol)) return;
  if (LOCAL_HOSTS.has(hostname) || hostname.endsWith(".localhost")) return;
  throw new Error(`${INSECURE_ORIGIN_MESSAGE} ${protocol}//${hostname}.`);
}
