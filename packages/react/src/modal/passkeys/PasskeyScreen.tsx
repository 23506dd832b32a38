import type { Client, PasskeyFlowStatus } from "@symbolon/core";
import { useRef, useState } from "react";
import { useClientState } from "../../hooks/useClientState";
import type { PasskeyLoginActions } from "../flows/passkeyLogin";
import { PasskeyGlyph } from "../methodGlyphs";
import { ScreenTitle } from "../ScreenTitle";
import { runPasskeyLogin } from "./passkeyActions";
import { passkeyErrorText } from "./passkeyErrorText";

/** Props of {@link PasskeyScreen}. */
export interface PasskeyScreenProps {
  client: Client;
  actions: PasskeyLoginActions;
  titleId: string;
  /** Back to the login screen. */
  onBack?: (() => void) | undefined;
}

/** What each step of the spec §4 passkey flow tells the person (announced as it changes). */
export const PASSKEY_STEPS: Record<Exclude<PasskeyFlowStatus, "error">, string> = {
  initial: "Getting your passkey request ready…",
  "generating-challenge": "Getting your passkey request ready…",
  "awaiting-passkey": "Use your passkey in the browser's prompt to continue",
  "submitting-response": "Checking your passkey…",
  done: "Done",
};

type Intent = "login" | "signup";

const TITLES: Record<Intent, { busy: string; failed: string; other: string }> = {
  login: {
    busy: "Log in with a passkey",
    failed: "Could not log in with a passkey",
    other: "Sign up with a passkey",
  },
  signup: {
    busy: "Sign up with a passkey",
    failed: "Could not sign up with a passkey",
    other: "Log in with a passkey",
  },
};

/**
 * Log in with a passkey or sign up with a new one (spec §4 passkey flow: generating-challenge,
 * awaiting-passkey, done or error). The screen opens on the choice, so no browser prompt appears before
 * the person says which they want (a new user would otherwise meet a failed login first). A failure
 * shows the spec §8 line ('Passkey request timed out or rejected by user.', 'Unknown error occurred.')
 * with Try again; "Sign up with a passkey" / "Log in with a passkey" switch between the two. Loaded
 * lazily.
 */
export default function PasskeyScreen({ client, actions, titleId, onBack }: PasskeyScreenProps) {
  const flow = useClientState("PasskeyScreen", (s) => s.passkeyFlow, null);
  const [intent, setIntent] = useState<Intent | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Answers of a run superseded by a newer one (switching to sign-up mid-prompt) are ignored.
  const run = useRef(0);

  const start = async (next: Intent) => {
    const turn = ++run.current;
    setIntent(next);
    setError(null);
    try {
      const result = await runPasskeyLogin(client, next);
      if (turn === run.current) actions.succeed(result);
    } catch (failure) {
      if (turn !== run.current) return;
      if (!actions.refuse(failure)) setError(passkeyErrorText(failure));
    }
  };

  const back = onBack && (
    <button type="button" className="symbolon-link" onClick={onBack}>
      Back
    </button>
  );
  if (intent === null) {
    return (
      <div className="symbolon-form">
        <div className="symbolon-success">
          <PasskeyGlyph size={48} />
          <ScreenTitle id={titleId} focus>
            Continue with a passkey
          </ScreenTitle>
          <p className="symbolon-subtitle">
            Use your face, fingerprint or device PIN. New here? Create a passkey to sign up.
          </p>
        </div>
        <button type="button" className="symbolon-button" onClick={() => void start("login")}>
          Log in with a passkey
        </button>
        <button type="button" className="symbolon-secondary" onClick={() => void start("signup")}>
          Sign up with a passkey
        </button>
        {back}
      </div>
    );
  }

  const titles = TITLES[intent];
  const other: Intent = intent === "login" ? "signup" : "login";
  const status: PasskeyFlowStatus =
    error !== null ? "error" : flow && flow.intent === intent ? flow.status : "generating-challenge";
  return (
    <div className="symbolon-form">
      <div className="symbolon-success">
        {status === "error" ? (
          <span className="symbolon-check symbolon-failed" aria-hidden="true">
            !
          </span>
        ) : (
          <span className="symbolon-spinner" aria-hidden="true" />
        )}
        {/* Keyed: a failure (or the other intent) remounts the title, which takes focus again. */}
        <ScreenTitle key={`${intent}:${status === "error"}`} id={titleId} focus>
          {status === "error" ? titles.failed : titles.busy}
        </ScreenTitle>
        {status === "error" ? (
          <p className="symbolon-alert" role="alert">
            {error}
          </p>
        ) : (
          <p className="symbolon-status" role="status" aria-live="polite">
            {PASSKEY_STEPS[status]}
          </p>
        )}
      </div>
      {status === "error" && (
        <button type="button" className="symbolon-button" onClick={() => void start(intent)}>
          Try again
        </button>
      )}
      <button type="button" className="symbolon-secondary" onClick={() => void start(other)}>
        {titles.other}
      </button>
      {back}
    </div>
  );
}
