import { useRef, useState } from "react";
import { CodeInput, type CodeInputHandle } from "../CodeInput";
import { ScreenTitle } from "../ScreenTitle";
import { enrollErrorText } from "./enrollErrorText";

/** Props of {@link EnrollCodeStep}. */
export interface EnrollCodeStepProps {
  title: string;
  subtitle: string;
  titleId?: string | undefined;
  /** Submits the six digits; resolves once the method is on. */
  submit: (code: string) => Promise<void>;
  onBack: () => void;
}

/** The 6-digit code that turns a method on (SMS, authenticator app): a refused code clears the boxes. */
export function EnrollCodeStep({ title, subtitle, titleId, submit, onBack }: EnrollCodeStepProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<CodeInputHandle>(null);
  const complete = async (code: string) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await submit(code);
    } catch (failure) {
      setBusy(false);
      setError(enrollErrorText(failure));
      input.current?.reset();
    }
  };
  return (
    <div className="symbolon-form">
      <ScreenTitle id={titleId}>{title}</ScreenTitle>
      <p className="symbolon-subtitle">{subtitle}</p>
      <CodeInput
        ref={input}
        busy={busy}
        serverError={error}
        onChange={() => setError(null)}
        onComplete={(code) => void complete(code)}
      />
      {busy && (
        <p className="symbolon-status" role="status">
          Verifying…
        </p>
      )}
      <button type="button" className="symbolon-link" onClick={onBack}>
        Back
      </button>
    </div>
  );
}
