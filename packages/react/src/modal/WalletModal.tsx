import { exportWallet, MODAL_HEIGHT_FULL_PX } from "@symbolon/core";
import { type ReactNode, Suspense, useContext, useId, useInsertionEffect } from "react";
import { PrivyContext } from "../provider/PrivyContext";
import { useModalState } from "../provider/useModalState";
import { ConfirmScreen } from "./ConfirmScreen";
import { ExportScreen } from "./ExportScreen";
import { injectStyles } from "./injectStyles";
import { MfaVerifyScreen } from "./lazyScreens";
import { ModalFrame } from "./ModalFrame";
import { useFocusAfterVerification } from "./mfa/useFocusAfterVerification";
import { useModalLook } from "./useModalLook";
import { WALLET_CSS } from "./walletStyles";

const WALLET_SHEET = { id: "symbolon-wallet-styles", css: WALLET_CSS };

/**
 * The wallet's modal screens (sign/send confirmation, key export); a lazy chunk of its own, loaded
 * by the provider the first time a wallet action needs the user, so pages that only log in never load it.
 */
export default function WalletModal() {
  const context = useContext(PrivyContext);
  const controller = context?.controller ?? null;
  const state = useModalState(controller);
  const look = useModalLook(context?.config);
  useInsertionEffect(() => injectStyles(WALLET_SHEET), []);
  const titleId = useId();
  const verifyTitleId = useId();
  useFocusAfterVerification(state.verifying === true);

  const client = context?.client;
  if (!client || !controller || !state.open) return null;
  const { confirmation, exportAddress } = state;
  // MFA verification the wallet operation needs: over the screen, which stays mounted (the export frame).
  const verifying = state.verifying === true;
  const frame = (screen: ReactNode) => (
    <ModalFrame
      {...look}
      height={MODAL_HEIGHT_FULL_PX}
      labelledBy={verifying ? verifyTitleId : titleId}
      onClose={controller.close}
    >
      {verifying && (
        <Suspense fallback={null}>
          <MfaVerifyScreen client={client} titleId={verifyTitleId} onClose={controller.close} />
        </Suspense>
      )}
      <div className="symbolon-layer" hidden={verifying}>
        {screen}
      </div>
    </ModalFrame>
  );
  if (state.flow === "confirm" && confirmation) {
    return frame(
      <ConfirmScreen
        request={confirmation}
        titleId={titleId}
        onConfirm={() => controller.resolveConfirmation(true)}
        onCancel={() => controller.resolveConfirmation(false)}
      />,
    );
  }
  if (state.flow === "export" && exportAddress) {
    return frame(
      <ExportScreen
        address={exportAddress}
        titleId={titleId}
        mount={(container) =>
          // Escape inside the wallet page closes the dialog as Escape anywhere else in it does.
          exportWallet(client, { address: exportAddress, container, onEscape: controller.close })
        }
        onDone={controller.close}
      />,
    );
  }
  return null;
}
