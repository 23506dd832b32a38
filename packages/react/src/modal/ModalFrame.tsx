import { type CSSProperties, type ReactNode, type RefObject, useLayoutEffect, useRef } from "react";
import { createPortal } from "react-dom";
import { readableTextOn } from "./readableTextOn";
import { useFocusTrap } from "./useFocusTrap";

/** Accessible name of the login dialog (e2e/README.md). */
export const DIALOG_NAME = "Log in or sign up";

/** Props of {@link ModalFrame}. */
export interface ModalFrameProps {
  layout: "dialog" | "sheet";
  theme: "light" | "dark";
  accentColor?: string;
  /** Most the modal may grow to (compact 480 px for the email screens, full 620 px); content sizes it below. */
  height: number;
  /** Id of the screen's title; the dialog is then named by it instead of {@link DIALOG_NAME}. */
  labelledBy?: string;
  onClose: () => void;
  children: ReactNode;
}

/** The dialog shell: backdrop, focus trap, Escape and Close, rendered into `document.body`. */
export function ModalFrame({
  layout,
  theme,
  accentColor,
  height,
  labelledBy,
  onClose,
  children,
}: ModalFrameProps) {
  const ref = useRef<HTMLDivElement>(null);
  useFocusTrap(ref, onClose);
  useSteadyHeight(ref);
  const style = { "--symbolon-height": `${height}px` } as CSSProperties & Record<string, string>;
  if (accentColor) {
    style["--symbolon-accent"] = accentColor;
    // Text on the host's accent: white or near-black, whichever reads better on it.
    const text = readableTextOn(accentColor);
    if (text) style["--symbolon-accent-text"] = text;
  }
  return createPortal(
    // biome-ignore lint/a11y/noStaticElementInteractions: a pointer convenience; Escape and Close cover keyboards.
    <div
      className="symbolon-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-label={labelledBy ? undefined : DIALOG_NAME}
        aria-labelledby={labelledBy}
        data-state="open"
        data-layout={layout}
        data-theme={theme}
        className={`symbolon-modal symbolon-${theme}`}
        style={style}
      >
        <button type="button" className="symbolon-close" aria-label="Close" onClick={onClose}>
          <span aria-hidden="true">×</span>
        </button>
        {/* The screen scrolls inside the card; the close button and the footer stay in view. */}
        <div className="symbolon-body">{children}</div>
        <p className="symbolon-footer">Protected by Symbolon</p>
      </div>
    </div>,
    document.body,
  );
}

/**
 * Keeps the card at the tallest height it reached while open, so moving between screens (the entry
 * screen, then a shorter code screen) does not make it jump; never taller than the viewport allows.
 */
function useSteadyHeight(ref: RefObject<HTMLDivElement | null>): void {
  useLayoutEffect(() => {
    const card = ref.current;
    if (!card || typeof ResizeObserver === "undefined") return;
    let tallest = 0;
    const observer = new ResizeObserver(() => {
      // The layout height: a bounding box would be scaled by the opening animation.
      const height = card.offsetHeight;
      if (height <= tallest) return;
      tallest = height;
      card.style.minHeight = `min(${height}px, calc(100vh - 32px))`;
    });
    observer.observe(card);
    return () => observer.disconnect();
  }, [ref]);
}
