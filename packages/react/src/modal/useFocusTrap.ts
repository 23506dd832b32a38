import { type RefObject, useLayoutEffect, useRef } from "react";

const FOCUSABLE =
  'a[href],button:not([disabled]),input:not([disabled]),select:not([disabled]),textarea:not([disabled]),[tabindex]:not([tabindex="-1"])';

/**
 * Keeps Tab focus inside `ref`, focuses its `[data-autofocus]` element, calls `onEscape` on Escape,
 * and on unmount returns focus to the element that had it before (the trigger) — or, when the
 * trigger was re-rendered as a new element (the page updated while the dialog was open), to the same
 * control (same id, or same kind with the same name); when it is gone (Log in replaced by the
 * signed-in page), to the page's main heading.
 */
export function useFocusTrap(ref: RefObject<HTMLElement | null>, onEscape: () => void): void {
  const escapeHandler = useRef(onEscape);
  escapeHandler.current = onEscape;
  // Layout effect: the trap and Escape must work from the first frame the dialog is visible.
  useLayoutEffect(() => {
    const container = ref.current;
    if (!container) return;
    const trigger = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!container.contains(document.activeElement)) {
      // Not React's autoFocus: it would move focus before the trigger is recorded.
      const target =
        container.querySelector<HTMLElement>("[data-autofocus]") ??
        container.querySelector<HTMLElement>(FOCUSABLE);
      target?.focus();
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        escapeHandler.current();
        return;
      }
      if (event.key !== "Tab") return;
      const items = Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE));
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) return;
      const active = document.activeElement;
      if (event.shiftKey && (active === first || !container.contains(active))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || !container.contains(active))) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      const restore = () => {
        const successor = trigger?.isConnected ? trigger : sameControl(trigger);
        if (successor) successor.focus();
        // A heading is where a reader continues, not a control: no focus ring on it (Chromium,
        // Firefox; others ignore the option).
        else mainHeading()?.focus({ focusVisible: false } as FocusOptions);
      };
      restore();
      const fallback = document.activeElement;
      // The page may re-render after the dialog unmounts (login swaps Log in for the account; a card
      // re-creates its buttons): if focus then fell to the body, or to the heading because the
      // trigger was not back yet, put it back on the trigger's successor when there is one.
      requestAnimationFrame(() => {
        const active = document.activeElement;
        if (active === document.body || active === null || (active === fallback && fallback !== trigger))
          restore();
      });
    };
  }, [ref]);
}

/** The element now standing where `trigger` was: same id, else the one control of its kind with its name. */
function sameControl(trigger: HTMLElement | null): HTMLElement | null {
  if (!trigger || trigger === document.body) return null;
  if (trigger.id) return document.getElementById(trigger.id);
  const name = (element: Element) =>
    `${element.getAttribute("aria-label") ?? ""}|${(element.textContent ?? "").trim()}`;
  const wanted = name(trigger);
  if (wanted === "|") return null;
  const matches = Array.from(document.querySelectorAll<HTMLElement>(trigger.tagName)).filter(
    (element) => name(element) === wanted,
  );
  return matches.length === 1 ? (matches[0] ?? null) : null;
}

/** The page's main heading (made programmatically focusable), where a reader continues. */
function mainHeading(): HTMLElement | null {
  // In order of preference (one selector list would pick whichever comes first in the page).
  const heading =
    ["main h1", "h1", "main", "[role='main']"]
      .map((selector) => document.querySelector<HTMLElement>(selector))
      .find((element) => element !== null) ?? null;
  if (heading && !heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
  return heading;
}
