import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import { fidOfMessage } from "../farcaster/fidOfMessage.ts";
import type { AuthMode, FarcasterV2AuthenticateRequest } from "../generated/protocol.ts";
import { ignoredLogin, type LoginResult, loginWithSession } from "../session/loginWithSession.ts";

/** Parameters of {@link loginToMiniApp}. */
export interface LoginToMiniAppParameters {
  /** The Sign In With Farcaster message (with the nonce of {@link initLoginToMiniApp}). */
  message: string;
  /** Its signature, from the Mini App SDK. */
  signature: string;
  /** The fid; default: the message's `farcaster://fid/<fid>` resource. */
  fid?: number;
  mode?: AuthMode;
}

/** `POST /api/v2/farcaster/authenticate`: signs in with the message the Mini App host had signed. */
export async function loginToMiniApp(
  client: Client,
  parameters: LoginToMiniAppParameters,
): Promise<LoginResult> {
  const ignored = ignoredLogin(client);
  if (ignored) return ignored;
  const fid = parameters.fid ?? fidOfMessage(parameters.message);
  if (fid === null)
    throw new ClientError("invalid_input", "The message names no Farcaster id (farcaster://fid/…).");
  const body: FarcasterV2AuthenticateRequest = {
    message: parameters.message,
    signature: parameters.signature,
    fid,
  };
  if (parameters.mode !== undefined) body.mode = parameters.mode;
  return loginWithSession(client, "/farcaster/authenticate", body, { prefix: "/api/v2" });
}
