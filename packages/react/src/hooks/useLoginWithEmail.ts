import { sendEmailCode } from "@symbolon/core";
import { type CodeLoginOptions, type CodeLoginState, useCodeLogin } from "./useCodeLogin";

/** Callbacks of {@link useLoginWithEmail}. */
export type UseLoginWithEmailOptions = CodeLoginOptions;

/** State of the headless email flow (spec §4). */
export type LoginWithEmailState = CodeLoginState;

const send = (client: Parameters<typeof sendEmailCode>[0], { email }: { email: string }) =>
  sendEmailCode(client, { email });

/** Headless email-code login: `sendCode({email})`, then `loginWithCode({code})`. No modal. */
export function useLoginWithEmail(options: UseLoginWithEmailOptions = {}) {
  return useCodeLogin("useLoginWithEmail", "email", send, options);
}
