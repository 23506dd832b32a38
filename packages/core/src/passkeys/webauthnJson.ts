// Our wire speaks snake_case (crates/protocol `Passkey*`); @simplewebauthn/browser speaks the WebAuthn
// JSON forms in camelCase. Every conversion between the two is here, both ways. Binary fields are
// base64url on both sides, so only the names change.
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialDescriptorJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/browser";
import type {
  PasskeyAuthenticationResponse,
  PasskeyCreationOptions,
  PasskeyDescriptor,
  PasskeyRegistrationResponse,
  PasskeyRequestOptions,
} from "../generated/protocol.ts";

// Extension ids are WebAuthn names, not plain snake/camel pairs ("appid", not "appId").
const EXTENSION_NAMES: Record<string, string> = { app_id: "appid", app_id_exclude: "appidExclude" };
const WIRE_EXTENSION_NAMES = Object.fromEntries(Object.entries(EXTENSION_NAMES).map(([w, c]) => [c, w]));

const toCamel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const toSnake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Renames the keys of an extensions object (and of nested plain objects) with `rename`. */
function renameKeys(value: unknown, rename: (key: string) => string): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [rename(k), renameKeys(v, rename)]));
}

const extensionsToJson = (extensions: Record<string, unknown>) =>
  renameKeys(extensions, (k) => EXTENSION_NAMES[k] ?? toCamel(k)) as Record<string, unknown>;
const extensionsToWire = (extensions: object) =>
  renameKeys(extensions, (k) => WIRE_EXTENSION_NAMES[k] ?? toSnake(k)) as Record<string, unknown>;

function descriptorToJson(descriptor: PasskeyDescriptor): PublicKeyCredentialDescriptorJSON {
  return {
    id: descriptor.id,
    type: descriptor.type as "public-key",
    ...(descriptor.transports ? { transports: descriptor.transports as AuthenticatorTransport[] } : {}),
  };
}

/** `PasskeyCreationOptions` (wire) → the options `startRegistration` takes. */
export function creationOptionsToJson(
  options: PasskeyCreationOptions,
): PublicKeyCredentialCreationOptionsJSON {
  const selection = options.authenticator_selection;
  return {
    rp: { id: options.rp.id, name: options.rp.name },
    user: { id: options.user.id, name: options.user.name, displayName: options.user.display_name },
    challenge: options.challenge,
    pubKeyCredParams: options.pub_key_cred_params.map((p) => ({ type: p.type as "public-key", alg: p.alg })),
    timeout: options.timeout,
    excludeCredentials: options.exclude_credentials.map(descriptorToJson),
    authenticatorSelection: {
      residentKey: selection.resident_key as ResidentKeyRequirement,
      requireResidentKey: selection.require_resident_key,
      userVerification: selection.user_verification as UserVerificationRequirement,
      ...(selection.authenticator_attachment
        ? { authenticatorAttachment: selection.authenticator_attachment as AuthenticatorAttachment }
        : {}),
    },
    attestation: options.attestation as AttestationConveyancePreference,
    ...(options.extensions ? { extensions: extensionsToJson(options.extensions) } : {}),
  };
}

/** `PasskeyRequestOptions` (wire, also MFA) → the options `startAuthentication` takes. */
export function requestOptionsToJson(options: PasskeyRequestOptions): PublicKeyCredentialRequestOptionsJSON {
  return {
    challenge: options.challenge,
    timeout: options.timeout,
    rpId: options.rp_id,
    allowCredentials: options.allow_credentials.map(descriptorToJson),
    userVerification: options.user_verification as UserVerificationRequirement,
    ...(options.extensions ? { extensions: extensionsToJson(options.extensions) } : {}),
  };
}

/** What `startRegistration` answered → `PasskeyRegistrationResponse` (wire). */
export function registrationToWire(credential: RegistrationResponseJSON): PasskeyRegistrationResponse {
  const r = credential.response;
  return {
    id: credential.id,
    raw_id: credential.rawId,
    response: {
      client_data_json: r.clientDataJSON,
      attestation_object: r.attestationObject,
      ...(r.transports ? { transports: [...r.transports] } : {}),
      ...(r.authenticatorData !== undefined ? { authenticator_data: r.authenticatorData } : {}),
      ...(r.publicKey !== undefined ? { public_key: r.publicKey } : {}),
      ...(r.publicKeyAlgorithm !== undefined ? { public_key_algorithm: r.publicKeyAlgorithm } : {}),
    },
    ...(credential.authenticatorAttachment
      ? { authenticator_attachment: credential.authenticatorAttachment }
      : {}),
    client_extension_results: extensionsToWire(credential.clientExtensionResults ?? {}),
    type: credential.type,
  };
}

/** What `startAuthentication` answered → `PasskeyAuthenticationResponse` (wire, also MFA). */
export function authenticationToWire(credential: AuthenticationResponseJSON): PasskeyAuthenticationResponse {
  const r = credential.response;
  return {
    id: credential.id,
    raw_id: credential.rawId,
    response: {
      client_data_json: r.clientDataJSON,
      authenticator_data: r.authenticatorData,
      signature: r.signature,
      ...(r.userHandle !== undefined ? { user_handle: r.userHandle } : {}),
    },
    ...(credential.authenticatorAttachment
      ? { authenticator_attachment: credential.authenticatorAttachment }
      : {}),
    client_extension_results: extensionsToWire(credential.clientExtensionResults ?? {}),
    type: credential.type,
  };
}
