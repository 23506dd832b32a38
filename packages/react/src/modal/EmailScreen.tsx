import { type Client, describeError, PLUS_EMAIL_MESSAGE, sendEmailCode, validateEmail } from "@symbolon/core";
import { useId, useState } from "react";
import type { ModalController } from "../provider/createModalController";
import { DIALOG_NAME } from "./ModalFrame";

/** Props of {@link EmailScreen}. */
export interface EmailScreenProps {
  client: Client;
  controller: ModalController;
  appName: string;
  /** The app refuses addresses containing '+' (app config). */
  disablePlusEmails: boolean;
  /** The address to start from (coming back with "Change email"). */
  initialEmail?: string;
  /** `appearance.landingHeader`: the title instead of "Log in or sign up". */
  header?: string | undefined;
  /** `appearance.loginMessage`: the line under the title. */
  message?: string | undefined;
}

/** First screen: asks for an email address and sends the code. */
export function EmailScreen({
  client,
  controller,
  appName,
  disablePlusEmails,
  initialEmail = "",
  header,
  message: loginMessage,
}: EmailScreenProps) {
  const [email, setEmail] = useState(initialEmail);
  // An address being typed is not wrong yet: its message waits for the field to lose focus or for
  // a submit (then it follows every keystroke). A '+' the app refuses is wrong at once.
  const [checked, setChecked] = useState(initialEmail !== "");
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const inputId = useId();
  const alertId = useId();
  // Spec §5: an invalid address (or a '+' when the app refuses them) keeps submit disabled.
  const invalid = validateEmail(email, { disablePlusEmails });
  const plusRefused = disablePlusEmails && (email.split("@")[0] ?? "").includes("+");
  const early = plusRefused ? PLUS_EMAIL_MESSAGE : null;
  const message = email.trim() === "" ? null : ((checked ? invalid : early) ?? serverError);
  const canSubmit = email.trim() !== "" && invalid === null && !submitting;

  const submit = async () => {
    setChecked(true);
    if (!canSubmit) return;
    const address = email.trim();
    setSubmitting(true);
    setServerError(null);
    try {
      await sendEmailCode(client, { email: address });
      controller.codeSent(address);
    } catch (error) {
      setServerError(describeError(error));
      setSubmitting(false);
    }
  };

  return (
    <>
      <h2 className="symbolon-title">{header ?? DIALOG_NAME}</h2>
      <p className="symbolon-subtitle">{loginMessage ?? `Enter your email to continue to ${appName}.`}</p>
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
          id={inputId}
          className="symbolon-input"
          type="email"
          inputMode="email"
          autoComplete="email"
          placeholder="you@example.com"
          data-autofocus
          value={email}
          aria-invalid={message !== null}
          aria-describedby={message ? alertId : undefined}
          onChange={(event) => {
            setEmail(event.target.value);
            setServerError(null);
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
    </>
  );
}
