import type { Client } from "../client/createClient.ts";
import type { PasskeyRegisterRequest, PasskeyRegistrationInitResponse } from "../generated/protocol.ts";
import { apiRequest } from "../http/apiRequest.ts";
import { ignoredLogin, type LoginResult, loginWithSession } from "../session/loginWithSession.ts";
import { type PasskeyLoginParameters, passkeyInitBody } from "./loginWithPasskey.ts";
import { createPasskey, runPasskeyFlow } from "./webauthn.ts";

/**
 * Signs up with a new passkey: `/passkeys/register/init`, the browser creates the credential, then
 * `/passkeys/register` makes the user (spec §4 passkey flow; `passkeyFlow` shows the steps).
 */
export async function signupWithPasskey(
  client: Client,
  parameters: PasskeyLoginParameters = {},
): Promise<LoginResult> {
  const ignored = ignoredLogin(client);
  if (ignored) return ignored;
  return runPasskeyFlow(client, "signup", async (step) => {
    const init = await apiRequest<PasskeyRegistrationInitResponse>(
      client,
      "POST",
      "/passkeys/register/init",
      {
        body: passkeyInitBody(parameters),
      },
    );
    step("awaiting-passkey");
    const credential = await createPasskey(init.options);
    step("submitting-response");
    const body: PasskeyRegisterRequest = {
      relying_party: init.relying_party,
      authenticator_response: credential,
    };
    return loginWithSession(client, "/passkeys/register", body);
  });
}
