import { type Client, describeError } from "@symbolon/core";
import { useState } from "react";
import { sendCode } from "./accountActions";
import type { SendCodeActions } from "./flows/createCodeActions";
import type { CodeChannel } from "./flows/signInTypes";

/**
 * Sending a code from a form (email or phone): busy while it goes, then the code screen; a refusal
 * the modal has a screen for goes there, any other shows under the field.
 */
export function useSendCode(
  client: Client,
  channel: CodeChannel,
  /**
   * The code flow (its code screen next, or a refusal's screen), or another way to send the code (the MFA
   * enrolment's phone), whose failure shows under the field.
   */
  via: SendCodeActions | ((to: string) => Promise<void>),
) {
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const send = async (to: string) => {
    setSubmitting(true);
    setServerError(null);
    try {
      if (typeof via === "function") {
        await via(to);
        setSubmitting(false);
        return;
      }
      await sendCode(client, channel, to);
      via.codeSent(to, channel);
    } catch (error) {
      setSubmitting(false);
      if (typeof via === "function" || !via.refuse(error)) setServerError(describeError(error));
    }
  };
  return { submitting, serverError, clearServerError: () => setServerError(null), send };
}
