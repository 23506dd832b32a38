// Boot: load the wasm, pick the mode (hidden wallet frame or visible export page), listen.
import wasmUrl from "../../../crates/wallet-core/pkg/symbolon_wallet_core_bg.wasm?url";
import { createApi, createGet, createPost } from "./api.ts";
import { indexedDbDeviceKeys, scopedDeviceKeys } from "./deviceKeys.ts";
import { createDeviceStore } from "./deviceStore.ts";
import { createEmbedderGate, embeddingContextOf, storageScope } from "./embedder.ts";
import { type ExportTarget, exportHandlers, exportTargetOf, runExport } from "./export/exportHandlers.ts";
import { createExportView } from "./export/exportView.ts";
import { applyHostTheme } from "./export/hostTheme.ts";
import { walletHandlers } from "./handlers.ts";
import { createMessageListener } from "./messages.ts";
import { createMfaTokens } from "./mfa/mfaTokens.ts";
import { readAllowedOrigins } from "./origins.ts";
import { scopedStorage } from "./scopedStorage.ts";
import { initWalletCore } from "./walletCore.ts";
import { WalletService } from "./wallets.ts";

const params = new URLSearchParams(location.search);
// `/apps/{appId}/embedded-wallets` is the hidden frame, `…/embedded-wallets/export` the export page.
const path = /^\/apps\/([^/]+)\/embedded-wallets(\/export)?\/?$/.exec(location.pathname);
const appId = path?.[1] ?? null;
const exporting = path?.[2] !== undefined;
const apiOptions = { appId: appId && decodeURIComponent(appId), clientId: params.get("client_id") };
const api = createApi(apiOptions);
// Storage opens only once the embedder is verified, and only under its scope (app id + origin).
const allowedOrigins = readAllowedOrigins(document);
const gate = createEmbedderGate(embeddingContextOf(window), allowedOrigins);
const scope = () => storageScope(apiOptions.appId, gate.origin());
// Shared by the hidden frame (verify keeps it) and the export page (export spends it).
const sessionStore = scopedStorage(() => window.sessionStorage, scope);
const mfaTokens = createMfaTokens(() => sessionStore);
const localStore = scopedStorage(() => window.localStorage, scope);
const wallets = new WalletService({
  api,
  // Entries from before the scope move into the first verified scope that reads them.
  store: createDeviceStore(
    () => localStore,
    () => window.localStorage,
  ),
  keys: scopedDeviceKeys(
    indexedDbDeviceKeys(() => window.indexedDB),
    scope,
  ),
  mfaTokens,
});

const ready = initWalletCore({ module_or_path: wasmUrl }).then(() => undefined);
ready.catch((error: unknown) => console.error("wallet frame: the wasm wallet failed to load", error));

/** The export page's wallet and view; an unusable query is said on the page, and nothing runs. */
function exportPage(): { target: ExportTarget | null; view: ReturnType<typeof createExportView> } {
  const compact = params.get("v") === "1";
  // The published client's frame: its modal's colours, so the button looks like its own.
  if (compact) applyHostTheme(params, document.documentElement);
  const view = createExportView(document, { compact });
  try {
    return { target: exportTargetOf(params), view };
  } catch (error) {
    view.showError(error instanceof Error ? error.message : String(error));
    return { target: null, view };
  }
}

const page = exporting ? exportPage() : null;
// The published client hands the export page the token in the fragment: read it, then drop it from
// the URL at once (history, copied links), whether or not the page can use it.
const fragmentToken = exporting ? new URLSearchParams(location.hash.slice(1)).get("token") : null;
if (fragmentToken !== null) history.replaceState(null, "", location.pathname + location.search);
const handlers = page
  ? page.target
    ? exportHandlers(wallets, page.target, page.view)
    : {}
  : walletHandlers(wallets, {
      post: createPost(apiOptions),
      get: createGet(apiOptions),
      tokens: mfaTokens,
      appId: api.appId,
    });

if (gate.refusedOrigin !== null) {
  // Embedded by a page the app does not allow: no listener, no answer, no storage.
  console.warn(
    `wallet frame: embedded by ${gate.refusedOrigin}, which this app does not allow; the frame will not operate`,
  );
} else {
  const listen = createMessageListener({ allowedOrigins, gate, handlers, ready });
  window.addEventListener("message", (event) =>
    listen({ origin: event.origin, data: event.data, source: event.source as Window | null }),
  );
  if (page?.target) {
    // A fragment token starts the export at once. The embedder is the parent's origin, known from
    // ancestorOrigins or the referrer; without it storage stays shut and the page says so.
    if (fragmentToken !== null) {
      const { target, view } = page;
      ready
        .then(() => runExport(wallets, target, view, fragmentToken, { retried: false }))
        .catch((error: unknown) => console.warn("wallet frame: export did not start", error));
    }
    // Keys typed inside this frame never reach the host page: tell it about Escape, so its dialog
    // closes as it would with focus outside. Only to the verified embedder.
    window.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || window.parent === window) return;
      let embedder: string;
      try {
        embedder = gate.origin();
      } catch {
        return;
      }
      window.parent.postMessage({ event: "privy:export:escape", data: {} }, embedder);
    });
  }
}
