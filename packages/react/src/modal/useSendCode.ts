import { type Client, describeError } from "@symbolon/core";
import { useState } from "react";
import type { CodeChannel, ModalController } from "../provider/createModalController";
import { sendCode } from "./accountActions";

/**
 * Sending a code from a form (email or phone): busy while it goes, then the code screen; a refusal
 * the modal has a screen for goes there, any other shows under the field.
 */
export function useSendCode(
  client: Client,
  controller: ModalController,
  channel: CodeChannel,
  /** Sends the code another way (the MFA enrolment's phone); its failure shows under the field. */
  deliver?: (to: string) => Promise<void>,
) {
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const send = async (to: string) => {
    setSubmitting(true);
    setServerError(null);
    try {
      if (deliver) {
        await deliver(to);
        setSubmitting(false);
        return;
      }
      await sendCode(client, channel, to);
      controller.codeSent(to, channel);
    } catch (error) {
      setSubmitting(false);
      if (deliver || !controller.refuse(error)) setServerError(describeError(error));
    }
  };
  return { submitting, serverError, clearServerError: () => setServerError(null), send };
}
