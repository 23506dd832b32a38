import { useCallback, useSyncExternalStore } from "react";
import type { ModalController, ModalState } from "./createModalController";

const CLOSED: ModalState = {
  requested: false,
  open: false,
  flow: null,
  screen: "methods",
  email: null,
  result: null,
};
const noop = () => {};

/** Subscribes to the modal controller's state (closed when there is no controller yet). */
export function useModalState(controller: ModalController | null): ModalState {
  const subscribe = useCallback(
    (listener: () => void) => (controller ? controller.subscribe(listener) : noop),
    [controller],
  );
  return useSyncExternalStore(
    subscribe,
    () => controller?.getState() ?? CLOSED,
    () => CLOSED,
  );
}
