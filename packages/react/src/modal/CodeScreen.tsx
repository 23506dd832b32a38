import { type Client, describeError, loginWithEmailCode } from "@symbolon/core";
import { useRef, useState } from "react";
import type { ModalController } from "../provider/createModalController";
import { CodeInput, type CodeInputHandle } from "./CodeInput";
import { ResendButton } from "./ResendButton";

/** Props of {@link CodeScreen}. */
export interface CodeScreenProps {
  client: Client;
  controller: ModalController;
  email: string;
  appName: string;
}

/** Second screen: six digit boxes; submits by itself once all six are filled. */
export function CodeScreen({ client, controller, email, appName }: CodeScreenProps) {
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const input = useRef<CodeInputHandle>(null);

  const submit = async (code: string) => {
    if (submitting) return;
    setSubmitting(true);
    setServerError(null);
    try {
      const result = await loginWithEmailCode(client, { code, email });
      controller.succeed(result);
    } catch (error) {
      setServerError(describeError(error));
      setSubmitting(false);
      // After a wrong code the boxes clear and the user starts again at Digit 1.
      input.current?.reset();
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
        <ResendButton client={client} email={email} onError={setServerError} />
      </div>
    </>
  );
}
