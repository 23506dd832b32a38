import { useState } from "react";

/** Props of {@link LogoutButton}. */
export interface LogoutButtonProps {
  /** A guest's logout ends the guest account for good: it asks first. */
  isGuest: boolean;
  onLogout: () => void;
}

/**
 * "Log out". A guest has no way back in (the guest credential lives in this browser and goes with the session), so
 * their logout warns that the guest account and its wallet will be lost and waits for a second, explicit choice.
 */
export function LogoutButton({ isGuest, onLogout }: LogoutButtonProps) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming)
    return (
      <button
        type="button"
        className="button button--ghost"
        onClick={() => (isGuest ? setConfirming(true) : onLogout())}
      >
        Log out
      </button>
    );
  return (
    <div className="confirm">
      <p role="alert" className="confirm__text">
        Logging out ends this guest account: the account and its wallet, with any funds in it, are lost for
        good. Log in with email or another method first to keep them.
      </p>
      <div className="confirm__actions">
        <button type="button" className="button button--small button--danger" onClick={onLogout}>
          Log out and lose the guest account
        </button>
        <button
          type="button"
          className="button button--small button--ghost"
          // biome-ignore lint/a11y/noAutofocus: the choice just asked for; focus moves to the safe answer.
          autoFocus
          onClick={() => setConfirming(false)}
        >
          Stay signed in
        </button>
      </div>
    </div>
  );
}
