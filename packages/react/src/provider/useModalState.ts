import { useCallback, useSyncExternalStore } from "react";
import type { ModalState } from "../modal/core/createModalCore";
import type { ModalController } from "./createModalController";

const CLOSED: ModalState = { requested: false, open: false, verifying: false, flow: null, screen: null };
const noop = () => {};

/** Subscribes to the modal controller's state (closed when there is no controller yet). */
export function useModalState(controller: ModalController | null): ModalState {
  const subscribe = useCallback(
    (listener: () => void) => (controller ? controller.subscribe(listener) : noop),
    [controller],
  );
  return useSyncExternalStore<ModalState>(
    subscribe,
    () => controller?.getState() ?? CLOSED,
    () => CLOSED,
  );
}
