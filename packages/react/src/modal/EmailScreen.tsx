import type { Client } from "@symbolon/core";
import type { ReactNode } from "react";
import { EmailForm } from "./EmailForm";
import { EntryScreen } from "./EntryScreen";
import type { SendCodeActions } from "./flows/createCodeActions";

/** Props of {@link EmailScreen}. */
export interface EmailScreenProps {
  client: Client;
  actions: SendCodeActions;
  title: string;
  subtitle: ReactNode;
  titleId?: string | undefined;
  /** The app refuses addresses containing '+' (app config). */
  disablePlusEmails: boolean;
  /** The address to start from (coming back with "Change email"). */
  initialEmail?: string;
  placeholder?: string | undefined;
  /** The address being replaced (update): entering it again is refused before any code is sent. */
  current?: string | undefined;
  /** Why the form cannot be used (an update without a current email, spec §5); hides the form. */
  blocked?: string | null;
  /** Shows a Back button (login: back to the list of methods). */
  onBack?: (() => void) | undefined;
}

/** An email address to send a code to: login (chosen from the list), link, or update. */
export function EmailScreen({
  client,
  actions,
  title,
  subtitle,
  titleId,
  disablePlusEmails,
  initialEmail,
  placeholder,
  current,
  blocked = null,
  onBack,
}: EmailScreenProps) {
  return (
    <EntryScreen title={title} subtitle={subtitle} titleId={titleId} blocked={blocked} onBack={onBack}>
      <EmailForm
        client={client}
        actions={actions}
        disablePlusEmails={disablePlusEmails}
        {...(initialEmail !== undefined && { initialEmail })}
        {...(placeholder !== undefined && { placeholder })}
        {...(current !== undefined && { current })}
      />
    </EntryScreen>
  );
}
