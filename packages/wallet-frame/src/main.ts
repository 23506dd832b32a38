// Boot: load the wasm, pick the mode (hidden wallet frame or visible export page), listen.
import wasmUrl from "../../../crates/wallet-core/pkg/symbolon_wallet_core_bg.wasm?url";
import { createApi, createPost } from "./api.ts";
import { indexedDbDeviceKeys } from "./deviceKeys.ts";
import { createDeviceStore } from "./deviceStore.ts";
import { exportHandlers } from "./export/exportHandlers.ts";
import { createExportView } from "./export/exportView.ts";
import { walletHandlers } from "./handlers.ts";
import { createMessageListener } from "./messages.ts";
import { createMfaTokens } from "./mfa/mfaTokens.ts";
import { readAllowedOrigins } from "./origins.ts";
import { initWalletCore } from "./walletCore.ts";
import { WalletService } from "./wallets.ts";

const params = new URLSearchParams(location.search);
const appId = /^\/apps\/([^/]+)\/embedded-wallets\/?$/.exec(location.pathname)?.[1] ?? null;
const apiOptions = { appId: appId && decodeURIComponent(appId), clientId: params.get("client_id") };
const api = createApi(apiOptions);
// Shared by the hidden frame (verify keeps it) and the export page (export spends it).
const mfaTokens = createMfaTokens(() => window.sessionStorage);
const wallets = new WalletService({
  api,
  store: createDeviceStore(() => window.localStorage),
  keys: indexedDbDeviceKeys(() => window.indexedDB),
  mfaTokens,
});

const ready = initWalletCore({ module_or_path: wasmUrl }).then(() => undefined);
ready.catch((error: unknown) => console.error("wallet frame: the wasm wallet failed to load", error));

const address = params.get("address");
const handlers =
  params.get("mode") === "export"
    ? exportHandlers(wallets, address, createExportView(document, address))
    : walletHandlers(wallets, {
        post: createPost(apiOptions),
        tokens: mfaTokens,
        appId: api.appId,
      });

const listen = createMessageListener({ allowedOrigins: readAllowedOrigins(document), handlers, ready });
window.addEventListener("message", (event) =>
  listen({ origin: event.origin, data: event.data, source: event.source as Window | null }),
);
