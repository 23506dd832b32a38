import type { ModalCore } from "../core/createModalCore";
import { defineFlow, loginModalScreens } from "../core/defineFlow";
import type { SignInFlowKind, WayIn } from "./signInTypes";

/** How long the success screen stays before the modal closes itself. */
export const SUCCESS_CLOSE_DELAY_MS = 900;

/** The flows that end on the success screen. */
export type SuccessFlowKind = SignInFlowKind | "connect" | "signer" | "passkeys";

/** The success screen: what was done, and (a login) how the person came in. */
export type SuccessScreenState = { flow: SuccessFlowKind; screen: "success"; title: string } & WayIn;

/** Shows the success screen, then closes the modal. */
export function showSuccess(core: ModalCore, screen: SuccessScreenState): void {
  core.show(screen);
  core.later(SUCCESS_CLOSE_DELAY_MS, () => core.close());
}

/** The success screen many flows end on (nothing to create: they show it with `showSuccess`). */
export const SUCCESS_FLOW = defineFlow({
  screens: loginModalScreens<SuccessScreenState>(() => import("./successScreens")),
});
