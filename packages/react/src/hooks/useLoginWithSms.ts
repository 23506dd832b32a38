import { sendSmsCode } from "@symbolon/core";
import { type CodeLoginOptions, type CodeLoginState, useCodeLogin } from "./useCodeLogin";

/** Callbacks of {@link useLoginWithSms}. */
export type UseLoginWithSmsOptions = CodeLoginOptions;

/** State of the headless SMS flow (spec §4). */
export type LoginWithSmsState = CodeLoginState;

const send = (
  client: Parameters<typeof sendSmsCode>[0],
  { phoneNumber, defaultCountry }: { phoneNumber: string; defaultCountry?: string },
) => sendSmsCode(client, defaultCountry === undefined ? { phoneNumber } : { phoneNumber, defaultCountry });

/**
 * Headless SMS-code login: `sendCode({phoneNumber})` (E.164, or national with `defaultCountry`),
 * then `loginWithCode({code})`. No modal.
 */
export function useLoginWithSms(options: UseLoginWithSmsOptions = {}) {
  return useCodeLogin("useLoginWithSms", "sms", send, options);
}
