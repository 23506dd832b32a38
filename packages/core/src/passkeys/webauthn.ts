import type { Client } from "../client/createClient.ts";
import { asSymbolonError } from "../errors/asSymbolonError.ts";
import { SymbolonError } from "../errors/SymbolonError.ts";
import type {
  PasskeyAuthenticationResponse,
  PasskeyCreationOptions,
  PasskeyRegistrationResponse,
  PasskeyRequestOptions,
} from "../generated/protocol.ts";
import { PASSKEY_REJECTED_MESSAGE, PASSKEY_UNKNOWN_ERROR_MESSAGE, type PasskeyFlowIntent } from "./types.ts";
import {
  authenticationToWire,
  creationOptionsToJson,
  registrationToWire,
  requestOptionsToJson,
} from "./webauthnJson.ts";

// @simplewebauthn/browser is loaded on first use: most sessions never touch a passkey, so it stays
// out of the initial bundle.
const loadWebAuthn = () => import("@simplewebauthn/browser");

/** Browser outcomes that mean "the user said no, or let it time out" (WebAuthn §5.1.3, §5.1.4). */
const REJECTIONS = new Set(["NotAllowedError", "AbortError", "TimeoutError"]);

/** Spec §8: a refusal or timeout reads 'Passkey request timed out or rejected by user.', else 'Unknown error occurred.' */
export function passkeyError(error: unknown): SymbolonError {
  const name = (error as { name?: unknown } | null)?.name;
  const causeName = ((error as { cause?: unknown } | null)?.cause as { name?: unknown } | undefined)?.name;
  if (REJECTIONS.has(String(name)) || REJECTIONS.has(String(causeName))) {
    return new SymbolonError("passkey_rejected", PASSKEY_REJECTED_MESSAGE, { cause: error });
  }
  return new SymbolonError("unknown_error", PASSKEY_UNKNOWN_ERROR_MESSAGE, { cause: error });
}

/** `navigator.credentials.create` with the server's options; answers the wire form. */
export async function createPasskey(options: PasskeyCreationOptions): Promise<PasskeyRegistrationResponse> {
  try {
    const { startRegistration } = await loadWebAuthn();
    return registrationToWire(await startRegistration({ optionsJSON: creationOptionsToJson(options) }));
  } catch (error) {
    throw passkeyError(error);
  }
}

/** `navigator.credentials.get` with the server's options (login and MFA); answers the wire form. */
export async function getPasskey(options: PasskeyRequestOptions): Promise<PasskeyAuthenticationResponse> {
  try {
    const { startAuthentication } = await loadWebAuthn();
    return authenticationToWire(await startAuthentication({ optionsJSON: requestOptionsToJson(options) }));
  } catch (error) {
    throw passkeyError(error);
  }
}

/** Moves `passkeyFlow` to `status` for `intent`. */
function setPasskeyFlow(
  client: Client,
  intent: PasskeyFlowIntent,
  status: "generating-challenge" | "awaiting-passkey" | "submitting-response" | "done",
): void {
  client.store.setState({ passkeyFlow: { status, intent, error: null } });
}

/** The steps every passkey flow shares; `step` moves the state between them. */
export type PasskeySteps<T> = (
  step: (status: "awaiting-passkey" | "submitting-response") => void,
) => Promise<T>;

/** Runs a passkey flow: generating-challenge, the steps, then done or error (kept in `passkeyFlow`). */
export async function runPasskeyFlow<T>(
  client: Client,
  intent: PasskeyFlowIntent,
  steps: PasskeySteps<T>,
): Promise<T> {
  setPasskeyFlow(client, intent, "generating-challenge");
  try {
    const result = await steps((status) => setPasskeyFlow(client, intent, status));
    setPasskeyFlow(client, intent, "done");
    return result;
  } catch (error) {
    const failure = asSymbolonError(error);
    client.store.setState({ passkeyFlow: { status: "error", intent, error: failure } });
    throw failure;
  }
}
