// The consent page: "{B} wants to connect to your {A} account" → Allow (a code) or Deny.

import type { CrossAppConsentRequest, CrossAppConsentResponse } from "@symbolon/core";
import { type Client, getAccessToken } from "@symbolon/core";
import type { AuthorizeContext } from "./context.ts";
import { ensureSignedIn } from "./signIn.ts";
import { button, el, errorLine, header, show } from "./ui.ts";

/** Where Deny sends the browser (RFC 6749 §4.1.2.1 `access_denied`). */
export function deniedUrl(context: AuthorizeContext): string {
  const url = new URL(context.redirect_uri);
  url.searchParams.set("error", "access_denied");
  if (context.state !== null) url.searchParams.set("state", context.state);
  return url.toString();
}

/** Asks the server for a code; resolves with where to send the browser. */
export async function consent(client: Client, context: AuthorizeContext): Promise<string> {
  const token = await getAccessToken(client);
  if (token === null) throw new Error("Your session ended. Reload the page and sign in again.");
  const body: CrossAppConsentRequest = {
    client_id: context.client_app_id,
    redirect_uri: context.redirect_uri,
    code_challenge: context.code_challenge,
    code_challenge_method: context.code_challenge_method,
  };
  if (context.state !== null) body.state = context.state;
  const response = await fetch(
    `${context.api_url}/api/v1/apps/${encodeURIComponent(context.provider_app_id)}/oauth/consent`,
    {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "privy-app-id": context.provider_app_id,
      },
      body: JSON.stringify(body),
    },
  );
  const answer = (await response.json()) as CrossAppConsentResponse & { error?: string };
  if (!response.ok) throw new Error(answer.error ?? "The connection could not be made.");
  return answer.redirect_to;
}

/** Runs the page. */
export async function runAuthorize(client: Client, context: AuthorizeContext): Promise<void> {
  const intro = [
    header(
      { name: context.client_app_name, iconUrl: context.client_app_icon_url },
      `Connect to ${context.provider_app_name}`,
      `${context.client_app_name} wants to connect to your ${context.provider_app_name} account`,
    ),
  ];
  document.title = `Connect to ${context.provider_app_name}`;
  await ensureSignedIn(client, context.provider_app_name, intro);
  const problem = el("div");
  show(
    ...intro,
    el(
      "p",
      { class: "note" },
      `${context.client_app_name} will see your ${context.provider_app_name} account id and wallet addresses, and may ask you to sign with your wallet.`,
    ),
    el(
      "div",
      { class: "actions" },
      button(
        "Deny",
        () => {
          window.location.assign(deniedUrl(context));
        },
        "secondary",
      ),
      button("Allow", async () => {
        try {
          window.location.assign(await consent(client, context));
        } catch (error) {
          problem.replaceChildren(errorLine(error instanceof Error ? error.message : String(error)));
        }
      }),
    ),
    problem,
  );
}
