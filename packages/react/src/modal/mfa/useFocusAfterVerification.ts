import { useEffect, useRef } from "react";

/**
 * When the verification shown over a screen goes away, focus would be lost with its code boxes: it moves to
 * the title of the screen underneath, so a keyboard or screen-reader user goes on from its top.
 */
export function useFocusAfterVerification(verifying: boolean): void {
  const was = useRef(verifying);
  useEffect(() => {
    if (was.current && !verifying) {
      const titles = document.querySelectorAll<HTMLElement>(".symbolon-modal .symbolon-title");
      for (const title of titles) {
        if (title.closest("[hidden]") === null) {
          title.focus();
          break;
        }
      }
    }
    was.current = verifying;
  }, [verifying]);
}
