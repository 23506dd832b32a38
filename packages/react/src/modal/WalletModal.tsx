import { MODAL_HEIGHT_FULL_PX } from "@symbolon/core";
import { Suspense, useContext, useId, useInsertionEffect } from "react";
import { PrivyContext } from "../provider/PrivyContext";
import { useModalState } from "../provider/useModalState";
import { injectStyles } from "./injectStyles";
import { MfaVerifyScreen } from "./lazyScreens";
import { ModalFrame } from "./ModalFrame";
import { useFocusAfterVerification } from "./mfa/useFocusAfterVerification";
import { screenActionsOf } from "./screenActions";
import type { ScreenContext } from "./screenContext";
import { entryOf, type ScreenRegistry } from "./screenEntry";
import { useModalLook } from "./useModalLook";
import { WALLET_CSS } from "./walletStyles";

const WALLET_SHEET = { id: "symbolon-wallet-styles", css: WALLET_CSS };

/**
 * The wallet's modal (sign/send confirmation, key export, with the screens of its flows:
 * `loadWalletScreens`); a lazy chunk of its own, loaded by the provider the first time a wallet
 * action needs the user, so pages that only log in never load it.
 */
export default function WalletModal({ screens }: { screens: ScreenRegistry<ScreenContext> }) {
  const context = useContext(PrivyContext);
  const controller = context?.controller ?? null;
  const state = useModalState(controller);
  const look = useModalLook(context?.config);
  useInsertionEffect(() => injectStyles(WALLET_SHEET), []);
  const titleId = useId();
  const verifyTitleId = useId();
  useFocusAfterVerification(state.verifying);

  const client = context?.client;
  if (!client || !controller || !state.open || state.screen === null) return null;
  const entry = entryOf(screens, state);
  if (!entry) return null;
  const { close } = controller;
  // MFA verification the wallet operation needs: over the screen, which stays mounted (the export frame).
  const { verifying } = state;
  return (
    <ModalFrame
      {...look}
      height={MODAL_HEIGHT_FULL_PX}
      labelledBy={verifying ? verifyTitleId : titleId}
      onClose={close}
    >
      {verifying && (
        <Suspense fallback={null}>
          <MfaVerifyScreen client={client} titleId={verifyTitleId} onClose={close} />
        </Suspense>
      )}
      <div className="symbolon-layer" hidden={verifying}>
        {entry.render(state, {
          client,
          flows: controller.flows,
          actions: screenActionsOf(controller, client),
          close,
          titleId,
        })}
      </div>
    </ModalFrame>
  );
}
