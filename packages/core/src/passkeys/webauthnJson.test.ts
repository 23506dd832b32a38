import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/browser";
import { describe, expect, it } from "vitest";
import type { PasskeyCreationOptions, PasskeyRequestOptions } from "../generated/protocol.ts";
import {
  authenticationToWire,
  creationOptionsToJson,
  registrationToWire,
  requestOptionsToJson,
} from "./webauthnJson.ts";

describe("passkey wire conversion", () => {
  it("turns the server's creation options into the WebAuthn JSON form", () => {
    const wire: PasskeyCreationOptions = {
      rp: { id: "localhost", name: "Test app" },
      user: { id: "dXNlcg", name: "ada", display_name: "Ada" },
      challenge: "Y2hhbGxlbmdl",
      pub_key_cred_params: [
        { type: "public-key", alg: -7 },
        { type: "public-key", alg: -257 },
      ],
      timeout: 60_000,
      exclude_credentials: [{ id: "Y3JlZA", type: "public-key", transports: ["internal", "hybrid"] }],
      authenticator_selection: {
        resident_key: "required",
        require_resident_key: true,
        user_verification: "required",
        authenticator_attachment: "platform",
      },
      attestation: "none",
      extensions: { cred_props: true },
    };
    expect(creationOptionsToJson(wire)).toEqual({
      rp: { id: "localhost", name: "Test app" },
      user: { id: "dXNlcg", name: "ada", displayName: "Ada" },
      challenge: "Y2hhbGxlbmdl",
      pubKeyCredParams: [
        { type: "public-key", alg: -7 },
        { type: "public-key", alg: -257 },
      ],
      timeout: 60_000,
      excludeCredentials: [{ id: "Y3JlZA", type: "public-key", transports: ["internal", "hybrid"] }],
      authenticatorSelection: {
        residentKey: "required",
        requireResidentKey: true,
        userVerification: "required",
        authenticatorAttachment: "platform",
      },
      attestation: "none",
      extensions: { credProps: true },
    });
  });

  it("turns request options (login and MFA) into the WebAuthn JSON form, WebAuthn extension names kept", () => {
    const wire: PasskeyRequestOptions = {
      challenge: "Y2g",
      timeout: 60_000,
      rp_id: "localhost",
      allow_credentials: [],
      user_verification: "required",
      extensions: { app_id: "https://example.com", hmac_create_secret: true },
    };
    expect(requestOptionsToJson(wire)).toEqual({
      challenge: "Y2g",
      timeout: 60_000,
      rpId: "localhost",
      allowCredentials: [],
      userVerification: "required",
      extensions: { appid: "https://example.com", hmacCreateSecret: true },
    });
  });

  it("turns a registration back into the snake_case wire form", () => {
    const json: RegistrationResponseJSON = {
      id: "Y3JlZA",
      rawId: "Y3JlZA",
      response: {
        clientDataJSON: "Y2Rq",
        attestationObject: "YW8",
        authenticatorData: "YWQ",
        transports: ["internal"],
        publicKey: "cGs",
        publicKeyAlgorithm: -7,
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: { credProps: { rk: true } },
      type: "public-key",
    };
    expect(registrationToWire(json)).toEqual({
      id: "Y3JlZA",
      raw_id: "Y3JlZA",
      response: {
        client_data_json: "Y2Rq",
        attestation_object: "YW8",
        authenticator_data: "YWQ",
        transports: ["internal"],
        public_key: "cGs",
        public_key_algorithm: -7,
      },
      authenticator_attachment: "platform",
      client_extension_results: { cred_props: { rk: true } },
      type: "public-key",
    });
  });

  it("turns an assertion back into the wire form; absent optional fields stay absent", () => {
    const json: AuthenticationResponseJSON = {
      id: "Y3JlZA",
      rawId: "Y3JlZA",
      response: { clientDataJSON: "Y2Rq", authenticatorData: "YWQ", signature: "c2ln", userHandle: "dXNlcg" },
      clientExtensionResults: { appid: false },
      type: "public-key",
    };
    expect(authenticationToWire(json)).toEqual({
      id: "Y3JlZA",
      raw_id: "Y3JlZA",
      response: {
        client_data_json: "Y2Rq",
        authenticator_data: "YWQ",
        signature: "c2ln",
        user_handle: "dXNlcg",
      },
      client_extension_results: { app_id: false },
      type: "public-key",
    });
    const bare = authenticationToWire({ ...json, response: { ...json.response, userHandle: undefined } });
    expect("user_handle" in bare.response).toBe(false);
    expect("authenticator_attachment" in bare).toBe(false);
  });
});
