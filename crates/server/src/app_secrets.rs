//! Secrets in an app's settings (the Telegram bot token, the Farcaster signer requester's
//! custody key, OAuth client secrets), sealed so that a copy of the database cannot use them:
//! whoever holds the bot token can forge Telegram proofs and sign in as any Telegram user.
//!
//! Operators write them in plain text in the settings file; `symbolon apps create` seals each
//! one (AES-256-GCM, [`KeySealer`], under a key derived from the sealing key) with the app id and
//! the field as associated data, so a sealed value moved to another app or field does not open.
//! They are opened only where they are used. A stored value that is not sealed (an old row, or
//! one written by SQL), or that does not open, is refused, never used.

use serde::{Deserialize, Serialize};
use symbolon_protocol::ServerErrorCode;
use zeroize::Zeroizing;

use crate::error::AppError;
use crate::keys::key_sealer::KeySealer;
use crate::keys::sealing::{Purpose, SealingKey};

/// The stored form: `sealed:v1:<base64 of nonce ‖ ciphertext>`.
const SEALED_PREFIX: &str = "sealed:v1:";
/// What [`KeySealer`] prefixes; swapped for [`SEALED_PREFIX`] in storage.
const SEALER_PREFIX: &str = "aesgcm:";

/// `[telegram] bot_token`.
pub const TELEGRAM_BOT_TOKEN: &str = "telegram.bot_token";
/// `[farcaster] signer_request_key`.
pub const FARCASTER_SIGNER_KEY: &str = "farcaster.signer_request_key";

/// The field name of an OAuth provider's client secret (`google`, `custom:acme`).
pub fn oauth_client_secret(provider: &str) -> String {
    format!("oauth.providers.{provider}.client_secret")
}

/// A secret field of the settings: plain as the operator writes it, sealed once stored. Its
/// `Debug` shows nothing of it.
#[derive(Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SealedSecret(String);

impl std::fmt::Debug for SealedSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SealedSecret(<redacted>)")
    }
}

impl From<&str> for SealedSecret {
    fn from(value: &str) -> Self {
        Self(value.to_string())
    }
}

impl From<String> for SealedSecret {
    fn from(value: String) -> Self {
        Self(value)
    }
}

impl SealedSecret {
    /// No secret (an OAuth client without one).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The value as stored (sealed once [`AppSecrets::seal`] ran).
    pub fn as_stored(&self) -> &str {
        &self.0
    }

    /// Whether it is in its sealed form.
    pub fn is_sealed(&self) -> bool {
        self.0.starts_with(SEALED_PREFIX)
    }

    /// The value as the operator wrote it, for checking the settings file before it is sealed;
    /// `None` once sealed.
    pub fn plain(&self) -> Option<&str> {
        (!self.is_sealed()).then_some(self.0.as_str())
    }
}

/// Why a stored secret is not used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SecretError {
    /// Stored in the clear: not written by `symbolon apps create` of this version.
    #[error("stored in the clear (not sealed by `symbolon apps create`)")]
    Plain,
    /// Sealed under another sealing key, for another app or field, or altered.
    #[error("does not open under this server's sealing key for this app and field")]
    DoesNotOpen,
}

/// Seals and opens the secrets of app settings. `Debug` hides the key.
#[derive(Debug, Clone)]
pub struct AppSecrets(KeySealer);

impl AppSecrets {
    /// The sealer under the key derived from `key` for app settings.
    pub fn new(key: &SealingKey) -> Self {
        let derived = key.derive(Purpose::AppSecrets);
        let mut bytes = [0u8; 32];
        bytes.copy_from_slice(&derived[..32]);
        let sealer = KeySealer::new(bytes);
        zeroize::Zeroize::zeroize(&mut bytes);
        Self(sealer)
    }

    /// Seals `secret` of `app_id`'s `field` in place. Empty stays empty; a value that is
    /// already sealed is refused (the settings file holds the secret itself).
    pub fn seal(&self, app_id: &str, field: &str, secret: &mut SealedSecret) -> Result<(), String> {
        if secret.is_empty() {
            return Ok(());
        }
        let Some(plain) = secret.plain() else {
            return Err(format!(
                "{field}: write the secret itself, not a sealed value"
            ));
        };
        let sealed = self
            .0
            .seal(&aad(app_id, field), plain.as_bytes())
            .map_err(|e| format!("{field}: cannot seal: {e}"))?;
        let body = sealed.strip_prefix(SEALER_PREFIX).unwrap_or(&sealed);
        *secret = SealedSecret(format!("{SEALED_PREFIX}{body}"));
        Ok(())
    }

    /// The plain secret of `app_id`'s `field`, if it was sealed by this server for them.
    pub fn try_open(
        &self,
        app_id: &str,
        field: &str,
        secret: &SealedSecret,
    ) -> Result<Zeroizing<String>, SecretError> {
        if secret.is_empty() {
            return Ok(Zeroizing::new(String::new()));
        }
        let body = secret
            .0
            .strip_prefix(SEALED_PREFIX)
            .ok_or(SecretError::Plain)?;
        let bytes = self
            .0
            .open(&aad(app_id, field), &format!("{SEALER_PREFIX}{body}"))
            .map_err(|_| SecretError::DoesNotOpen)?;
        String::from_utf8(bytes.to_vec())
            .map(Zeroizing::new)
            .map_err(|_| SecretError::DoesNotOpen)
    }

    /// [`Self::try_open`] at a use site: a secret that does not open is logged loudly and
    /// refused with `feature_not_enabled` (the operator must re-apply the settings).
    pub fn open(
        &self,
        app_id: &str,
        field: &str,
        secret: &SealedSecret,
    ) -> Result<Zeroizing<String>, AppError> {
        self.try_open(app_id, field, secret).map_err(|error| {
            tracing::error!(app = %app_id, field, %error,
                "app secret REFUSED: re-apply the app's settings with `symbolon apps create`");
            AppError::new(
                ServerErrorCode::FeatureNotEnabled,
                format!(
                    "This app's {field} is unusable: its settings must be re-applied with \
                     `symbolon apps create`"
                ),
            )
        })
    }
}

/// The associated data: the secret belongs to this app and this field.
fn aad(app_id: &str, field: &str) -> String {
    format!("symbolon/app-secret/v1\n{app_id}\n{field}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secrets(byte: u8) -> AppSecrets {
        AppSecrets::new(&SealingKey::from_bytes([byte; 32]))
    }

    #[test]
    fn sealed_secrets_open_only_for_their_app_field_and_key() {
        let mut secret = SealedSecret::from("123:bot-secret");
        secrets(1)
            .seal("app1", TELEGRAM_BOT_TOKEN, &mut secret)
            .expect("seal");
        assert!(secret.is_sealed());
        let stored = serde_json::to_string(&secret).expect("json");
        assert!(stored.starts_with("\"sealed:v1:"), "{stored}");
        assert!(!stored.contains("bot-secret"));
        let opened = secrets(1).try_open("app1", TELEGRAM_BOT_TOKEN, &secret);
        assert_eq!(opened.as_deref().map(String::as_str), Ok("123:bot-secret"));
        for (key, app, field) in [
            (2, "app1", TELEGRAM_BOT_TOKEN),
            (1, "app2", TELEGRAM_BOT_TOKEN),
            (1, "app1", FARCASTER_SIGNER_KEY),
        ] {
            assert_eq!(
                secrets(key).try_open(app, field, &secret).err(),
                Some(SecretError::DoesNotOpen)
            );
        }
    }

    #[test]
    fn plain_stored_secrets_are_refused_and_nothing_shows_in_debug() {
        let plain = SealedSecret::from("123:bot-secret");
        assert_eq!(
            secrets(1)
                .try_open("app1", TELEGRAM_BOT_TOKEN, &plain)
                .err(),
            Some(SecretError::Plain)
        );
        assert_eq!(format!("{plain:?}"), "SealedSecret(<redacted>)");
        let error = secrets(1)
            .open("app1", TELEGRAM_BOT_TOKEN, &plain)
            .err()
            .map(|e| format!("{e:?}"))
            .unwrap_or_default();
        assert!(error.contains("FeatureNotEnabled"), "{error}");
        assert!(!error.contains("bot-secret"));
    }

    #[test]
    fn sealed_values_are_not_accepted_as_input_and_empty_stays_empty() {
        let mut secret = SealedSecret::from("s");
        secrets(1).seal("a", "f", &mut secret).expect("seal");
        assert!(secrets(1).seal("a", "f", &mut secret).is_err());
        let mut empty = SealedSecret::default();
        secrets(1).seal("a", "f", &mut empty).expect("seal");
        assert!(empty.is_empty());
        assert_eq!(
            secrets(1)
                .try_open("a", "f", &empty)
                .as_deref()
                .map(String::as_str),
            Ok("")
        );
    }
}
