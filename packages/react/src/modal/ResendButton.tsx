import { describeError, isApiError, OTP_RESEND_COOLDOWN_S } from "@symbolon/core";
import { type Ref, useEffect, useState } from "react";
import { formatWait } from "./formatWait";

/** Seconds the Resend button waits after a resend (the server's per-address cooldown). */
export const RESEND_COOLDOWN_S = OTP_RESEND_COOLDOWN_S;

/** Props of {@link ResendButton}. */
export interface ResendButtonProps {
  ref?: Ref<HTMLButtonElement>;
  /** Sends a new code (by email or text message). */
  send: () => Promise<void>;
  /** When a new code may be asked for again (epoch ms); kept by the code flow across a close and reopen. */
  waitUntil: number | null;
  /** A resend is refused for `seconds` (after a resend, or the server's Retry-After). */
  onWait: (seconds: number) => void;
  /** A new code was sent. */
  onSent: () => void;
  onError: (message: string | null) => void;
  /** The code on screen can no longer work: show the button as the main action. */
  primary?: boolean;
}

const secondsUntil = (until: number | null) =>
  until === null ? 0 : Math.max(0, Math.ceil((until - Date.now()) / 1000));

/**
 * 'Resend code' with a short wait so a person cannot flood their inbox or phone. While it waits (after a resend,
 * or for the server's `Retry-After`) the wait is shown under it and the button is disabled for pointer and assistive
 * technology alike: `aria-disabled`, not `disabled`, so a keyboard user who pressed it (or whom a dead code sent
 * to it) keeps focus on it. A 429 (the server's cooldown from the first send, say right after 'No attempts
 * left') only starts that wait; it is never shown as an error.
 */
export function ResendButton({ ref, send, waitUntil, onWait, onSent, onError, primary }: ResendButtonProps) {
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [, tick] = useState(0);
  const wait = secondsUntil(waitUntil);

  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => tick((n) => n + 1), 1000);
    return () => clearTimeout(timer);
  });

  const resend = async () => {
    if (sending || wait > 0) return;
    setSending(true);
    onError(null);
    try {
      await send();
      onWait(RESEND_COOLDOWN_S);
      setSent(true);
      onSent();
    } catch (error) {
      if (isApiError(error) && error.retryAfterSeconds !== undefined) {
        onWait(error.retryAfterSeconds);
        // A resend that came too soon is not a failure: the countdown under the button says when to ask again.
        if (error.code === "too_many_requests") {
          onError(null);
          return;
        }
      }
      onError(describeError(error));
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <button
        ref={ref}
        type="button"
        className={primary ? "symbolon-button" : "symbolon-link"}
        aria-disabled={sending || wait > 0}
        onClick={() => void resend()}
      >
        Resend code
      </button>
      {wait > 0 && (
        <p className="symbolon-status" role="status">
          {sent ? "A new code was sent. " : ""}You can ask for another code in {formatWait(wait)}.
        </p>
      )}
    </>
  );
}
