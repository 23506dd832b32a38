import type { Client } from "@symbolon/core";
import { useEffect, useRef, useState } from "react";
import { useClientState } from "../../hooks/useClientState";
import { CodeInput, type CodeInputHandle } from "../CodeInput";
import { ScreenTitle } from "../ScreenTitle";
import { initMfa, submitMfa } from "./mfaActions";
import { isMfaMethod, MFA_METHOD_LABELS, type MfaMethod } from "./mfaMethods";
import { mfaErrorText } from "./mfaTexts";
import { useSecurityStyles } from "./securityStyles";

/** Accessible name of the verification screen's title (and of the dialog showing it). */
export const MFA_VERIFY_TITLE = "Verify your identity";

/** Props of {@link MfaVerifyScreen}. */
export interface MfaVerifyScreenProps {
  client: Client;
  titleId?: string | undefined;
  /** Close (after a blocking refusal: the only way on). */
  onClose: () => void;
  /** Inside the enrolment: Back cancels the verification ('Verification canceled' there). */
  onBack?: (() => void) | undefined;
}

type Busy = "starting" | "submitting" | null;

const SUBTITLES: Record<MfaMethod, string> = {
  totp: "Enter the 6-digit code from your authenticator app.",
  sms: "Enter the 6-digit code we sent to your phone.",
  passkey: "Use your passkey to confirm it's you.",
};

const STARTING: Record<MfaMethod, string> = {
  totp: "",
  sms: "Sending a code to your phone…",
  passkey: "Use your passkey in the browser's prompt to continue",
};

/**
 * MFA verification (spec §2, §4): the user's methods as a choice (the first preselected; choosing SMS
 * sends a code, choosing a passkey starts its prompt, which also starts by itself when it comes first),
 * the six code boxes (spec §5 passcode rules) and the spec §8 lines: 'The code you entered is not valid'
 * (type again), the maximum-attempts and time-limit lines (blocking: only Close), 'Something went wrong.'.
 * Reads core's `mfaState`; loaded lazily.
 */
export default function MfaVerifyScreen({ client, titleId, onClose, onBack }: MfaVerifyScreenProps) {
  useSecurityStyles();
  const mfa = useClientState("MfaVerifyScreen", (s) => s.mfaState, null);
  const pending = mfa?.pending ?? null;
  const verification = mfa?.verification ?? null;
  // The methods stay those the verification started with (the pending entry goes when it ends).
  const [methods] = useState(() => (pending?.methods ?? []).filter(isMfaMethod));
  const [method, setMethod] = useState<MfaMethod | null>(methods[0] ?? null);
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<CodeInputHandle>(null);
  // Answers of a method left for another one are ignored.
  const turn = useRef(0);

  const choose = async (next: MfaMethod) => {
    const mine = ++turn.current;
    setMethod(next);
    setError(null);
    setBusy(null);
    // An authenticator app needs nothing sent or asked for: its code is typed straight away.
    if (next === "totp") return;
    setBusy("starting");
    try {
      const assertion = await initMfa(client, next);
      if (mine !== turn.current) return;
      if (next === "passkey" && assertion) {
        setBusy("submitting");
        await submitMfa(client, "passkey", assertion);
      }
      if (mine === turn.current) setBusy(null);
    } catch (failure) {
      if (mine !== turn.current) return;
      setBusy(null);
      setError(mfaErrorText(failure).text);
    }
  };

  // Spec §4: the first method is preselected (SMS sends its code, a passkey prompts at once).
  const started = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the screen opens.
  useEffect(() => {
    if (started.current || methods[0] === undefined) return;
    started.current = true;
    void choose(methods[0]);
  }, []);

  const submit = async (code: string) => {
    if (method === null || busy !== null) return;
    const mine = turn.current;
    setBusy("submitting");
    setError(null);
    try {
      await submitMfa(client, method, code);
    } catch (failure) {
      if (mine !== turn.current) return;
      setError(mfaErrorText(failure).text);
      // The boxes clear for the next try; focus back on Digit 1.
      input.current?.reset();
    } finally {
      if (mine === turn.current) setBusy(null);
    }
  };

  // The wait is over without success (max attempts, time limit, …): nothing left but Close.
  const blocked =
    pending === null && verification?.status === "error" ? mfaErrorText(verification.error).text : null;
  const shownError = error ?? (pending?.error ? mfaErrorText(pending.error).text : null);
  const takesCode = method === "totp" || (method === "sms" && busy !== "starting");

  return (
    <div className="symbolon-form">
      <ScreenTitle id={titleId} focus={blocked !== null || !takesCode}>
        {MFA_VERIFY_TITLE}
      </ScreenTitle>
      {blocked !== null ? (
        <>
          <p className="symbolon-alert" role="alert">
            {blocked}
          </p>
          <button type="button" className="symbolon-button" onClick={onClose}>
            Close
          </button>
        </>
      ) : (
        <>
          <p className="symbolon-subtitle">{method ? SUBTITLES[method] : ""}</p>
          {methods.length > 1 && (
            // biome-ignore lint/a11y/useSemanticElements: toggle buttons (no fieldset/legend look).
            <div className="symbolon-choices" role="group" aria-label="Verification method">
              {methods.map((option) => (
                <button
                  key={option}
                  type="button"
                  className="symbolon-choice"
                  aria-pressed={option === method}
                  onClick={() => void choose(option)}
                >
                  {MFA_METHOD_LABELS[option]}
                </button>
              ))}
            </div>
          )}
          {takesCode && (
            <CodeInput
              key={method}
              ref={input}
              busy={busy === "submitting"}
              serverError={shownError}
              onChange={() => setError(null)}
              onComplete={(code) => void submit(code)}
            />
          )}
          {!takesCode && shownError && busy === null && (
            <p className="symbolon-alert" role="alert">
              {shownError}
            </p>
          )}
          {busy !== null && method !== null && (
            <p className="symbolon-status" role="status">
              {busy === "submitting" ? "Verifying…" : STARTING[method]}
            </p>
          )}
          {method === "passkey" && busy === null && shownError && (
            <button type="button" className="symbolon-button" onClick={() => void choose("passkey")}>
              Try again
            </button>
          )}
          {method === "sms" && busy === null && (
            <button type="button" className="symbolon-link" onClick={() => void choose("sms")}>
              Resend code
            </button>
          )}
          {onBack && (
            <button type="button" className="symbolon-link" onClick={onBack}>
              Back
            </button>
          )}
        </>
      )}
    </div>
  );
}
