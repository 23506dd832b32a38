import type { ReactNode } from "react";
import { ScreenTitle } from "./ScreenTitle";

/** Props of {@link EntryScreen}. */
export interface EntryScreenProps {
  title: string;
  subtitle: ReactNode;
  titleId?: string | undefined;
  /** Why the form cannot be used (an update without a current address or number, spec §5); hides it. */
  blocked?: string | null;
  /** Shows a Back button (login: back to the list of methods). */
  onBack?: (() => void) | undefined;
  /** The form: an email address or a phone number to send a code to. */
  children: ReactNode;
}

/** The frame of the screens where a code's destination is typed: title, subtitle, the form or why not, Back. */
export function EntryScreen({
  title,
  subtitle,
  titleId,
  blocked = null,
  onBack,
  children,
}: EntryScreenProps) {
  return (
    <>
      <ScreenTitle id={titleId} focus={blocked !== null}>
        {title}
      </ScreenTitle>
      <p className="symbolon-subtitle">{subtitle}</p>
      {blocked !== null ? (
        <p role="alert" className="symbolon-alert">
          {blocked}
        </p>
      ) : (
        children
      )}
      {onBack && (
        <button type="button" className="symbolon-link" onClick={onBack}>
          Back
        </button>
      )}
    </>
  );
}
