import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import { ClientError } from "../errors/ClientError.ts";
import { analyticsId } from "../http/apiRequest.ts";
import { createsWalletsOnLogin } from "./embeddedWallets.ts";
import { browserFrameHost, type FrameHost } from "./FrameHost.ts";
import { createFrameConnection, FRAME_NOT_READY_MESSAGE, type FrameConnection } from "./frameConnection.ts";

/**
 * The wallet frame page (`subpath` "/export": the export page beside it): `walletFrameUrl` with
 * `params` added to its query.
 */
export function walletFrameUrl(client: Client, params: Record<string, string>, subpath = ""): string {
  const { apiUrl, appId, walletFrameUrl: configured } = client.options;
  const base =
    configured ?? `${apiUrl.replace(/\/+$/, "")}/apps/${encodeURIComponent(appId)}/embedded-wallets`;
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}${subpath}`;
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

/** The host that mounts frames: the browser, unless a test stood in its own. */
export function frameHost(client: Client): FrameHost {
  return internals(client).frameHost ?? browserFrameHost;
}

/** Whether this environment can mount the wallet frame (a browser, or a test's fake host). */
export function canUseWalletFrame(client: Client): boolean {
  return internals(client).frameHost !== null || typeof window !== "undefined";
}

/**
 * The client's one hidden wallet frame (`?caid=…&client_id=…`), created on first use so nothing
 * touches the DOM before a wallet is needed (SSR-safe). `client.destroy()` removes it.
 */
export function walletFrame(client: Client): FrameConnection {
  const own = internals(client);
  if (own.destroyed || !canUseWalletFrame(client)) {
    throw new ClientError("embedded_wallet_request_error", FRAME_NOT_READY_MESSAGE);
  }
  if (own.walletFrame === null) {
    const { clientId } = client.options;
    own.walletFrame = createFrameConnection({
      host: frameHost(client),
      src: walletFrameUrl(client, {
        caid: analyticsId(client),
        ...(clientId ? { client_id: clientId } : {}),
      }),
      title: "Symbolon wallet",
      visible: false,
    });
  }
  return own.walletFrame;
}

/**
 * Loads the wallet frame ahead of need when the app creates wallets on login, so the wallet made
 * right after login does not also wait for the frame page and its wasm to download and compile.
 * A frame that fails to load is logged by the connection and retried on first use.
 */
export function preloadWalletFrame(client: Client): void {
  if (!createsWalletsOnLogin(client) || typeof window === "undefined" || internals(client).destroyed) return;
  walletFrame(client)
    .ready()
    .catch(() => {});
}
