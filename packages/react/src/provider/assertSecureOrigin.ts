import { isSecurePage } from "@symbolon/core";

/** The error thrown when the page is served over plain HTTP away from localhost. */
export const INSECURE_ORIGIN_MESSAGE =
  "PrivyProvider must run on an https page (or localhost, or a browser extension); this page is served over";

/** Throws unless the page is https, a browser extension, or on localhost (spec §5). */
export function assertSecureOrigin(location: { protocol: string; hostname: string }): void {
  if (!isSecurePage(location))
    throw new Error(`${INSECURE_ORIGIN_MESSAGE} ${location.protocol}//${location.hostname}.`);
}
