import type { WalletConfirmationRequest } from "@symbolon/core";
import type { ModalCore } from "../core/createModalCore";
import { defineFlow, walletModalScreens } from "../core/defineFlow";

/** The confirmation screen: what the user is asked to approve (a signature or a transaction). */
export type ConfirmScreenState = {
  flow: "confirm";
  screen: "confirm";
  confirmation: WalletConfirmationRequest;
};

/** What the confirmation screen calls. */
export interface ConfirmActions {
  /** The confirmation screen's answer: approve (true) or refuse (false); closes the modal. */
  resolveConfirmation(approved: boolean): void;
}

/** Asks the user before a wallet action (core's confirmation handler). */
export interface ConfirmFlow extends ConfirmActions {
  /**
   * Shows the confirmation screen for a wallet action; resolves true when the user approves, false
   * when they refuse or close it. Requests made while the modal is busy wait their turn.
   */
  confirm(request: WalletConfirmationRequest): Promise<boolean>;
}

/** Creates the confirmation flow over one modal core. */
export function createConfirmFlow(core: ModalCore): ConfirmFlow {
  // The answer of the confirmation on screen.
  let answer: ((approved: boolean) => void) | null = null;
  core.onDestroy(() => answer?.(false));
  return {
    confirm: (request) =>
      new Promise<boolean>((resolve) => {
        core.open(() => {
          answer = resolve;
          return {
            screen: { flow: "confirm", screen: "confirm", confirmation: request },
            // Closing the modal refuses.
            closed() {
              answer = null;
              resolve(false);
            },
          };
        }, "wait");
      }),
    resolveConfirmation(approved) {
      const resolve = answer;
      answer = null;
      resolve?.(approved);
      if (core.getState().flow === "confirm") core.close();
    },
  };
}

export const CONFIRM_FLOW = defineFlow({
  create: ({ core }) => createConfirmFlow(core),
  exposes: ["confirm", "resolveConfirmation"],
  screens: walletModalScreens<ConfirmScreenState>("confirm", () => import("./confirmScreens")),
});
