import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import type { PasswordlessInitRequest } from "../generated/protocol.ts";
import { apiRequest } from "../http/apiRequest.ts";
import { runCodeStep, setCodeFlow } from "../session/codeFlow.ts";
import { validateEmail } from "../utils/validateEmail.ts";

/** Parameters of {@link sendEmailCode}. */
export interface SendEmailCodeParameters {
  email: string;
  /** Captcha token, when the app uses a captcha. */
  captchaToken?: string;
}

/**
 * `POST /passwordless/init`: emails a one-time code. Moves the email flow to `sending-code`, then
 * `awaiting-code-input`, or `error` (keeping the email) and rethrows. Invalid addresses (spec §5)
 * fail with ClientError('invalid_input') carrying the spec's message, without calling the server.
 * Also the first step of linking or updating an email (see actions/README.md).
 */
export async function sendEmailCode(client: Client, parameters: SendEmailCodeParameters): Promise<void> {
  const email = parameters.email.trim();
  const invalid = validateEmail(email, {
    disablePlusEmails: client.store.getState().appConfig?.disable_plus_emails ?? false,
  });
  if (invalid !== null) {
    const error = new ClientError("invalid_input", invalid);
    setCodeFlow(client, "email", "error", email, error);
    throw error;
  }
  const body: PasswordlessInitRequest = { email };
  if (parameters.captchaToken !== undefined) body.token = parameters.captchaToken;
  await runCodeStep(client, "email", email, "sending-code", "awaiting-code-input", () =>
    apiRequest(client, "POST", "/passwordless/init", { body }),
  );
}
