import type { ModalCore } from "../core/createModalCore";
import { defineFlow, loginModalScreens } from "../core/defineFlow";
import { ACCOUNT_FLOW, type AccountFlow } from "./createAccountFlow";
import type { SignInFlowKind } from "./signInTypes";
import { type Refusal, type TransferOffer, toRefusal } from "./toRefusal";

/**
 * The refused sign-in screens: why the server refused (with the refused address or number, when
 * known), or the offer to move an account that belongs to another user (`account_transfer_required`).
 */
export type RefusalScreenState =
  | { flow: SignInFlowKind; screen: "refusal"; refusal: Refusal; subject: string | null }
  | { flow: SignInFlowKind; screen: "transfer"; refusal: Refusal & { transfer: TransferOffer } };

/** Routes refused logins and links to their screens. */
export interface RefusalFlow {
  /**
   * Routes a refused login or link to its screen (allowlist, user limit, unknown user, sign-up
   * disabled, linked to another user, account transfer); false when `error` has no screen.
   */
  refuse(error: unknown): boolean;
  /**
   * A link made without the modal (Telegram) was refused: open the link flow on the refusal's
   * screen (the transfer offer, or why not). False when `error` has no screen or the modal is busy.
   */
  offerRefusal(error: unknown): boolean;
}

/** The screen of `refusal` in `flow`; `subject` is the address or number refused, when known. */
function refusalScreen(flow: SignInFlowKind, refusal: Refusal, subject: string | null): RefusalScreenState {
  const { transfer } = refusal;
  return refusal.code === "account_transfer_required" && transfer
    ? { flow, screen: "transfer", refusal: { ...refusal, transfer } }
    : { flow, screen: "refusal", refusal, subject };
}

/** Creates the refusal screens' steps over one modal core. */
export function createRefusalFlow(core: ModalCore, account: AccountFlow): RefusalFlow {
  return {
    refuse(error) {
      const refusal = toRefusal(error);
      if (refusal === null) return false;
      const { flow, channel, email, phoneNumber } = account.session();
      core.show(refusalScreen(flow, refusal, channel === "sms" ? phoneNumber : email));
      return true;
    },
    offerRefusal(error) {
      const refusal = toRefusal(error);
      if (refusal === null) return false;
      return account.open({ flow: "link", first: () => refusalScreen("link", refusal, null) });
    },
  };
}

export const REFUSAL_FLOW = defineFlow({
  create: ({ core, use }) => createRefusalFlow(core, use(ACCOUNT_FLOW)),
  exposes: ["offerRefusal"],
  screens: loginModalScreens<RefusalScreenState>(() => import("./refusalScreens")),
});
