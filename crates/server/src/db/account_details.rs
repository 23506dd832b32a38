//! The `details` JSON of linked accounts (`linked_accounts.details`): one type per account kind,
//! shared by the login method that writes it and the user view that renders it.
//!
//! The field names are the stored key names, so rows written by earlier releases read back and
//! rows written now read the same. Every field reads leniently, like the string-key reads it
//! replaces: a missing key, or one of another JSON type, is the field's default (absent), and
//! `details` that are not a JSON object read as all defaults. A stored row never fails a request.
//! Written values go through [`serde_json::Value`], whose map sorts keys: the stored text is the
//! same as the `json!` objects the methods wrote before.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};
use symbolon_protocol::user::{ChainType, CrossAppWallet};

use super::DbError;

/// The details of one account kind, read from and written to `linked_accounts.details`.
pub trait AccountDetails: Serialize + DeserializeOwned + Default {
    /// The stored `details` text as this kind's details: all defaults when there are none, when
    /// they do not parse or are not a JSON object.
    fn read(stored: Option<&str>) -> Self {
        match stored.map(serde_json::from_str::<Value>) {
            Some(Ok(object @ Value::Object(_))) => {
                serde_json::from_value(object).unwrap_or_default()
            }
            _ => Self::default(),
        }
    }

    /// As a JSON value (a [`VerifiedIdentity`]'s details).
    ///
    /// [`VerifiedIdentity`]: crate::accounts::VerifiedIdentity
    fn to_json(&self) -> Result<Value, DbError> {
        serde_json::to_value(self).map_err(DbError::corrupt)
    }

    /// As the stored text.
    fn to_stored(&self) -> Result<String, DbError> {
        Ok(self.to_json()?.to_string())
    }
}

/// A field as `T`, or `T::default()` when the stored value has another shape.
fn lenient<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned + Default,
{
    Ok(serde_json::from_value(Value::deserialize(deserializer)?).unwrap_or_default())
}

/// `google_oauth`, …, `custom:<name>`: what the provider told at sign-in (`null` when it did not).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct OAuthDetails {
    /// The provider as the client names it (`google`, `custom:acme`, `privy:<app id>`).
    #[serde(deserialize_with = "lenient")]
    pub provider: String,
    /// The email, unless the provider marks it unverified.
    #[serde(deserialize_with = "lenient")]
    pub email: Option<String>,
    /// The display name.
    #[serde(deserialize_with = "lenient")]
    pub name: Option<String>,
    /// The username.
    #[serde(deserialize_with = "lenient")]
    pub username: Option<String>,
}

impl AccountDetails for OAuthDetails {}

/// `cross_app`: an OAuth sign-in at another app of this server, with the wallets it shares.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CrossAppDetails {
    /// The OAuth fields (stored beside the others, not nested).
    #[serde(flatten)]
    pub oauth: OAuthDetails,
    /// The provider app's id.
    #[serde(deserialize_with = "lenient")]
    pub provider_app_id: String,
    /// The provider user's embedded wallets (`[{address}]`).
    #[serde(deserialize_with = "lenient")]
    pub embedded_wallets: Vec<CrossAppWallet>,
    /// The provider user's smart wallets (`[{address}]`).
    #[serde(deserialize_with = "lenient")]
    pub smart_wallets: Vec<CrossAppWallet>,
}

impl AccountDetails for CrossAppDetails {}

/// `passkey`: the credential and where it was made. Changed after sign-up by compare-and-swap
/// (sign counter, MFA flag), so keys this type does not name are kept in [`Self::other`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PasskeyDetails {
    /// webauthn-rs's credential (public key, counter, backup flags) as its own JSON; never sent
    /// to clients.
    #[serde(skip_serializing_if = "Value::is_null")]
    pub credential: Value,
    /// The authenticator's AAGUID, when the attestation had one.
    #[serde(deserialize_with = "lenient")]
    pub aaguid: Option<String>,
    /// The authenticator's name (from the AAGUID).
    #[serde(deserialize_with = "lenient")]
    pub authenticator_name: Option<String>,
    /// From the registering request's `User-Agent`.
    #[serde(deserialize_with = "lenient")]
    pub created_with_browser: Option<String>,
    /// From the registering request's `User-Agent`.
    #[serde(deserialize_with = "lenient")]
    pub created_with_os: Option<String>,
    /// `desktop`, `mobile` or `tablet`.
    #[serde(deserialize_with = "lenient")]
    pub created_with_device: Option<String>,
    /// The MFA enrolment flag: written `false` at registration; `None` when absent (not
    /// enrolled), so a row without it keeps it absent when rewritten.
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    pub enrolled_in_mfa: Option<bool>,
    /// Keys this type does not name, kept as stored.
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

impl PasskeyDetails {
    /// Whether the passkey is enrolled in MFA (absent: no).
    pub fn is_enrolled_in_mfa(&self) -> bool {
        self.enrolled_in_mfa.unwrap_or(false)
    }
}

impl AccountDetails for PasskeyDetails {}

/// `telegram`: the profile in Telegram's proof (`null` when it had none).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TelegramDetails {
    /// First name.
    #[serde(deserialize_with = "lenient")]
    pub first_name: Option<String>,
    /// Last name.
    #[serde(deserialize_with = "lenient")]
    pub last_name: Option<String>,
    /// Username.
    #[serde(deserialize_with = "lenient")]
    pub username: Option<String>,
    /// Profile picture.
    #[serde(deserialize_with = "lenient")]
    pub photo_url: Option<String>,
}

impl AccountDetails for TelegramDetails {}

/// `farcaster`: the custody address and the relay's profile; an approved signer is added later,
/// so keys this type does not name are kept in [`Self::other`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct FarcasterDetails {
    /// The fid's custody address, checksummed.
    #[serde(deserialize_with = "lenient")]
    pub owner_address: String,
    /// The relay's username.
    #[serde(deserialize_with = "lenient")]
    pub username: Option<String>,
    /// The relay's display name.
    #[serde(deserialize_with = "lenient")]
    pub display_name: Option<String>,
    /// The relay's bio.
    #[serde(deserialize_with = "lenient")]
    pub bio: Option<String>,
    /// The relay's profile picture.
    #[serde(deserialize_with = "lenient")]
    pub profile_picture_url: Option<String>,
    /// The approved signer's ed25519 key (absent until one is approved).
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    pub signer_public_key: Option<String>,
    /// Keys this type does not name, kept as stored.
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

impl AccountDetails for FarcasterDetails {}

/// `wallet` without an embedded wallet (SIWE, SIWS): how the client connected it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ExternalWalletDetails {
    /// The chain family (a row without a known one is not shown).
    #[serde(deserialize_with = "lenient")]
    pub chain_type: Option<ChainType>,
    /// The client's `walletClientType` (`unknown` when not sent; absent reads as `unknown`).
    #[serde(deserialize_with = "lenient")]
    pub wallet_client_type: Option<String>,
    /// The client's `connectorType` (`unknown` when not sent; absent reads as `unknown`).
    #[serde(deserialize_with = "lenient")]
    pub connector_type: Option<String>,
}

impl AccountDetails for ExternalWalletDetails {}

/// `smart_wallet` (`/siwe/link_smart_wallet`): the contract wallet's kind.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SmartWalletDetails {
    /// The client's `smart_wallet_type` (`kernel`, `safe`, …).
    #[serde(deserialize_with = "lenient")]
    pub smart_wallet_type: String,
    /// The client's `smart_wallet_version` (`null` when not sent).
    #[serde(deserialize_with = "lenient")]
    pub smart_wallet_version: Option<String>,
}

impl AccountDetails for SmartWalletDetails {}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    type TestResult = Result<(), DbError>;

    fn some(text: &str) -> Option<String> {
        Some(text.to_string())
    }

    fn wallet(address: &str) -> CrossAppWallet {
        CrossAppWallet {
            address: address.into(),
        }
    }

    /// Reads `stored` as `T`, checks it against `expected`, and writes it back to the same JSON.
    fn round_trip<T: AccountDetails + PartialEq + std::fmt::Debug>(
        stored: &Value,
        expected: &T,
    ) -> TestResult {
        let read = T::read(Some(&stored.to_string()));
        assert_eq!(&read, expected);
        assert_eq!(&read.to_json()?, stored, "written back with the same keys");
        assert_eq!(
            read.to_stored()?,
            stored.to_string(),
            "the same stored text"
        );
        Ok(())
    }

    #[test]
    fn oauth_details_keep_their_keys() -> TestResult {
        // As `methods/oauth/identity.rs` wrote them with `json!`.
        let stored = json!({
            "provider": "google",
            "email": "ada@example.com",
            "name": "Ada",
            "username": null,
        });
        let details = OAuthDetails {
            provider: "google".into(),
            email: some("ada@example.com"),
            name: some("Ada"),
            username: None,
        };
        round_trip(&stored, &details)
    }

    #[test]
    fn cross_app_details_keep_their_keys() -> TestResult {
        let stored = json!({
            "provider": "privy:app-a",
            "email": null,
            "name": null,
            "username": null,
            "provider_app_id": "app-a",
            "embedded_wallets": [{"address": "0xaa"}],
            "smart_wallets": [],
        });
        let details = CrossAppDetails {
            oauth: OAuthDetails {
                provider: "privy:app-a".into(),
                ..OAuthDetails::default()
            },
            provider_app_id: "app-a".into(),
            embedded_wallets: vec![wallet("0xaa")],
            smart_wallets: Vec::new(),
        };
        round_trip(&stored, &details)
    }

    #[test]
    fn passkey_details_keep_their_keys() -> TestResult {
        // As `methods/passkey/mod.rs` wrote them with `json!` (the credential abridged).
        let stored = json!({
            "credential": {"cred": {"cred_id": "AQID", "counter": 0}},
            "aaguid": "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4",
            "authenticator_name": "Google Password Manager",
            "created_with_browser": "Chrome",
            "created_with_os": "Android",
            "created_with_device": "mobile",
            "enrolled_in_mfa": false,
        });
        let details = PasskeyDetails {
            credential: json!({"cred": {"cred_id": "AQID", "counter": 0}}),
            aaguid: some("ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4"),
            authenticator_name: some("Google Password Manager"),
            created_with_browser: some("Chrome"),
            created_with_os: some("Android"),
            created_with_device: some("mobile"),
            enrolled_in_mfa: Some(false),
            other: Map::new(),
        };
        round_trip(&stored, &details)?;
        let unknown = json!({"aaguid": null, "authenticator_name": null, "created_with_browser": null,
            "created_with_os": null, "created_with_device": null});
        round_trip(
            &unknown,
            &PasskeyDetails {
                credential: Value::Null,
                enrolled_in_mfa: None,
                ..PasskeyDetails::default()
            },
        )
    }

    #[test]
    fn passkey_details_keep_keys_they_do_not_name() -> TestResult {
        // The shape the migration test stores (tests/it/challenges.rs).
        let stored = r#"{"public_key":"pk","counter":7,"enrolled_in_mfa":true}"#;
        let mut details = PasskeyDetails::read(Some(stored));
        assert!(details.is_enrolled_in_mfa());
        details.enrolled_in_mfa = Some(false);
        assert_eq!(
            details.to_json()?,
            json!({
                "public_key": "pk",
                "counter": 7,
                "enrolled_in_mfa": false,
                "aaguid": null,
                "authenticator_name": null,
                "created_with_browser": null,
                "created_with_os": null,
                "created_with_device": null,
            })
        );
        Ok(())
    }

    #[test]
    fn telegram_details_keep_their_keys() -> TestResult {
        let stored = json!({
            "first_name": "Ada",
            "last_name": null,
            "username": "ada",
            "photo_url": null,
        });
        let details = TelegramDetails {
            first_name: some("Ada"),
            username: some("ada"),
            ..TelegramDetails::default()
        };
        round_trip(&stored, &details)
    }

    #[test]
    fn farcaster_details_keep_their_keys() -> TestResult {
        let stored = json!({
            "owner_address": "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
            "username": "alice",
            "display_name": "Alice",
            "bio": null,
            "profile_picture_url": null,
        });
        let mut details = FarcasterDetails {
            owner_address: "0x8ba1f109551bD432803012645Ac136ddd64DBA72".into(),
            username: some("alice"),
            display_name: some("Alice"),
            ..FarcasterDetails::default()
        };
        round_trip(&stored, &details)?;
        // The approved signer is added beside the profile (methods/farcaster/signer.rs).
        let mut signed = stored.clone();
        signed["signer_public_key"] = json!("0xkey");
        details.signer_public_key = some("0xkey");
        round_trip(&signed, &details)
    }

    #[test]
    fn wallet_details_keep_their_keys() -> TestResult {
        let stored = json!({
            "chain_type": "solana",
            "wallet_client_type": "phantom",
            "connector_type": "unknown",
        });
        let details = ExternalWalletDetails {
            chain_type: Some(ChainType::Solana),
            wallet_client_type: some("phantom"),
            connector_type: some("unknown"),
        };
        round_trip(&stored, &details)?;
        let smart = json!({"smart_wallet_type": "kernel", "smart_wallet_version": null});
        round_trip(
            &smart,
            &SmartWalletDetails {
                smart_wallet_type: "kernel".into(),
                smart_wallet_version: None,
            },
        )
    }

    #[test]
    fn unreadable_details_read_as_absent_fields() {
        for stored in [
            None,
            Some(""),
            Some("not json"),
            Some("null"),
            Some("7"),
            Some(r#""text""#),
            Some(r#"["Ada", "Lovelace", "ada", "https://t.me/a.jpg"]"#),
        ] {
            assert_eq!(
                TelegramDetails::read(stored),
                TelegramDetails::default(),
                "{stored:?}"
            );
        }
        // A field of another type is absent; the others still read.
        let stored = r#"{"first_name": 7, "last_name": ["x"], "username": "ada", "photo_url": {}}"#;
        assert_eq!(
            TelegramDetails::read(Some(stored)),
            TelegramDetails {
                username: some("ada"),
                ..TelegramDetails::default()
            }
        );
        let stored =
            r#"{"chain_type": "bitcoin", "wallet_client_type": 1, "connector_type": "injected"}"#;
        assert_eq!(
            ExternalWalletDetails::read(Some(stored)),
            ExternalWalletDetails {
                connector_type: some("injected"),
                ..ExternalWalletDetails::default()
            }
        );
        let stored = r#"{"provider_app_id": 5, "embedded_wallets": [{"address": 1}], "smart_wallets": "x", "name": "Ada"}"#;
        let cross_app = CrossAppDetails::read(Some(stored));
        assert_eq!(cross_app.oauth.name.as_deref(), Some("Ada"));
        assert_eq!(cross_app.provider_app_id, "");
        assert!(cross_app.embedded_wallets.is_empty() && cross_app.smart_wallets.is_empty());
        let passkey = PasskeyDetails::read(Some(r#"{"enrolled_in_mfa": "yes"}"#));
        assert!(!passkey.is_enrolled_in_mfa());
    }
}
