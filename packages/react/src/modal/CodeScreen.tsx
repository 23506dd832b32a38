import { type Client, codeRefusal, describeError, needsNewCode } from "@symbolon/core";
import { useEffect, useRef, useState } from "react";
import { sendCode, submitCode } from "./accountActions";
import { CodeInput, type CodeInputHandle } from "./CodeInput";
import type { CodeActions } from "./flows/createCodeActions";
import type { AccountFlowKind, CodeChannel } from "./flows/signInTypes";
import { ResendButton } from "./ResendButton";
import { ScreenTitle } from "./ScreenTitle";

/** Props of {@link CodeScreen}. */
export interface CodeScreenProps {
  client: Client;
  actions: CodeActions;
  /** Log in, link or update: which call the code is submitted to. */
  flow: AccountFlowKind;
  /** Where the code went: an email or a text message. */
  channel: CodeChannel;
  /** The address or (E.164) number the code went to. */
  to: string;
  appName: string;
  titleId?: string | undefined;
  /** When a new code may be asked for again (epoch ms), if it must wait. */
  resendWaitUntil: number | null;
}

/**
 * Six digit boxes; submits by itself once all six are filled. A wrong code says how many tries
 * are left; a code that can no longer work (used up, expired) says so and moves focus to Resend.
 * A refusal with a screen of its own (allowlist, user limit, transfer, …) goes there.
 */
export function CodeScreen({
  client,
  actions,
  flow,
  channel,
  to,
  appName,
  titleId,
  resendWaitUntil,
}: CodeScreenProps) {
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
      const outcome = await submitCode(client, flow, channel, to, code);
      if (outcome.type === "login") actions.succeed(outcome.result);
      else actions.accountSaved(outcome.user);
    } catch (error) {
      setSubmitting(false);
      if (actions.refuse(error)) return;
      const refusal = codeRefusal(error);
      setServerError(describeError(error));
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
      <ScreenTitle id={titleId}>Enter confirmation code</ScreenTitle>
      <p className="symbolon-subtitle">
        Check <strong>{to}</strong> for {channel === "email" ? "an email" : "a text message"} from {appName}{" "}
        and enter the code below.
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
          send={() => sendCode(client, channel, to)}
          primary={codeIsDead}
          waitUntil={resendWaitUntil}
          onWait={(seconds) => actions.waitBeforeResend(to, seconds)}
          onSent={() => {
            setCodeIsDead(false);
            setServerError(null);
          }}
          onError={setServerError}
        />
        <button type="button" className="symbolon-link" onClick={actions.changeAddress}>
          {channel === "email" ? "Change email" : "Change number"}
        </button>
      </div>
    </>
  );
}
