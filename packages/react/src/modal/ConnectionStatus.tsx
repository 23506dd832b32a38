import { ScreenTitle } from "./ScreenTitle";

/**
 * A connection in progress or done (OAuth, cross-app): a spinner or a check, the title and one line,
 * announced as a status.
 */
export function ConnectionProgress({
  done,
  title,
  subtitle,
  titleId,
}: {
  done: boolean;
  title: string;
  subtitle: string;
  titleId?: string | undefined;
}) {
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
        {title}
      </ScreenTitle>
      <p className="symbolon-subtitle">{subtitle}</p>
    </div>
  );
}

/**
 * A failed or cancelled connection: the title, the spec §8 line as an alert (a calm status when the
 * person cancelled), Retry when `onRetry` is given, and Back to the other methods when `onBack` is.
 */
export function ConnectionFailed({
  title,
  detail,
  onRetry,
  onBack,
  retryDisabled = false,
  cancelled = false,
  note,
  titleId,
}: {
  title: string;
  detail: string;
  onRetry?: (() => void) | undefined;
  onBack?: (() => void) | undefined;
  /** Retry is shown but not yet usable (a rate limit's wait is running). */
  retryDisabled?: boolean;
  /** The person stopped it (denied at the provider, closed the window): no error styling. */
  cancelled?: boolean;
  /** A line under the detail that may change (a countdown); not announced. */
  note?: string | undefined;
  titleId?: string | undefined;
}) {
  return (
    <div className="symbolon-form">
      <div className="symbolon-success">
        {cancelled ? (
          <span className="symbolon-check symbolon-cancelled" aria-hidden="true">
            ↺
          </span>
        ) : (
          <span className="symbolon-check symbolon-failed" aria-hidden="true">
            !
          </span>
        )}
        <ScreenTitle id={titleId} focus>
          {title}
        </ScreenTitle>
        <p className="symbolon-subtitle" role={cancelled ? "status" : "alert"}>
          {detail}
        </p>
        {note && <p className="symbolon-status">{note}</p>}
      </div>
      {onRetry && (
        <button type="button" className="symbolon-button" onClick={onRetry} disabled={retryDisabled}>
          {cancelled ? "Try again" : "Retry"}
        </button>
      )}
      {onBack && (
        <button type="button" className="symbolon-secondary" onClick={onBack}>
          Back to login options
        </button>
      )}
    </div>
  );
}
