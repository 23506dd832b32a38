import type { Client, LoginResult, User } from "@symbolon/core";
import { defineFlow, loginModalScreens } from "../core/defineFlow";
import { ACCOUNT_FLOW, type AccountFlow, isSignedIn } from "./createAccountFlow";
import type { SignInFlowKind } from "./signInTypes";

/** Sign In With Farcaster (its QR code or app link) is under way: a login, or a link to the signed-in user. */
export type FarcasterScreenState = { flow: SignInFlowKind; screen: "farcaster" };

/** What the Farcaster screen calls. */
export interface FarcasterActions {
  succeed(result: LoginResult): void;
  accountSaved(user: User): void;
  refuse(error: unknown): boolean;
}

/** The link flow that opens on the Farcaster screen. */
export interface FarcasterFlow {
  /** Open the link flow for a Farcaster account (its QR code screen); needs a signed-in user. */
  openLinkFarcaster(): void;
}

/** Creates the Farcaster link flow; the login screen shows the same screen for a login. */
export function createFarcasterFlow(client: Client, account: AccountFlow): FarcasterFlow {
  return {
    openLinkFarcaster() {
      if (!isSignedIn(client)) return;
      account.open({
        flow: "link",
        first: (session) => {
          session.adding = "farcaster";
          return { flow: "link", screen: "farcaster" };
        },
      });
    },
  };
}

export const FARCASTER_FLOW = defineFlow({
  create: ({ client, use }) => createFarcasterFlow(client, use(ACCOUNT_FLOW)),
  exposes: ["openLinkFarcaster"],
  screens: loginModalScreens<FarcasterScreenState>(() => import("./farcasterScreens")),
});
