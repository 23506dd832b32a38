import { type ReactNode, useEffect, useRef } from "react";

/** Props of {@link ScreenTitle}. */
export interface ScreenTitleProps {
  /** Id the dialog is labelled by (link and update flows). */
  id?: string | undefined;
  /**
   * Move keyboard focus here when the screen appears: screens without a field to type in, so a
   * keyboard or screen-reader user starts reading the new screen at its top.
   */
  focus?: boolean;
  children: ReactNode;
}

/** A screen's title: an `h2` that can take focus programmatically (not in the Tab order). */
// An effect, not a layout effect: on the dialog's first frame the focus trap records the trigger first.
export function ScreenTitle({ id, focus = false, children }: ScreenTitleProps) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  return (
    <h2 ref={ref} id={id} tabIndex={-1} className="symbolon-title">
      {children}
    </h2>
  );
}
