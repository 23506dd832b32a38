// The signing page (popup): checks the provider token with the server, shows the request, signs
// with the provider app's embedded wallet (its wallet frame, this origin) on approval, and posts
// PRIVY_CROSS_APP_ACTION_RESPONSE or PRIVY_CROSS_APP_ACTION_ERROR to the requester's page.

import type { CrossAppRequest, CrossAppTransactContext } from "@symbolon/core";
import { type Client, createClient } from "@symbolon/core";
import type { TransactContext } from "./context.ts";
import { requestView } from "./requestView.ts";
import { ensureSignedIn } from "./signIn.ts";
import { button, el, header, show } from "./ui.ts";

/** What the opener receives. */
export type CrossAppMessage =
  | { type: "PRIVY_CROSS_APP_ACTION_RESPONSE"; data: { signature: string } }
  | { type: "PRIVY_CROSS_APP_ACTION_ERROR"; error: string };

/** The address a request signs with, or null when it names none. */
export function requestAddress(request: CrossAppRequest): string | null {
  const [first, second] = request.params;
  const pick = (value: unknown) => (typeof value === "string" ? value : null);
  switch (request.method) {
    case "personal_sign":
      return pick(second);
    case "eth_signTypedData_v4":
      return pick(first);
    case "eth_signTransaction":
      return pick((first as { from?: unknown } | undefined)?.from);
    default:
      return null;
  }
}

/** Parses `?request=`; null when it is not a request this page signs. */
export function parseRequest(raw: string | null): CrossAppRequest | null {
  if (raw === null) return null;
  try {
    const request = JSON.parse(raw) as CrossAppRequest;
    const known = ["personal_sign", "eth_signTypedData_v4", "eth_signTransaction"];
    return known.includes(request.method) && Array.isArray(request.params) ? request : null;
  } catch {
    return null;
  }
}

async function sign(
  client: Client,
  request: CrossAppRequest,
  address: string,
): Promise<{ signature: string }> {
  const wallet = await import("@symbolon/core/wallet");
  switch (request.method) {
    case "personal_sign":
      return wallet.signMessage(client, { message: String(request.params[0]) }, { address });
    case "eth_signTypedData_v4":
      return wallet.signTypedData(client, request.params[1] as never, { address });
    case "eth_signTransaction": {
      // Filled by the requester: signed here, submitted by the requester.
      const provider = wallet.getEthereumProvider(client, { address });
      const signature = await provider.request({
        method: "eth_signTransaction",
        params: [request.params[0]],
      });
      return { signature: String(signature) };
    }
  }
}

async function fetchContext(apiUrl: string, token: string): Promise<CrossAppTransactContext | null> {
  try {
    const response = await fetch(`${apiUrl}/api/v1/cross-app/transact`, {
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    });
    return response.ok ? ((await response.json()) as CrossAppTransactContext) : null;
  } catch {
    return null;
  }
}

/** How long the page stays open after posting its answer, so the opener handles it first. */
const ANSWER_BEFORE_CLOSE_MS = 250;

/** Runs the page. */
export async function runTransact(page: TransactContext): Promise<void> {
  const query = new URLSearchParams(window.location.search);
  const opener = window.opener as Window | null;
  const token = query.get("token") ?? "";
  const targetOrigin = query.get("origin") ?? "";
  const context = token ? await fetchContext(page.api_url, token) : null;
  // Answers go only to an origin of the app the token was issued to.
  const canAnswer = context?.requester_origins.includes(targetOrigin) && opener !== null;
  const answer = (message: CrossAppMessage) => {
    if (!canAnswer) return window.close();
    opener.postMessage(message, targetOrigin);
    // The opener takes a closed popup for a rejection (it checks every 300 ms): closing at once
    // could be seen before the answer is handled, and an approved request would read as refused.
    setTimeout(() => window.close(), ANSWER_BEFORE_CLOSE_MS);
  };
  const fail = (error: string) => {
    show(el("h1", {}, "Request failed"), el("p", { class: "error", role: "alert" }, error));
    if (canAnswer) answer({ type: "PRIVY_CROSS_APP_ACTION_ERROR", error });
  };
  if (context === null) return fail("Transactions require a valid token");
  if (!canAnswer) return fail("Invalid connected app");
  if (context.read_only) return fail("Cannot transact against a read-only provider app");
  const request = parseRequest(query.get("request"));
  if (request === null) return fail("Failed to initialize signature request");
  const address = requestAddress(request);
  const own = context.embedded_wallets.find((w) => w.address.toLowerCase() === address?.toLowerCase());
  if (own === undefined) return fail("Cannot request a signature with this wallet address");

  const client = createClient({
    appId: context.provider_app_id,
    apiUrl: page.api_url,
    embeddedWallets: { showWalletUIs: false },
    ...(request.chain && { chains: [request.chain], defaultChainId: request.chain.id }),
  });
  const title = `${context.provider_app_name} signature request`;
  const intro = [header({ name: context.requester_app_name }, title)];
  document.title = title;
  await ensureSignedIn(client, context.provider_app_name, intro);
  if (client.store.getState().user?.id !== context.user_id) {
    return fail(`There was an issue connecting your ${context.provider_app_name} account. Please try again.`);
  }
  const status = el("p", { class: "status", role: "status" });
  show(
    ...intro,
    el(
      "p",
      { class: "subtitle" },
      `${context.requester_app_name} asks you to sign with your ${context.provider_app_name} wallet.`,
    ),
    ...requestView(request, own.address),
    el(
      "div",
      { class: "actions" },
      button(
        "Reject",
        () => answer({ type: "PRIVY_CROSS_APP_ACTION_ERROR", error: "User rejected request" }),
        "secondary",
      ),
      button("Approve", async () => {
        status.textContent = "Signing…";
        try {
          const data = await sign(client, request, own.address);
          answer({ type: "PRIVY_CROSS_APP_ACTION_RESPONSE", data });
        } catch (error) {
          fail(error instanceof Error ? error.message : String(error));
        }
      }),
    ),
    status,
  );
}
