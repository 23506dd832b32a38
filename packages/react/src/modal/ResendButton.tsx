import { type Client, describeError, sendEmailCode } from "@symbolon/core";
import { useEffect, useState } from "react";

/** Seconds the Resend button stays disabled after a resend. */
export const RESEND_COOLDOWN_S = 20;

/** Props of {@link ResendButton}. */
export interface ResendButtonProps {
  client: Client;
  email: string;
  onError: (message: string | null) => void;
}

/** 'Resend code' with a short cooldown so a person cannot flood their inbox. */
export function ResendButton({ client, email, onError }: ResendButtonProps) {
  const [sending, setSending] = useState(false);
  const [cooldown, setCooldown] = useState(0);

  useEffect(() => {
    if (cooldown <= 0) return;
    const timer = setTimeout(() => setCooldown((seconds) => seconds - 1), 1000);
    return () => clearTimeout(timer);
  }, [cooldown]);

  const resend = async () => {
    setSending(true);
    onError(null);
    try {
      await sendEmailCode(client, { email });
      setCooldown(RESEND_COOLDOWN_S);
    } catch (error) {
      onError(describeError(error));
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <button
        type="button"
        className="symbolon-link"
        disabled={sending || cooldown > 0}
        onClick={() => void resend()}
      >
        Resend code
      </button>
      {cooldown > 0 && (
        <p className="symbolon-status" role="status">
          A new code was sent. You can ask again in {cooldown} s.
        </p>
      )}
    </>
  );
}
