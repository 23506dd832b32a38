import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import type { SmsInitRequest } from "../generated/protocol.ts";
import { apiRequest } from "../http/apiRequest.ts";
import { runCodeStep, setCodeFlow } from "../session/codeFlow.ts";
import { parsePhone } from "../utils/parsePhone.ts";

/** Parameters of {@link sendSmsCode}. */
export interface SendSmsCodeParameters {
  /** With its country code (`+1 201 555 0123`), or national with `defaultCountry`. */
  phoneNumber: string;
  /** ISO 3166 alpha-2 region a national number belongs to, e.g. "US". */
  defaultCountry?: string;
  /** Captcha token, when the app uses a captcha. */
  captchaToken?: string;
}

/**
 * `POST /passwordless_sms/init`: texts a one-time code. Moves the SMS flow to `sending-code`, then
 * `awaiting-code-input`, or `error` (keeping the number) and rethrows. An invalid number (spec §5)
 * fails with ClientError('invalid_input') without calling the server. The number is sent in E.164.
 *
 * Also the first step of linking or updating a phone: send the code to the new number here, then
 * call `linkPhone` / `updatePhone` with it (they leave this flow's state alone).
 */
export async function sendSmsCode(client: Client, parameters: SendSmsCodeParameters): Promise<void> {
  const typed = parameters.phoneNumber.trim();
  // Checking the number loads libphonenumber-js on first use: `sending-code` shows meanwhile.
  setCodeFlow(client, "sms", "sending-code", typed);
  const parsed = await parsePhone(typed, parameters.defaultCountry);
  if (!parsed.ok) {
    const error = new ClientError("invalid_input", parsed.message);
    setCodeFlow(client, "sms", "error", typed, error);
    throw error;
  }
  const phoneNumber = parsed.e164;
  const body: SmsInitRequest = { phoneNumber };
  if (parameters.captchaToken !== undefined) body.token = parameters.captchaToken;
  await runCodeStep(client, "sms", phoneNumber, "sending-code", "awaiting-code-input", () =>
    apiRequest(client, "POST", "/passwordless_sms/init", { body }),
  );
}
