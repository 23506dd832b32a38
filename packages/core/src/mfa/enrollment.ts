import { getAccessToken } from "../actions/getAccessToken.ts";
import type { Client } from "../client/createClient.ts";
import { asSymbolonError } from "../errors/asSymbolonError.ts";
import { ClientError } from "../errors/ClientError.ts";
import type { User } from "../generated/protocol.ts";
import { storeFrameUser } from "../session/storeFrameUser.ts";
import { walletFrame } from "../wallet/frameBridge.ts";
import type { FrameEvent, FrameUserAnswer } from "../wallet/types.ts";
import { setMfaState } from "./mfaRuntime.ts";
import {
  ENROLL_REQUIRES_TOKEN_MESSAGE,
  INVALID_MFA_CODE_MESSAGE,
  type InitMfaEnrollmentParameters,
  type MfaEnrollmentStatus,
  type MfaMethod,
  type MfaState,
  type SubmitMfaEnrollmentParameters,
  UNENROLL_REQUIRES_TOKEN_MESSAGE,
} from "./types.ts";
import { withMfaRetry } from "./withMfaRetry.ts";

type Enrollment = MfaState["enrollment"];

function setEnrollment(client: Client, patch: Partial<Enrollment> & { status: MfaEnrollmentStatus }): void {
  const current = client.store.getState().mfaState.enrollment;
  setMfaState(client, { enrollment: { ...current, error: null, ...patch } });
}

/** The access token, or the spec's enrolment message when signed out. */
async function enrolmentToken(client: Client, message: string): Promise<string> {
  const token = client.store.getState().authenticated ? await getAccessToken(client) : null;
  if (token === null) throw new ClientError("attempted_rpc_call_before_logged_in", message);
  return token;
}

/** One enrolment request through the frame, retried after verification when the user already has MFA. */
async function enrolmentRequest<T>(
  client: Client,
  method: MfaMethod,
  event: FrameEvent,
  data: Record<string, unknown>,
  message = ENROLL_REQUIRES_TOKEN_MESSAGE,
): Promise<T> {
  try {
    const accessToken = await enrolmentToken(client, message);
    return await withMfaRetry(client, () =>
      walletFrame(client).request<T>(event, { accessToken, method, ...data }),
    );
  } catch (error) {
    setEnrollment(client, { status: "error", method, error: asSymbolonError(error) });
    throw error;
  }
}

/**
 * Starts enrolling: TOTP answers a new pending secret and its `otpauth://` URL (also kept in
 * `mfaState.enrollment.totp`); SMS sends a code to `phoneNumber`; passkey needs nothing up front (the
 * passkeys to use are linked first, then named in {@link submitMfaEnrollment}).
 */
export async function initMfaEnrollment(
  client: Client,
  parameters: InitMfaEnrollmentParameters,
): Promise<{ secret: string; authUrl: string } | undefined> {
  const { method } = parameters;
  if (method !== "totp" && method !== "sms" && method !== "passkey") {
    throw new ClientError("invalid_input", "Unsupported MFA method");
  }
  const phoneNumber = method === "sms" ? parameters.phoneNumber : null;
  if (method === "sms" && (typeof phoneNumber !== "string" || phoneNumber.trim() === "")) {
    throw new ClientError("invalid_input", "A phone number is required to enroll in SMS MFA.");
  }
  setEnrollment(client, { status: "initializing", method, phoneNumber, totp: null });
  const data = phoneNumber === null ? {} : { phoneNumber: phoneNumber.trim() };
  const answer = await enrolmentRequest<{ secret?: string; authUrl?: string }>(
    client,
    method,
    "privy:mfa:init-enrollment",
    data,
  );
  if (method === "totp") {
    const totp = { secret: String(answer.secret), authUrl: String(answer.authUrl) };
    setEnrollment(client, { status: "awaiting-code", method, totp });
    return totp;
  }
  setEnrollment(client, { status: method === "passkey" ? "awaiting-passkey" : "awaiting-code", method });
  return undefined;
}

/** Completes the enrolment; the user's `mfa_methods` (and passkeys' `enrolled_in_mfa`) update in the store. */
export async function submitMfaEnrollment(
  client: Client,
  parameters: SubmitMfaEnrollmentParameters,
): Promise<User> {
  const { method } = parameters;
  let data: Record<string, unknown>;
  if (method === "passkey") {
    if (!Array.isArray(parameters.credentialIds) || parameters.credentialIds.length === 0) {
      throw new ClientError("invalid_input", "Choose at least one passkey to enroll.");
    }
    data = {
      credentialIds: parameters.credentialIds,
      removeForLogin: parameters.removeForLogin ?? false,
    };
  } else if (method === "totp" || method === "sms") {
    if (typeof parameters.mfaCode !== "string")
      throw new ClientError("invalid_input", INVALID_MFA_CODE_MESSAGE);
    data = { mfaCode: parameters.mfaCode.trim() };
    if (method === "sms") data.phoneNumber = parameters.phoneNumber;
  } else {
    throw new ClientError("invalid_input", "Unsupported MFA method");
  }
  setEnrollment(client, { status: "submitting", method });
  const { user } = await enrolmentRequest<FrameUserAnswer>(
    client,
    method,
    "privy:mfa:submit-enrollment",
    data,
  );
  storeFrameUser(client, user);
  setEnrollment(client, { status: "done", method, totp: null });
  return user;
}

/**
 * Removes `method` from the user's MFA (after verification). Passkeys are also unlinked when
 * `passkeys.shouldUnlinkOnUnenrollMfa` (default true), never the last way in.
 */
export async function unenrollMfa(client: Client, method: MfaMethod): Promise<User> {
  const removeForLogin = method === "passkey" && client.options.passkeys?.shouldUnlinkOnUnenrollMfa !== false;
  setEnrollment(client, { status: "submitting", method });
  const { user } = await enrolmentRequest<FrameUserAnswer>(
    client,
    method,
    "privy:mfa:unenroll",
    method === "passkey" ? { removeForLogin } : {},
    UNENROLL_REQUIRES_TOKEN_MESSAGE,
  );
  storeFrameUser(client, user);
  setEnrollment(client, { status: "done", method });
  return user;
}
