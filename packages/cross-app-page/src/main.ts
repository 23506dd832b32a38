// The cross-app pages' entry: the server wrote which page this is into the meta tag.

import { createClient } from "@symbolon/core";
import { runAuthorize } from "./authorize.ts";
import { readContext } from "./context.ts";
import { runTransact } from "./transact.ts";
import { el, show } from "./ui.ts";

const context = readContext(document);
if (context === null) {
  show(el("h1", {}, "This page cannot be shown"), el("p", {}, "It was not served by the login server."));
} else if (context.mode === "authorize") {
  // New users of the provider get their wallet now, so the requester sees its address.
  const client = createClient({
    appId: context.provider_app_id,
    apiUrl: context.api_url,
    embeddedWallets: { ethereum: { createOnLogin: "users-without-wallets" }, showWalletUIs: false },
  });
  void runAuthorize(client, context);
} else {
  void runTransact(context);
}
