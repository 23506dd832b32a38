import { PASSCODE_LENGTH, validatePasscode } from "@symbolon/core";
import { type Ref, useId, useImperativeHandle, useLayoutEffect, useRef, useState } from "react";

/** Digits in a code (spec §9). */
const LENGTH = PASSCODE_LENGTH;
const EMPTY: readonly string[] = Array.from({ length: LENGTH }, () => "");

/** Lets the parent clear the boxes after a refused code. */
export interface CodeInputHandle {
  /** Empties every box and focuses Digit 1. */
  reset(): void;
}

/** Props of {@link CodeInput}. */
export interface CodeInputProps {
  ref?: Ref<CodeInputHandle>;
  /** A submission is in flight: boxes are read-only. */
  busy: boolean;
  /** Message from the server about the last submission, shown in the alert. */
  serverError: string | null;
  /** Any edit (clears the server message). */
  onChange: () => void;
  /** All six digits are present. */
  onComplete: (code: string) => void;
}

/** Six single-digit boxes with the spec §5 passcode rules, paste across boxes and Backspace-back. */
export function CodeInput({ ref, busy, serverError, onChange, onComplete }: CodeInputProps) {
  const [digits, setDigits] = useState<readonly string[]>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const boxes = useRef<Array<HTMLInputElement | null>>([]);
  const alertId = useId();
  const focus = (index: number) => boxes.current[Math.max(0, Math.min(LENGTH - 1, index))]?.focus();

  useImperativeHandle(ref, () => ({
    reset() {
      setDigits(EMPTY);
      setError(null);
      focus(0);
    },
  }));
  useLayoutEffect(() => {
    boxes.current[0]?.focus();
  }, []);

  const commit = (next: readonly string[], focusIndex: number) => {
    setDigits(next);
    setError(null);
    onChange();
    focus(focusIndex);
    if (next.every((digit) => digit !== "")) onComplete(next.join(""));
  };

  // Typed, pasted or autofilled text lands from `index` on; a full code always fills from Digit 1.
  const enter = (index: number, text: string) => {
    const { digits: clean, error: invalid } = validatePasscode(text);
    if (invalid) {
      setError(invalid);
      return;
    }
    if (clean === "") return;
    const start = clean.length === LENGTH ? 0 : index;
    const next = [...digits];
    for (let i = 0; i < clean.length && start + i < LENGTH; i += 1) next[start + i] = clean.charAt(i);
    commit(next, start + clean.length);
  };

  const message = error ?? serverError;
  return (
    <>
      <div className="symbolon-digits">
        {digits.map((digit, index) => (
          <input
            // biome-ignore lint/suspicious/noArrayIndexKey: the six boxes are fixed positions.
            key={index}
            ref={(element) => {
              boxes.current[index] = element;
            }}
            className="symbolon-digit"
            aria-label={`Digit ${index + 1}`}
            aria-invalid={message !== null}
            aria-describedby={message ? alertId : undefined}
            inputMode="numeric"
            autoComplete={index === 0 ? "one-time-code" : "off"}
            readOnly={busy}
            value={digit}
            onChange={(event) => {
              const value = event.target.value;
              if (value === "") {
                const next = [...digits];
                next[index] = "";
                commit(next, index);
                return;
              }
              // The box may still hold its old digit next to the new character.
              enter(index, value.length > 1 && value.includes(digit) ? value.replace(digit, "") : value);
            }}
            onPaste={(event) => {
              event.preventDefault();
              enter(index, event.clipboardData.getData("text"));
            }}
            onKeyDown={(event) => {
              if (event.key === "Backspace" && digit === "" && index > 0) {
                event.preventDefault();
                const next = [...digits];
                next[index - 1] = "";
                commit(next, index - 1);
              } else if (event.key === "ArrowLeft") focus(index - 1);
              else if (event.key === "ArrowRight") focus(index + 1);
            }}
            onFocus={(event) => event.target.select()}
          />
        ))}
      </div>
      {message && (
        <p id={alertId} role="alert" className="symbolon-alert">
          {message}
        </p>
      )}
    </>
  );
}
