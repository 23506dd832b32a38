//! The signer's key and the consents sealed to it.
//!
//! The key is an HPKE (RFC 9180) P-256 key pair kept in a file of the signer's own (mode 0600),
//! never sent anywhere; its public half is what the wallet frame seals consents to. A consent opens
//! only with this key, only for the app and wallet its `aad` names, and only when the key inside
//! is the key of that wallet's address.

use std::path::Path;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hpke::aead::ChaCha20Poly1305;
use hpke::kdf::HkdfSha256;
use hpke::kem::DhP256HkdfSha256;
use hpke::{Deserializable, Kem, OpModeR, OpModeS, Serializable};
use symbolon_protocol::delegation::{
    DELEGATION_CONSENT_VERSION, DELEGATION_HPKE_INFO, DelegationConsent, delegation_aad,
};
use symbolon_wallet_core::chains::ethereum::{Address, PrivateKey};
use zeroize::Zeroizing;

use crate::error::SignerError;
use crate::wire::SealedConsent;

type SecretKey = <DhP256HkdfSha256 as Kem>::PrivateKey;
type PublicKey = <DhP256HkdfSha256 as Kem>::PublicKey;
type EncappedKey = <DhP256HkdfSha256 as Kem>::EncappedKey;

/// The refusal of a consent that does not open (another key, app or wallet; altered).
pub const DOES_NOT_OPEN: &str =
    "The delegation does not open for this signer, app and wallet; the user must delegate again";

/// The signer's HPKE key pair.
pub struct SignerKey {
    secret: SecretKey,
    public: PublicKey,
}

/// Why the key file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum KeyFileError {
    /// Reading or writing it failed.
    #[error("signer key file {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// Its content is not a key.
    #[error("signer key file {0} does not hold a P-256 private key (64 hex digits)")]
    Malformed(String),
}

impl SignerKey {
    /// A new random key pair.
    pub fn generate() -> Self {
        let (secret, public) =
            DhP256HkdfSha256::gen_keypair(&mut rand_core_09::UnwrapErr(rand_core_09::OsRng));
        Self { secret, public }
    }

    /// The key in `path` (64 hex digits), made and written (mode 0600) when the file does not
    /// exist yet. Returns the key and whether it was made now.
    pub fn load_or_create(path: &Path) -> Result<(Self, bool), KeyFileError> {
        let io = |source| KeyFileError::Io {
            path: path.display().to_string(),
            source,
        };
        match std::fs::read_to_string(path) {
            Ok(text) => {
                let bytes = Zeroizing::new(
                    symbolon_wallet_core::decode_hex(text.trim())
                        .map_err(|_| KeyFileError::Malformed(path.display().to_string()))?,
                );
                let secret = SecretKey::from_bytes(&bytes)
                    .map_err(|_| KeyFileError::Malformed(path.display().to_string()))?;
                let public = DhP256HkdfSha256::sk_to_pk(&secret);
                Ok((Self { secret, public }, false))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let key = Self::generate();
                let text = Zeroizing::new(symbolon_wallet_core::encode_hex(&key.secret.to_bytes()));
                write_private(path, text.as_bytes()).map_err(io)?;
                Ok((key, true))
            }
            Err(e) => Err(io(e)),
        }
    }

    /// The public key as the terms carry it: base64 of the uncompressed point.
    pub fn public_text(&self) -> String {
        STANDARD.encode(self.public.to_bytes())
    }

    /// Opens `sealed` and checks what is inside against what the seal is bound to.
    pub fn open(&self, sealed: &SealedConsent) -> Result<OpenConsent, SignerError> {
        let refused = || SignerError::unauthorized(DOES_NOT_OPEN);
        let decode = |text: &str| STANDARD.decode(text).map_err(|_| refused());
        let encapped =
            EncappedKey::from_bytes(&decode(&sealed.encapsulated_key)?).map_err(|_| refused())?;
        let plaintext = Zeroizing::new(
            hpke::single_shot_open::<ChaCha20Poly1305, HkdfSha256, DhP256HkdfSha256>(
                &OpModeR::Base,
                &self.secret,
                &encapped,
                DELEGATION_HPKE_INFO.as_bytes(),
                &decode(&sealed.ciphertext)?,
                delegation_aad(&sealed.app_id, &sealed.address).as_bytes(),
            )
            .map_err(|_| refused())?,
        );
        let consent: DelegationConsent =
            serde_json::from_slice(&plaintext).map_err(|_| refused())?;
        let key_bytes = Zeroizing::new(
            symbolon_wallet_core::decode_hex(&consent.private_key).map_err(|_| refused())?,
        );
        let key = PrivateKey::from_bytes(&key_bytes).map_err(|_| refused())?;
        let address = Address::parse(&sealed.address).map_err(|_| refused())?;
        let bound = consent.version == DELEGATION_CONSENT_VERSION
            && consent.app_id == sealed.app_id
            && consent.chain_type == "ethereum"
            && Address::parse(&consent.address).ok() == Some(address)
            && key.address() == address
            && !consent.wallet_id.is_empty();
        if !bound {
            return Err(refused());
        }
        let consent = DelegationConsent {
            private_key: String::new(),
            ..consent
        };
        Ok(OpenConsent { consent, key })
    }

    /// Seals `consent` to this key as the wallet frame does (tests and tools; the frame uses
    /// `@hpke/core` with the same suite, info and aad).
    pub fn seal(&self, consent: &DelegationConsent) -> Result<SealedConsent, SignerError> {
        seal_to(&self.public, consent)
    }
}

/// Seals `consent` to `public` (base64 of the uncompressed point, as the terms carry it).
pub fn seal_to_text(
    public: &str,
    consent: &DelegationConsent,
) -> Result<SealedConsent, SignerError> {
    let bytes = STANDARD
        .decode(public)
        .map_err(|_| SignerError::invalid("not a base64 public key"))?;
    let public =
        PublicKey::from_bytes(&bytes).map_err(|_| SignerError::invalid("not a P-256 point"))?;
    seal_to(&public, consent)
}

fn seal_to(public: &PublicKey, consent: &DelegationConsent) -> Result<SealedConsent, SignerError> {
    let plaintext = Zeroizing::new(
        serde_json::to_vec(consent).map_err(|e| SignerError::invalid(e.to_string()))?,
    );
    let (encapped, ciphertext) =
        hpke::single_shot_seal::<ChaCha20Poly1305, HkdfSha256, DhP256HkdfSha256, _>(
            &OpModeS::Base,
            public,
            DELEGATION_HPKE_INFO.as_bytes(),
            &plaintext,
            delegation_aad(&consent.app_id, &consent.address).as_bytes(),
            &mut rand_core_09::UnwrapErr(rand_core_09::OsRng),
        )
        .map_err(|_| SignerError::invalid("HPKE seal failed"))?;
    Ok(SealedConsent {
        app_id: consent.app_id.clone(),
        address: consent.address.clone(),
        encapsulated_key: STANDARD.encode(encapped.to_bytes()),
        ciphertext: STANDARD.encode(ciphertext),
    })
}

/// An opened consent: what the user agreed to, and the wallet's key (kept only while signing).
pub struct OpenConsent {
    /// The consent (its `private_key` emptied).
    pub consent: DelegationConsent,
    /// The wallet's key.
    pub key: PrivateKey,
}

#[cfg(unix)]
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

#[cfg(not(unix))]
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::write(path, bytes)
}
