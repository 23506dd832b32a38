import { type Client, codeRefusal, describeError, loginWithEmailCode, needsNewCode } from "@symbolon/core";
import { useEffect, useRef, useState } from "react";
import type { ModalController } from "../provider/createModalController";
import { CodeInput, type CodeInputHandle } from "./CodeInput";
import { ResendButton } from "./ResendButton";

/** Props of {@link CodeScreen}. */
export interface CodeScreenProps {
  client: Client;
  controller: ModalController;
  email: string;
  appName: string;
  /** When a new code may be asked for again (epoch ms), if it must wait. */
  resendWaitUntil: number | null;
}

/**
 * Second screen: six digit boxes; submits by itself once all six are filled. A wrong code says how
 * many tries are left; a code that can no longer work (used up, expired) says so and moves focus
 * to Resend.
 */
export function CodeScreen({ client, controller, email, appName, resendWaitUntil }: CodeScreenProps) {
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [codeIsDead, setCodeIsDead] = useState(false);
  // Counts refusals that need a new code, so each one moves focus to Resend (even a repeated one).
  const [deadRefusals, setDeadRefusals] = useState(0);
  const input = useRef<CodeInputHandle>(null);
  const resend = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (deadRefusals > 0) resend.current?.focus();
  }, [deadRefusals]);

  const submit = async (code: string) => {
    if (submitting) return;
    setSubmitting(true);
    setServerError(null);
    try {
      const result = await loginWithEmailCode(client, { code, email });
      controller.succeed(result);
    } catch (error) {
      const refusal = codeRefusal(error);
      setServerError(describeError(error));
      setSubmitting(false);
      // After a refused code the boxes clear; the user starts again at Digit 1, or, when this code
      // can no longer work, at Resend.
      input.current?.reset();
      const dead = needsNewCode(refusal);
      setCodeIsDead(dead);
      if (dead) setDeadRefusals((n) => n + 1);
    }
  };

  return (
    <>
      <h2 className="symbolon-title">Enter confirmation code</h2>
      <p className="symbolon-subtitle">
        Check <strong>{email}</strong> for an email from {appName} and enter the code below.
      </p>
      <div className="symbolon-form">
        <CodeInput
          ref={input}
          busy={submitting}
          serverError={serverError}
          onChange={() => setServerError(null)}
          onComplete={(code) => void submit(code)}
        />
        {submitting && (
          <p className="symbolon-status" role="status">
            Submitting
          </p>
        )}
        <ResendButton
          ref={resend}
          client={client}
          email={email}
          primary={codeIsDead}
          waitUntil={resendWaitUntil}
          onWait={(seconds) => controller.waitBeforeResend(email, seconds)}
          onSent={() => {
            setCodeIsDead(false);
            setServerError(null);
          }}
          onError={setServerError}
        />
        <button type="button" className="symbolon-link" onClick={controller.changeEmail}>
          Change email
        </button>
      </div>
    </>
  );
}
