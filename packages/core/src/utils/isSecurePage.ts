const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);
const EXTENSION_PROTOCOLS = new Set([
  "chrome-extension:",
  "moz-extension:",
  "safari-web-extension:",
  "ms-browser-extension:",
]);

/** Spec §5: outside localhost the page must be https, or a browser extension's page. */
export function isSecurePage({ protocol, hostname }: { protocol: string; hostname: string }): boolean {
  if (protocol === "https:" || EXTENSION_PROTOCOLS.has(protocol)) return true;
  return LOCAL_HOSTS.has(hostname) || hostname.endsWith(".localhost");
}
