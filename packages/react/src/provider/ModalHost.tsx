import { lazy, Suspense, useContext } from "react";
import { PrivyContext } from "./PrivyContext";
import { useModalState } from "./useModalState";

// Code-split: the modal's code and CSS load only when first needed — the login screens on the
// first login(), the wallet screens (confirmation, export) on the first wallet action that asks the user.
const LoginModal = lazy(() => import("../modal/LoginModal"));
const WalletModal = lazy(() => import("../modal/WalletModal"));

/** Mounts the lazily loaded modal of the requested flow. */
export function ModalHost() {
  const context = useContext(PrivyContext);
  const { requested, flow } = useModalState(context?.controller ?? null);
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      {flow === "confirm" || flow === "export" ? <WalletModal /> : <LoginModal />}
    </Suspense>
  );
}
