import { type Client, PLUS_EMAIL_MESSAGE, validateEmail } from "@symbolon/core";
import { useEffect, useId, useRef, useState } from "react";
import type { SendCodeActions } from "./flows/createCodeActions";
import { useSendCode } from "./useSendCode";

/** Props of {@link EmailForm}. */
export interface EmailFormProps {
  client: Client;
  actions: SendCodeActions;
  /** The app refuses addresses containing '+' (app config). */
  disablePlusEmails: boolean;
  /** The address to start from (coming back with "Change email"). */
  initialEmail?: string;
  /** Default "you@example.com"; the update screen shows the current address. */
  placeholder?: string;
  /** Focus the field when the form appears. */
  autoFocus?: boolean;
  /** The address an update replaces: entering it again is refused at once, before a code is sent. */
  current?: string;
}

/** The update screen's line when the new address is the current one. */
export const SAME_EMAIL_MESSAGE = "This is already your email address. Enter a different one.";

/** An email address field and Submit (Enter submits); sends the code and shows the code screen. */
export function EmailForm({
  client,
  actions,
  disablePlusEmails,
  initialEmail = "",
  placeholder = "you@example.com",
  autoFocus = true,
  current,
}: EmailFormProps) {
  const [email, setEmail] = useState(initialEmail);
  // An address being typed is not wrong yet: its message waits for the field to lose focus or for
  // a submit (then it follows every keystroke). A '+' the app refuses is wrong at once.
  const [checked, setChecked] = useState(initialEmail !== "");
  const { submitting, serverError, clearServerError, send } = useSendCode(client, "email", actions);
  const inputId = useId();
  const field = useRef<HTMLInputElement>(null);
  // A form that appears in an open dialog (another screen before it) takes focus itself; on the
  // dialog's first frame the focus trap does it (`data-autofocus`), after recording the trigger.
  useEffect(() => {
    if (autoFocus) field.current?.focus();
  }, [autoFocus]);
  const alertId = useId();
  // Spec §5: an invalid address (or a '+' when the app refuses them) keeps submit disabled.
  const invalid = validateEmail(email, { disablePlusEmails });
  const plusRefused = disablePlusEmails && (email.split("@")[0] ?? "").includes("+");
  const same = current !== undefined && email.trim().toLowerCase() === current.trim().toLowerCase();
  const early = plusRefused ? PLUS_EMAIL_MESSAGE : same ? SAME_EMAIL_MESSAGE : null;
  const message = email.trim() === "" ? null : ((checked ? (invalid ?? early) : early) ?? serverError);
  const canSubmit = email.trim() !== "" && invalid === null && !same && !submitting;

  const submit = async () => {
    setChecked(true);
    if (!canSubmit) return;
    await send(email.trim());
  };

  return (
    <form
      className="symbolon-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label className="symbolon-label" htmlFor={inputId}>
        Email address
      </label>
      <input
        ref={field}
        id={inputId}
        className="symbolon-input"
        type="email"
        inputMode="email"
        autoComplete="email"
        placeholder={placeholder}
        data-autofocus={autoFocus || undefined}
        value={email}
        aria-invalid={message !== null}
        aria-describedby={message ? alertId : undefined}
        onChange={(event) => {
          setEmail(event.target.value);
          clearServerError();
        }}
        onBlur={() => setChecked(email.trim() !== "")}
      />
      {message && (
        <p id={alertId} role="alert" className="symbolon-alert">
          {message}
        </p>
      )}
      <button type="submit" className="symbolon-button" disabled={!canSubmit}>
        {submitting ? "Submitting" : "Submit"}
      </button>
    </form>
  );
}
