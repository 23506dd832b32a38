import { lazy, Suspense, useContext } from "react";
import { PrivyContext } from "./PrivyContext";
import { useModalState } from "./useModalState";

// Code-split: the modal's code and CSS load only after the first login() call.
const LoginModal = lazy(() => import("../modal/LoginModal"));

/** Mounts the lazily loaded login modal once a login was requested. */
export function ModalHost() {
  const context = useContext(PrivyContext);
  const { requested } = useModalState(context?.controller ?? null);
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      <LoginModal />
    </Suspense>
  );
}
