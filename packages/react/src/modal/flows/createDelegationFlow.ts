import { DELEGATION_SUCCESS_CLOSE_MS, type DelegationTerms } from "@symbolon/core";
import type { ModalCore } from "../core/createModalCore";
import { defineFlow, walletModalScreens } from "../core/defineFlow";

/**
 * Delegated actions' screens: the consent for the wallet `address`, or the revoke of every delegated
 * wallet (`wallets`: their addresses). The hook that opens a screen hands it its work as calls (the
 * terms to show, the delegation, the revoke), so the screens' chunk carries no client code of its own;
 * `done` is what a screen calls once its work succeeded.
 */
export type DelegationScreenState = { flow: "delegation"; done: () => void } & (
  | {
      screen: "delegation-consent";
      address: string;
      /** The terms to show: the app's signers and their policies. */
      terms: () => Promise<DelegationTerms>;
      /** Delegates (what "Allow" does). */
      allow: () => Promise<void>;
    }
  | {
      screen: "delegation-revoke";
      wallets: string[];
      /** Revokes (what "Revoke" does). */
      revoke: () => Promise<void>;
    }
);

/** A delegation screen as its opener gives it (`done` is added when it opens). */
export type DelegationScreen = DelegationScreenState extends infer State
  ? State extends unknown
    ? Omit<State, "done">
    : never
  : never;

/** How the consent ends when the user closes it ("Not now", Escape, ×). */
export const DELEGATION_DECLINED_MESSAGE = "The user declined to delegate the wallet.";
/** How the revoke ends when the user closes it ("Cancel", Escape, ×). */
export const REVOKE_CANCELLED_MESSAGE = "The user cancelled revoking the delegation.";

/**
 * Shows `screen` and settles when it does: resolves once the screen's work succeeded (`done`: the screen
 * shows its success and the modal closes itself DELEGATION_SUCCESS_CLOSE_MS later); rejects when the
 * user closes it first (DELEGATION_DECLINED_MESSAGE, REVOKE_CANCELLED_MESSAGE), or at once when the modal
 * is busy with another flow. The hooks open it: the initial bundle holds only the flow's screens loader.
 */
export function openDelegationScreen(core: ModalCore, screen: DelegationScreen): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const opened = core.open(() => {
      const shown = {
        ...screen,
        done() {
          if (settled) return;
          settled = true;
          resolve();
          // Closes this screen only: not another flow opened after the user closed it.
          core.later(DELEGATION_SUCCESS_CLOSE_MS, () => {
            if (core.getState().open && core.current() === shown) core.close();
          });
        },
      } as DelegationScreenState;
      return {
        screen: shown,
        closed() {
          if (settled) return;
          settled = true;
          const consent = screen.screen === "delegation-consent";
          reject(new Error(consent ? DELEGATION_DECLINED_MESSAGE : REVOKE_CANCELLED_MESSAGE));
        },
      };
    });
    if (!opened) reject(new Error("The modal is busy with another flow."));
  });
}

export const DELEGATION_FLOW = defineFlow({
  screens: walletModalScreens<DelegationScreenState>("delegation", () => import("./delegationScreens")),
});
