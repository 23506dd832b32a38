import { type ComponentType, lazy, Suspense, useContext } from "react";
import { inWalletModal, loadLoginScreens, loadWalletScreens } from "../modal/modalFlows";
import type { ScreenRegistry } from "../modal/screenEntry";
import { PrivyContext } from "./PrivyContext";
import { useModalState } from "./useModalState";

/** A modal whose code `load` brings, with the screens of its flows (chunks of their own) loaded alongside. */
const lazyModal = <Context,>(
  load: () => Promise<{ default: ComponentType<{ screens: ScreenRegistry<Context> }> }>,
  loadScreens: () => Promise<ScreenRegistry<Context>>,
) =>
  lazy(() =>
    Promise.all([load(), loadScreens()]).then(([{ default: Modal }, screens]) => ({
      default: () => <Modal screens={screens} />,
    })),
  );

// Code-split: the modal's code and CSS load only when first needed — the login screens on the
// first login(), the wallet screens (confirmation, export) on the first wallet action that asks the user.
const LoginModal = lazyModal(() => import("../modal/LoginModal"), loadLoginScreens);
const WalletModal = lazyModal(() => import("../modal/WalletModal"), loadWalletScreens);

/** Mounts the lazily loaded modal of the requested flow. */
export function ModalHost() {
  const context = useContext(PrivyContext);
  const { requested, flow } = useModalState(context?.controller ?? null);
  if (!requested) return null;
  return <Suspense fallback={null}>{inWalletModal(flow) ? <WalletModal /> : <LoginModal />}</Suspense>;
}
