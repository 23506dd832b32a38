import { type Client, closeMfaModal, type MfaState } from "@symbolon/core";
import type { ModalCore } from "../core/createModalCore";
import { defineFlow, loginModalScreens } from "../core/defineFlow";

/**
 * The MFA flows: `mfa`, the verification alone (no screen under it); `mfa-enroll`, the enrolment
 * (spec §2). A verification a flow's operation needs is shown over that flow's screen instead.
 */
export type MfaScreenState =
  | { flow: "mfa"; screen: "mfa-verify" }
  | { flow: "mfa-enroll"; screen: "mfa-enroll" };

/**
 * Spec §4 MFA: the modal shows what core's `mfaState.modal` asks for — the verification (alone, or over
 * the screen of the operation that needs it) or the enrolment — and ends the verification once core
 * says it is verified. A refused verification (max attempts, time limit) stays until closed.
 * Returns nothing: the flow follows core's store until the modal core is destroyed.
 */
export function followMfa(core: ModalCore, client: Client): void {
  // The verification alone was verified: closing it has nothing left to cancel.
  let verifiedAlone = false;

  // Spec §4: closing before success fails the waiting operation with 'Canceled MFA verification.'; the
  // screen under the verification (its operation failed) closes too.
  core.onClose(() => {
    if (!core.getState().verifying) return;
    core.setVerifying(false);
    closeMfaModal(client);
  });

  const openVerification = () =>
    core.open(() => {
      verifiedAlone = false;
      return {
        screen: { flow: "mfa", screen: "mfa-verify" },
        verifying: true,
        // Core cancels a pending verification ('Canceled MFA verification.').
        closed: () => {
          if (!verifiedAlone) closeMfaModal(client);
        },
      };
    });
  /** Opens the enrolment core asks for, once the flow on screen (a login's success screen) has closed. */
  const openEnrollment = () => {
    const { open, flow } = core.getState();
    if (open && flow === "mfa-enroll") return;
    core.open(
      () =>
        client.store.getState().mfaState?.modal === "enroll"
          ? { screen: { flow: "mfa-enroll", screen: "mfa-enroll" }, closed: () => closeMfaModal(client) }
          : null,
      "wait",
    );
  };

  const follow = (next: MfaState, previous: MfaState) => {
    const state = core.getState();
    if (next.modal === "verify" && previous.modal !== "verify") {
      if (!state.open) openVerification();
      else if (state.flow !== "mfa-enroll") core.setVerifying(true);
      return;
    }
    if (next.modal === "enroll" && previous.modal !== "enroll") {
      openEnrollment();
      return;
    }
    if (!state.open || !state.verifying) return;
    const verified = next.verification.status === "verified" && previous.verification.status !== "verified";
    if (!verified && next.modal !== null) return;
    // Verified (or ended elsewhere): `modal` back to null, so the next verification opens it again.
    core.setVerifying(false);
    if (next.modal !== null) closeMfaModal(client);
    if (core.getState().flow !== "mfa") return;
    verifiedAlone = true;
    core.close();
  };
  core.onDestroy(
    client.store.subscribe((next, previous) => {
      if (next.mfaState !== previous.mfaState && next.mfaState && previous.mfaState)
        follow(next.mfaState, previous.mfaState);
    }),
  );
}

/** The MFA flows follow core's store; the verification alone is a layer over no screen (both modals show it). */
export const MFA_FLOW = defineFlow({
  create: ({ core, client }) => followMfa(core, client),
  screens: loginModalScreens<MfaScreenState, "mfa-verify">(() => import("./mfaScreens")),
});
