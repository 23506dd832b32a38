import type { FarcasterSignerResponse } from "@symbolon/core";
import type { ModalCore } from "../core/createModalCore";
import { defineFlow, loginModalScreens } from "../core/defineFlow";
import { showSuccess } from "./showSuccess";

/** Spec §2 Farcaster signer request: the Ed25519 key `signerPublicKey` to have approved. */
export type FarcasterSignerScreenState = {
  flow: "signer";
  screen: "farcaster-signer";
  signerPublicKey: string;
};

/** What the signer screen calls. */
export interface FarcasterSignerActions {
  /** The signer screen's outcome: approved (success, then close), or refused / failed (it stays). */
  settleFarcasterSigner(outcome: { signer: FarcasterSignerResponse } | { error: unknown }): void;
}

/** Asks the user to approve a Farcaster signer. */
export interface FarcasterSignerFlow extends FarcasterSignerActions {
  /**
   * Shows the Farcaster signer request (QR code or link) for `publicKey`; settles when the screen
   * does (approved, 'Request rejected', 'Connect failed') or rejects when the modal is closed or busy.
   */
  requestFarcasterSigner(publicKey: string): Promise<FarcasterSignerResponse>;
}

type Waiter = { resolve: (signer: FarcasterSignerResponse) => void; reject: (error: unknown) => void };

/** Creates the Farcaster signer flow over one modal core. */
export function createFarcasterSignerFlow(core: ModalCore): FarcasterSignerFlow {
  // The caller of requestFarcasterSigner, waiting for the signer screen.
  let waiter: Waiter | null = null;
  return {
    requestFarcasterSigner(publicKey) {
      return new Promise<FarcasterSignerResponse>((resolve, reject) => {
        const opened = core.open(() => {
          waiter = { resolve, reject };
          return {
            screen: { flow: "signer", screen: "farcaster-signer", signerPublicKey: publicKey },
            closed() {
              waiter?.reject(new Error("The Farcaster signer request was closed."));
              waiter = null;
            },
          };
        });
        if (!opened) reject(new Error("The modal is busy with another flow."));
      });
    },
    settleFarcasterSigner(outcome) {
      const settled = waiter;
      waiter = null;
      if ("signer" in outcome) {
        settled?.resolve(outcome.signer);
        showSuccess(core, { flow: "signer", screen: "success", title: "Farcaster signer approved" });
      } else settled?.reject(outcome.error);
    },
  };
}

export const FARCASTER_SIGNER_FLOW = defineFlow({
  create: ({ core }) => createFarcasterSignerFlow(core),
  exposes: ["requestFarcasterSigner"],
  screens: loginModalScreens<FarcasterSignerScreenState>(() => import("./farcasterSignerScreens")),
});
