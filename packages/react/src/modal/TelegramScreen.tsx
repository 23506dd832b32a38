import type { TelegramActions } from "./flows/createTelegramFlow";
import { ScreenTitle } from "./ScreenTitle";

/** Props of {@link TelegramScreen}. */
export interface TelegramScreenProps {
  actions: TelegramActions;
  titleId: string;
  /** Why the last try failed, if it did. */
  error: string | null;
  onBack?: (() => void) | undefined;
}

/** While Telegram's window is open: what to do there; after a failure, the reason and a retry. */
export default function TelegramScreen({ actions, titleId, error, onBack }: TelegramScreenProps) {
  return (
    <>
      <ScreenTitle id={titleId}>
        {error ? "Could not log in with Telegram" : "Log in with Telegram"}
      </ScreenTitle>
      {error ? (
        <p className="symbolon-alert" role="alert">
          {error}
        </p>
      ) : (
        <p className="symbolon-subtitle" aria-live="polite">
          Confirm the login in the Telegram window.
        </p>
      )}
      <div className="symbolon-methods">
        {error && (
          <button type="button" className="symbolon-button" onClick={actions.startTelegram}>
            Try again
          </button>
        )}
        {onBack && (
          <button type="button" className="symbolon-secondary" onClick={onBack}>
            Back
          </button>
        )}
      </div>
    </>
  );
}
