import { type Client, resetPasskeyFlow, type User } from "@symbolon/core";
import type { ModalCore } from "../core/createModalCore";
import { defineFlow, loginModalScreens } from "../core/defineFlow";
import { isSignedIn } from "./createAccountFlow";
import { showSuccess } from "./showSuccess";

/** Passkey management: the user's passkeys (list, add, unlink). */
export type PasskeysScreenState = { flow: "passkeys"; screen: "passkeys" };

/** What the passkey management screen calls. */
export interface PasskeysActions {
  /** The user's passkeys changed (the user is now `user`): "Passkeys updated", then close. */
  passkeysSaved(user: User): void;
}

/** Manages the signed-in user's passkeys. */
export interface PasskeysFlow extends PasskeysActions {
  /** Open passkey management; needs a signed-in user. */
  openPasskeys(): void;
}

/** Creates the passkey management flow over one modal core. */
export function createPasskeysFlow(core: ModalCore, client: Client): PasskeysFlow {
  return {
    openPasskeys() {
      if (!isSignedIn(client)) return;
      core.open(() => ({
        screen: { flow: "passkeys", screen: "passkeys" },
        cleared: () => resetPasskeyFlow(client),
      }));
    },
    passkeysSaved: () =>
      showSuccess(core, { flow: "passkeys", screen: "success", title: "Passkeys updated" }),
  };
}

export const PASSKEYS_FLOW = defineFlow({
  create: ({ core, client }) => createPasskeysFlow(core, client),
  exposes: ["openPasskeys"],
  screens: loginModalScreens<PasskeysScreenState>(() => import("./passkeysScreens")),
});
