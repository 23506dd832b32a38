import type { Client } from "@symbolon/core";
import type { ReactNode } from "react";
import { EntryScreen } from "./EntryScreen";
import type { SendCodeActions } from "./flows/createCodeActions";
import { PhoneForm } from "./PhoneForm";

export { PhoneForm };

/** Props of {@link PhoneScreen}. */
export interface PhoneScreenProps {
  client: Client;
  actions: SendCodeActions;
  title: string;
  subtitle: ReactNode;
  titleId?: string | undefined;
  /** 'Submit' (login, add phone) or 'Update' (update phone, spec §2). */
  submitLabel?: string;
  /** The number to start from (coming back with "Change number"). */
  initialNumber?: string;
  /** Why the form cannot be used (an update without a current number, spec §5); hides the form. */
  blocked?: string | null;
  /** Shows a Back button (login: back to the list of methods). */
  onBack?: (() => void) | undefined;
}

/** A phone number to text a code to: login (chosen from the list), link, or update. Loaded lazily. */
export default function PhoneScreen({
  client,
  actions,
  title,
  subtitle,
  titleId,
  submitLabel,
  initialNumber,
  blocked = null,
  onBack,
}: PhoneScreenProps) {
  return (
    <EntryScreen title={title} subtitle={subtitle} titleId={titleId} blocked={blocked} onBack={onBack}>
      <PhoneForm
        client={client}
        via={actions}
        {...(submitLabel !== undefined && { submitLabel })}
        {...(initialNumber !== undefined && { initialNumber })}
      />
    </EntryScreen>
  );
}
