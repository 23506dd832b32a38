import { type Client, INVALID_PHONE_MESSAGE } from "@symbolon/core";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { checkPhone } from "./checkPhone";
import { countries, defaultCountry } from "./countries";
import type { SendCodeActions } from "./flows/createCodeActions";
import { useSendCode } from "./useSendCode";

/** Props of {@link PhoneForm}. */
export interface PhoneFormProps {
  client: Client;
  /** The code flow (login, link, update), or another way to send the code (the MFA enrolment's phone, E.164). */
  via: SendCodeActions | ((phoneNumber: string) => Promise<void>);
  /** The button's text when not busy: 'Submit' (login, add phone) or 'Update' (spec §2). */
  submitLabel?: string;
  /** The number to start from (coming back with "Change number"), E.164. */
  initialNumber?: string;
  /** Focus the number field when the form appears. */
  autoFocus?: boolean;
  /** The reader's language (default `navigator.language`): country names and the default country. */
  locale?: string;
}

const readerLocale = () => (typeof navigator !== "undefined" && navigator.language) || "en-US";

/**
 * A country picker (calling codes with country names; a native select, so typing a name jumps to
 * it) and a number field. Submit is enabled only while the number is valid and nothing is being
 * submitted (spec §5); it sends the code by text message and shows the code screen.
 */
export function PhoneForm({
  client,
  via,
  submitLabel = "Submit",
  initialNumber = "",
  autoFocus = true,
  locale = readerLocale(),
}: PhoneFormProps) {
  const list = useMemo(() => countries(locale), [locale]);
  // Coming back with a number: in the reader's country it shows as a national number, otherwise
  // whole with its '+' (valid whatever the picker says; shared calling codes stay unambiguous).
  const start = useMemo(() => {
    const country = defaultCountry(locale, list);
    const prefix = `+${list.find((entry) => entry.code === country)?.dial ?? "1"}`;
    const national = initialNumber.startsWith(prefix) ? initialNumber.slice(prefix.length) : initialNumber;
    return { country, national };
  }, [initialNumber, list, locale]);
  const [country, setCountry] = useState(start.country);
  const [number, setNumber] = useState(start.national);
  // The number as E.164 once the (async) check passed; null while invalid or being checked.
  const [valid, setValid] = useState<string | null>(null);
  const [checked, setChecked] = useState(false);
  const { submitting, serverError, clearServerError, send } = useSendCode(client, "sms", via);
  const check = useRef(0);
  const countryId = useId();
  const inputId = useId();
  const field = useRef<HTMLInputElement>(null);
  // A form that appears in an open dialog (another screen before it) takes focus itself; on the
  // dialog's first frame the focus trap does it (`data-autofocus`), after recording the trigger.
  useEffect(() => {
    if (autoFocus) field.current?.focus();
  }, [autoFocus]);
  const alertId = useId();

  useEffect(() => {
    const turn = ++check.current;
    setValid(null);
    if (number.trim() === "") return;
    void checkPhone(number, country).then(
      (e164) => {
        if (turn === check.current) setValid(e164);
      },
      () => {
        if (turn === check.current) setValid(null);
      },
    );
  }, [number, country]);

  const invalid = checked && number.trim() !== "" && valid === null ? INVALID_PHONE_MESSAGE : null;
  const message = invalid ?? serverError;
  const canSubmit = valid !== null && !submitting;

  const submit = async () => {
    setChecked(true);
    if (!canSubmit) return;
    await send(valid);
  };

  return (
    <form
      className="symbolon-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label className="symbolon-label" htmlFor={countryId}>
        Country
      </label>
      <select
        id={countryId}
        className="symbolon-input symbolon-select"
        value={country}
        onChange={(event) => {
          setCountry(event.target.value);
          clearServerError();
        }}
      >
        {list.map((entry) => (
          <option key={entry.code} value={entry.code}>
            {`${entry.name} (+${entry.dial})`}
          </option>
        ))}
      </select>
      <label className="symbolon-label" htmlFor={inputId}>
        Phone number
      </label>
      <input
        ref={field}
        id={inputId}
        className="symbolon-input"
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        placeholder="Phone number"
        data-autofocus={autoFocus || undefined}
        value={number}
        aria-invalid={message !== null}
        aria-describedby={message ? alertId : undefined}
        onChange={(event) => {
          setNumber(event.target.value);
          clearServerError();
        }}
        onBlur={() => setChecked(number.trim() !== "")}
      />
      {message && (
        <p id={alertId} role="alert" className="symbolon-alert">
          {message}
        </p>
      )}
      <button type="submit" className="symbolon-button" disabled={!canSubmit}>
        {submitting ? "Submitting" : submitLabel}
      </button>
    </form>
  );
}
