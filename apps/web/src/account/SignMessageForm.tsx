import { useId, useState } from "react";
import { CopyButton } from "./CopyButton";
import { useSignature } from "./useSignature";
import { validateMessage } from "./validate";

/** Props of {@link SignMessageForm}. */
export interface SignMessageFormProps {
  /** Signs with the wallet (after the user confirms in the modal). */
  sign: (message: string) => Promise<{ signature: string }>;
}

/** A message box and "Sign message"; shows the signature or why there is none. */
export function SignMessageForm({ sign }: SignMessageFormProps) {
  const [message, setMessage] = useState("");
  const { signing, signature, error, run, refuse, clearError } = useSignature();
  const inputId = useId();
  const errorId = useId();

  const submit = async () => {
    if (signing) return;
    // Spec §5: checked here and shown inline, so the user never sees a thrown error.
    const invalid = validateMessage(message);
    if (invalid) refuse(invalid);
    else await run(() => sign(message));
  };

  return (
    <form
      className="wallet-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h3 className="wallet-form__title">Sign a message</h3>
      <label className="field__label" htmlFor={inputId}>
        Message
      </label>
      <textarea
        id={inputId}
        className="field__input field__input--area"
        rows={3}
        value={message}
        aria-invalid={error !== null}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => {
          setMessage(event.target.value);
          clearError();
        }}
      />
      {error && (
        <p id={errorId} role="alert" className="field__error">
          {error}
        </p>
      )}
      {/* aria-disabled, not disabled: focus stays on the button, so it comes back here after the confirmation. */}
      <button type="submit" className="button button--small" aria-disabled={signing}>
        Sign message
      </button>
      {signature && (
        <p className="wallet-result">
          <span className="wallet-result__label">Signature</span>
          <code data-testid="signature">{signature}</code>
          <CopyButton text={signature} label="Copy signature" />
        </p>
      )}
    </form>
  );
}
