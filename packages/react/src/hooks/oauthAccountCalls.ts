import {
  type Client,
  formatUser,
  type OAuthProvider,
  oauthAccountType,
  requireLinkable,
  unlinkOAuth,
} from "@symbolon/core";
import type { ModalController } from "../provider/createModalController";
import { requireClient } from "./requireClient";

/** The spec client's name part of each provider's calls (`linkLinkedIn`, `unlinkTiktok`, …). */
const CALL_NAMES = {
  google: "Google",
  twitter: "Twitter",
  discord: "Discord",
  github: "Github",
  apple: "Apple",
  linkedin: "LinkedIn",
  spotify: "Spotify",
  instagram: "Instagram",
  tiktok: "Tiktok",
  line: "Line",
  twitch: "Twitch",
} as const satisfies Record<OAuthProvider, string>;

type CallName = (typeof CALL_NAMES)[OAuthProvider];

/** `linkGoogle()`, … : open the modal's link flow for the provider. */
export type OAuthLinkCalls = { [K in CallName as `link${K}`]: () => void };
/** `unlinkGoogle(subject)`, … : remove the provider account; resolve with the user as it is now. */
export type OAuthUnlinkCalls = {
  [K in CallName as `unlink${K}`]: (subject: string) => Promise<ReturnType<typeof formatUser>>;
};

const entries = Object.entries(CALL_NAMES) as Array<[OAuthProvider, CallName]>;

/**
 * Spec §5 first (signed in, none of that type yet: throws the spec's message), then the modal's
 * OAuth link flow — within the caller's click, so the popup may open.
 */
export function openOAuthLink(
  client: Client | null,
  controller: ModalController | null,
  provider: string,
): void {
  if (client) requireLinkable(client, oauthAccountType(provider) as Parameters<typeof requireLinkable>[1]);
  controller?.openLinkOAuth(provider);
}

/** The link calls of every built-in provider; `open` runs the flow (and reports failures). */
export function oauthLinkCalls(open: (provider: OAuthProvider) => void): OAuthLinkCalls {
  return Object.fromEntries(
    entries.map(([provider, name]) => [`link${name}`, () => open(provider)]),
  ) as OAuthLinkCalls;
}

/** The unlink calls of every built-in provider (`POST /oauth/unlink {provider, subject}`). */
export function oauthUnlinkCalls(client: Client | null, hookName: string): OAuthUnlinkCalls {
  return Object.fromEntries(
    entries.map(([provider, name]) => [
      `unlink${name}`,
      async (subject: string) =>
        formatUser((await unlinkOAuth(requireClient(client, hookName), { provider, subject })).user),
    ]),
  ) as OAuthUnlinkCalls;
}
