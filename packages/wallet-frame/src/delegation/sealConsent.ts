// HPKE sealing of a delegation consent (in the delegation chunk, loaded on the first consent: see
// `delegation.ts`). RFC 9180 base mode, single shot, with DELEGATION_HPKE_SUITE: DHKEM(P-256,
// HKDF-SHA256), HKDF-SHA256, ChaCha20-Poly1305; `info` names the purpose and format, `aad` binds the
// ciphertext to its app and wallet (crates/protocol delegation.rs `delegation_aad`).
import { Chacha20Poly1305 } from "@hpke/chacha20poly1305";
import { CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from "@hpke/core";
import { DELEGATION_HPKE_INFO, type DelegationConsent } from "../../../core/src/generated/protocol.ts";
import { fromBase64, toBase64 } from "../base64.ts";
import { FrameError } from "../frameError.ts";

/** The suite of DELEGATION_HPKE_SUITE. */
export const delegationSuite = () =>
  new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Chacha20Poly1305() });

const utf8 = (text: string) => new TextEncoder().encode(text);

/** HPKE `info` of every consent. */
export const delegationInfo = () => utf8(DELEGATION_HPKE_INFO);

/** HPKE `aad` of a consent: `{appId}:{address in lower case}`. */
export const delegationAad = (appId: string, address: string) => utf8(`${appId}:${address.toLowerCase()}`);

/** A sealed consent, as `POST /delegated_actions` takes it (standard base64). */
export interface SealedConsent {
  encapsulatedKey: string;
  ciphertext: string;
}

/**
 * Seals `consent` (as JSON) to `signerPublicKey` (base64 of the 65-byte uncompressed P-256 point) for
 * the app `appId`. The plaintext bytes, which hold the wallet's key, are zeroed once sealed.
 */
export async function sealConsent(
  signerPublicKey: string,
  appId: string,
  consent: DelegationConsent,
): Promise<SealedConsent> {
  let point: Uint8Array;
  try {
    point = fromBase64(signerPublicKey);
  } catch {
    point = new Uint8Array();
  }
  if (point.length !== 65 || point[0] !== 0x04) {
    throw new FrameError("embedded_wallet_request_error", "The signer's key is not a P-256 public key");
  }
  const suite = delegationSuite();
  const recipientPublicKey = await suite.kem.deserializePublicKey(point);
  const plaintext = utf8(JSON.stringify(consent));
  try {
    const { enc, ct } = await suite.seal(
      { recipientPublicKey, info: delegationInfo() },
      plaintext,
      delegationAad(appId, consent.address),
    );
    return { encapsulatedKey: toBase64(new Uint8Array(enc)), ciphertext: toBase64(new Uint8Array(ct)) };
  } finally {
    plaintext.fill(0);
  }
}
