import type { OAuthFlowStatus } from "@symbolon/core";
import { oauthErrorDetail } from "./oauthErrorDetail";
import { ScreenTitle } from "./ScreenTitle";

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
      <div className="symbolon-form">
        <div className="symbolon-success">
          <span className="symbolon-check symbolon-failed" aria-hidden="true">
            !
          </span>
          <ScreenTitle id={titleId} focus>
            Authentication failed
          </ScreenTitle>
          <p className="symbolon-subtitle" role="alert">
            {detail}
          </p>
        </div>
        {retryable && (
          <button type="button" className="symbolon-button" onClick={onRetry}>
            Retry
          </button>
        )}
      </div>
    );
  }
  const done = status === "done";
  return (
    <div className="symbolon-success" role="status">
      {done ? (
        <span className="symbolon-check" aria-hidden="true">
          ✓
        </span>
      ) : (
        <span className="symbolon-spinner" aria-hidden="true" />
      )}
      <ScreenTitle id={titleId} focus>
        {done ? `Successfully connected with ${provider}` : `Verifying connection to ${provider}`}
      </ScreenTitle>
      <p className="symbolon-subtitle">{done ? "You're good to go!" : "Just a few moments more"}</p>
    </div>
  );
}
