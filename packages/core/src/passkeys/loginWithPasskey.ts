import type { Client } from "../client/createClient.ts";
import type {
  PasskeyAuthenticateRequest,
  PasskeyAuthenticationInitResponse,
  PasskeyInitRequest,
} from "../generated/protocol.ts";
import { apiRequest } from "../http/apiRequest.ts";
import { ignoredLogin, type LoginResult, loginWithSession } from "../session/loginWithSession.ts";
import { getPasskey, runPasskeyFlow } from "./webauthn.ts";

/** Parameters of {@link loginWithPasskey} and `signupWithPasskey`. */
export interface PasskeyLoginParameters {
  /** The captcha token, when the app requires one. */
  captchaToken?: string;
}

/** The init body: the captcha token when given (`relying_party` is left to the server). */
export function passkeyInitBody(parameters: PasskeyLoginParameters): PasskeyInitRequest {
  return parameters.captchaToken ? { token: parameters.captchaToken } : {};
}

/**
 * Signs in with a discoverable passkey: `/passkeys/authenticate/init`, the browser's passkey prompt,
 * then `/passkeys/authenticate` (spec §4 passkey flow; `passkeyFlow` shows the steps).
 */
export async function loginWithPasskey(
  client: Client,
  parameters: PasskeyLoginParameters = {},
): Promise<LoginResult> {
  const ignored = ignoredLogin(client);
  if (ignored) return ignored;
  return runPasskeyFlow(client, "login", async (step) => {
    const init = await apiRequest<PasskeyAuthenticationInitResponse>(
      client,
      "POST",
      "/passkeys/authenticate/init",
      { body: passkeyInitBody(parameters) },
    );
    step("awaiting-passkey");
    const assertion = await getPasskey(init.options);
    step("submitting-response");
    const body: PasskeyAuthenticateRequest = {
      relying_party: init.relying_party,
      challenge: init.options.challenge,
      authenticator_response: assertion,
    };
    return loginWithSession(client, "/passkeys/authenticate", body);
  });
}
