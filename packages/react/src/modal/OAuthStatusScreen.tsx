import type { OAuthFlowStatus } from "@symbolon/core";
import { ConnectionFailed, ConnectionProgress } from "./ConnectionStatus";
import { oauthErrorDetail } from "./oauthErrorDetail";

/** Props of {@link OAuthStatusScreen}. */
export interface OAuthStatusScreenProps {
  /** The provider's display name ("Google"). */
  provider: string;
  status: OAuthFlowStatus;
  error: unknown;
  /** Starts the same provider's flow again (shown when the error is retryable). */
  onRetry: () => void;
  titleId?: string | undefined;
}

/**
 * The OAuth connection status (spec §2): verifying, connected, or 'Authentication failed' with the
 * spec §8 line and Retry when retrying can help. Status changes are announced (role=status / alert).
 * Loaded lazily.
 */
export default function OAuthStatusScreen({
  provider,
  status,
  error,
  onRetry,
  titleId,
}: OAuthStatusScreenProps) {
  if (status === "error") {
    const { detail, retryable } = oauthErrorDetail(error, provider);
    return (
      <ConnectionFailed
        title="Authentication failed"
        detail={detail}
        onRetry={retryable ? onRetry : undefined}
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
