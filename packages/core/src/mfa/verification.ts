import type { Client } from "../client/createClient.ts";
import { asSymbolonError } from "../errors/asSymbolonError.ts";
import { ClientError } from "../errors/ClientError.ts";
import type {
  MfaPasskeyInitResponse,
  MfaSmsInitRequest,
  PasskeyAuthenticationResponse,
} from "../generated/protocol.ts";
import { apiRequest } from "../http/apiRequest.ts";
import { getPasskey } from "../passkeys/webauthn.ts";
import { requireUser } from "../session/accountRequest.ts";
import { walletFrame } from "../wallet/frameBridge.ts";
import { requireAccessToken } from "../wallet/walletPreconditions.ts";
import { failAttempt } from "./awaitVerification.ts";
import { needsMfaVerification } from "./mfaErrors.ts";
import { mfaRuntime, setMfaState } from "./mfaRuntime.ts";
import { INVALID_MFA_CODE_MESSAGE, type MfaMethod, type MfaVerificationStatus } from "./types.ts";

function setVerification(
  client: Client,
  method: MfaMethod,
  status: MfaVerificationStatus,
  error: unknown = null,
) {
  setMfaState(client, {
    verification: { status, method, error: error === null ? null : asSymbolonError(error) },
  });
}

/**
 * Starts verifying with `method`: SMS sends a code to the enrolled number; passkey fetches the options
 * and runs the browser's prompt, answering the assertion to hand to {@link submitMfa}; TOTP needs nothing.
 */
export async function initMfa(
  client: Client,
  method: MfaMethod,
): Promise<PasskeyAuthenticationResponse | undefined> {
  requireUser(client);
  try {
    const token = await requireAccessToken(client);
    if (method === "sms") {
      setVerification(client, method, "sending-code");
      const body: MfaSmsInitRequest = { action: "verify" };
      await apiRequest(client, "POST", "/mfa/passwordless_sms/init", { body, token });
    } else if (method === "passkey") {
      setVerification(client, method, "awaiting-passkey");
      const { options } = await apiRequest<MfaPasskeyInitResponse>(client, "POST", "/mfa/passkeys/init", {
        body: {},
        token,
      });
      const assertion = await getPasskey(options);
      setVerification(client, method, "submitting");
      return assertion;
    } else if (method !== "totp") {
      throw new ClientError("invalid_input", "Unsupported MFA method");
    }
    setVerification(client, method, "awaiting-code");
    return undefined;
  } catch (error) {
    setVerification(client, method, "error", error);
    throw error;
  }
}

/**
 * Verifies with the wallet frame (`privy:mfa:verify`; the MFA token stays in the frame). A success
 * lets the waiting wallet operation run again; a refused code counts as an attempt (the waiting
 * operation fails after MFA_MAX_ATTEMPTS) and is thrown to the caller.
 */
export async function submitMfa(
  client: Client,
  method: MfaMethod,
  mfaCode: string | PasskeyAuthenticationResponse,
): Promise<void> {
  // Spec §5: a code is a string, a passkey answer an authenticator response object.
  const wellFormed =
    method === "passkey"
      ? typeof mfaCode === "object" && mfaCode !== null && !Array.isArray(mfaCode)
      : typeof mfaCode === "string";
  if (!wellFormed) throw new ClientError("invalid_input", INVALID_MFA_CODE_MESSAGE);
  const code = typeof mfaCode === "string" ? mfaCode.trim() : mfaCode;
  setVerification(client, method, "submitting");
  try {
    const accessToken = await requireAccessToken(client);
    await walletFrame(client).request("privy:mfa:verify", { accessToken, method, mfaCode: code });
  } catch (error) {
    const failure = asSymbolonError(error);
    setVerification(client, method, "error", failure);
    if (needsMfaVerification(failure)) failAttempt(client, failure);
    else if (failure.code === "mfa_verification_max_attempts_reached")
      mfaRuntime(client).wait?.reject(failure);
    throw failure;
  }
  // Settle the waiting operation before the store says "verified": the modal closes on that, and a
  // close while the wait is still open would cancel the operation the user just verified for.
  const wait = mfaRuntime(client).wait;
  if (wait) wait.resolve();
  else setVerification(client, method, "verified");
}
