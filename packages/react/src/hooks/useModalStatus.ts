import { useCallback, useSyncExternalStore } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";

const noop = () => {};

/** Whether the modal is open (spec client `useModalStatus`). */
export function useModalStatus(): { isOpen: boolean } {
  const { controller } = usePrivyContext("useModalStatus");
  const subscribe = useCallback(
    (listener: () => void) => (controller ? controller.subscribe(listener) : noop),
    [controller],
  );
  const isOpen = useSyncExternalStore(
    subscribe,
    () => controller?.getState().open ?? false,
    () => false,
  );
  return { isOpen };
}
