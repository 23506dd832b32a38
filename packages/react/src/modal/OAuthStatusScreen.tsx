import type { OAuthFlowStatus } from "@symbolon/core";
import { useEffect, useState } from "react";
import { ConnectionFailed, ConnectionProgress } from "./ConnectionStatus";
import { formatWait } from "./formatWait";
import { oauthErrorDetail } from "./oauthErrorDetail";

/** Props of {@link OAuthStatusScreen}. */
export interface OAuthStatusScreenProps {
  /** The provider's display name ("Google"). */
  provider: string;
  status: OAuthFlowStatus;
  error: unknown;
  /** Starts the same provider's flow again (shown when the error is retryable). */
  onRetry: () => void;
  /** Back to the other login methods (login only; a link flow closes with ×). */
  onBack?: (() => void) | undefined;
  titleId?: string | undefined;
}

/**
 * The OAuth connection status (spec §2): verifying, connected, or 'Authentication failed' with the
 * spec §8 line and Retry when retrying can help (a cancel at the provider: a calm "login cancelled"
 * with Try again), and Back to the other methods in a login. Status changes are announced (role=status / alert).
 * Loaded lazily.
 */
export default function OAuthStatusScreen({
  provider,
  status,
  error,
  onRetry,
  onBack,
  titleId,
}: OAuthStatusScreenProps) {
  if (status === "error") {
    const { detail, retryable, retryAfterSeconds, cancelled } = oauthErrorDetail(error, provider);
    if (retryAfterSeconds !== undefined) {
      return (
        <RateLimited
          // A new refusal starts its own countdown.
          key={retryAfterSeconds}
          detail={detail}
          seconds={retryAfterSeconds}
          onRetry={onRetry}
          onBack={onBack}
          titleId={titleId}
        />
      );
    }
    return (
      <ConnectionFailed
        title={cancelled ? `${provider} login cancelled` : "Authentication failed"}
        detail={detail}
        cancelled={cancelled === true}
        onRetry={retryable ? onRetry : undefined}
        onBack={onBack}
        titleId={titleId}
      />
    );
  }
  const done = status === "done";
  return (
    <ConnectionProgress
      done={done}
      title={done ? `Successfully connected with ${provider}` : `Verifying connection to ${provider}`}
      subtitle={done ? "You're good to go!" : "Just a few moments more"}
      titleId={titleId}
    />
  );
}

/**
 * Our server's rate limit: under the spec's 'Too many requests. Please wait before trying again.' the wait counts
 * down ('Try again in 12 seconds.'), then Retry is usable. Retry is shown (disabled) during the wait so it does not
 * appear from nowhere; the countdown is not a live region (it would be read out every second).
 */
function RateLimited({
  detail,
  seconds,
  onRetry,
  onBack,
  titleId,
}: {
  detail: string;
  seconds: number;
  onRetry: () => void;
  onBack?: (() => void) | undefined;
  titleId?: string | undefined;
}) {
  const [until] = useState(() => Date.now() + seconds * 1000);
  const [now, setNow] = useState(() => Date.now());
  const left = Math.max(0, Math.ceil((until - now) / 1000));
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return (
    <ConnectionFailed
      title="Authentication failed"
      detail={detail}
      note={left > 0 ? `Try again in ${formatWait(left)}.` : "You can try again now."}
      onRetry={onRetry}
      onBack={onBack}
      retryDisabled={left > 0}
      titleId={titleId}
    />
  );
}
