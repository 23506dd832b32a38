//! The user and linked accounts in the server's wire form (spec §3).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A user as the server returns it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct User {
    /// Stable id, `did:privy:…`.
    pub id: String,
    /// Unix seconds.
    #[ts(type = "number")]
    pub created_at: i64,
    /// Every account the user can sign in with or has linked, wallets included.
    pub linked_accounts: Vec<LinkedAccount>,
    /// MFA methods the user has enrolled in.
    pub mfa_methods: Vec<MfaMethod>,
    /// Whether the user accepted the app's terms.
    pub has_accepted_terms: bool,
    /// Whether this is a guest user.
    pub is_guest: bool,
    /// What the host app's back end stored about the user (`/v1/users/{id}/custom_metadata`);
    /// absent when it stored nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Record<string, string | number | boolean>")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub custom_metadata: Option<serde_json::Map<String, serde_json::Value>>,
}

/// An MFA method a user is enrolled in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum MfaMethod {
    /// Authenticator app.
    Totp {
        /// Unix seconds.
        #[ts(type = "number")]
        verified_at: i64,
    },
    /// SMS code.
    Sms {
        /// Unix seconds.
        #[ts(type = "number")]
        verified_at: i64,
    },
    /// Passkey.
    Passkey {
        /// Unix seconds.
        #[ts(type = "number")]
        verified_at: i64,
    },
}

/// A linked account, tagged by `type` as on the wire.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LinkedAccount {
    /// A verified email address.
    Email(EmailAccount),
    /// An embedded or external wallet.
    Wallet(WalletAccount),
    /// A verified phone number.
    Phone(PhoneAccount),
    /// The host app's own user, proven by its JWT.
    CustomAuth(CustomAuthAccount),
    /// A Google account.
    GoogleOauth(OAuthAccount),
    /// An Apple account.
    AppleOauth(OAuthAccount),
    /// A Twitter (X) account.
    TwitterOauth(OAuthAccount),
    /// A Discord account.
    DiscordOauth(OAuthAccount),
    /// A GitHub account.
    GithubOauth(OAuthAccount),
    /// A LinkedIn account.
    LinkedinOauth(OAuthAccount),
    /// A Spotify account.
    SpotifyOauth(OAuthAccount),
    /// An Instagram account.
    InstagramOauth(OAuthAccount),
    /// A TikTok account.
    TiktokOauth(OAuthAccount),
    /// A LINE account.
    LineOauth(OAuthAccount),
    /// A Twitch account.
    TwitchOauth(OAuthAccount),
    /// The user of another app of this server (provider `privy:<app id>`).
    CrossApp(CrossAppAccount),
    /// A Farcaster account, proven by its custody address (Sign In With Farcaster).
    Farcaster(FarcasterAccount),
    /// A Telegram account, proven by the Login Widget or a Mini App's `initData`.
    Telegram(TelegramAccount),
    /// A passkey (WebAuthn credential); a user may have up to five.
    Passkey(PasskeyAccount),
    /// An account at an operator's own provider: `type` is `custom:<name>`.
    #[serde(untagged)]
    #[ts(untagged)]
    CustomOauth(CustomOAuthAccount),
}

/// `type: "google_oauth"`, `"github_oauth"`, …: an account at a built-in OAuth provider. Fields
/// the provider does not give are null.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OAuthAccount {
    /// The provider's stable id of the user (`sub`, or its user id).
    pub subject: String,
    /// Email, when the provider gives one.
    pub email: Option<String>,
    /// Display name.
    pub name: Option<String>,
    /// Handle (`login`, `username`, …).
    pub username: Option<String>,
    /// Verification times.
    #[serde(flatten)]
    #[ts(flatten)]
    pub verification: Verification,
}

/// `type: "custom:<name>"`: an account at a provider the operator configured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CustomOAuthAccount {
    /// `custom:<name>`.
    #[serde(rename = "type")]
    #[ts(rename = "type", type = "`custom:${string}`")]
    pub account_type: String,
    /// The provider's id of the user.
    pub subject: String,
    /// Email, when mapped.
    pub email: Option<String>,
    /// Display name, when mapped.
    pub name: Option<String>,
    /// Handle, when mapped.
    pub username: Option<String>,
    /// Verification times.
    #[serde(flatten)]
    #[ts(flatten)]
    pub verification: Verification,
}

/// A wallet of a cross-app account (only its address is shared).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CrossAppWallet {
    /// The wallet's address.
    pub address: String,
}

/// `type: "cross_app"`: the user's account of another app (spec §3 "Cross-app").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CrossAppAccount {
    /// The user's id in the provider app.
    pub subject: String,
    /// The provider app's id.
    pub provider_app_id: String,
    /// The user's embedded wallets in the provider app.
    pub embedded_wallets: Vec<CrossAppWallet>,
    /// The user's smart wallets in the provider app.
    pub smart_wallets: Vec<CrossAppWallet>,
    /// Verification times.
    #[serde(flatten)]
    #[ts(flatten)]
    pub verification: Verification,
}

/// When an account was verified, in unix seconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Verification {
    /// First verification (kept for compatibility with clients that read `verified_at`).
    #[ts(type = "number")]
    pub verified_at: i64,
    /// First verification.
    #[ts(type = "number | null")]
    pub first_verified_at: Option<i64>,
    /// Most recent verification.
    #[ts(type = "number | null")]
    pub latest_verified_at: Option<i64>,
}

/// `type: "email"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EmailAccount {
    /// Trimmed and lower-cased.
    pub address: String,
    /// Verification times.
    #[serde(flatten)]
    #[ts(flatten)]
    pub verification: Verification,
}

/// `type: "phone"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PhoneAccount {
    /// E.164, e.g. `+12015550123`.
    #[serde(rename = "phoneNumber")]
    #[ts(rename = "phoneNumber")]
    pub phone_number: String,
    /// Verification times.
    #[serde(flatten)]
    #[ts(flatten)]
    pub verification: Verification,
}

/// `type: "custom_auth"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CustomAuthAccount {
    /// The host's user id (the token's subject claim).
    pub custom_user_id: String,
    /// Verification times.
    #[serde(flatten)]
    #[ts(flatten)]
    pub verification: Verification,
}

/// `type: "farcaster"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FarcasterAccount {
    /// The Farcaster id.
    #[ts(type = "number")]
    pub fid: u64,
    /// The fid's custody address (checksummed) that signed the sign-in.
    pub owner_address: String,
    /// Farcaster username, as the relay reported it.
    pub username: Option<String>,
    /// Display name.
    pub display_name: Option<String>,
    /// Profile text.
    pub bio: Option<String>,
    /// Profile picture.
    pub profile_picture_url: Option<String>,
    /// Ed25519 key of the user's approved Farcaster signer; null until one exists.
    pub signer_public_key: Option<String>,
    /// Verification times.
    #[serde(flatten)]
    #[ts(flatten)]
    pub verification: Verification,
}

/// `type: "telegram"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TelegramAccount {
    /// The Telegram user id, in decimal.
    pub telegram_user_id: String,
    /// First name, as Telegram last reported it.
    pub first_name: Option<String>,
    /// Last name.
    pub last_name: Option<String>,
    /// Username, without the `@`.
    pub username: Option<String>,
    /// Profile picture.
    pub photo_url: Option<String>,
    /// Verification times.
    #[serde(flatten)]
    #[ts(flatten)]
    pub verification: Verification,
}

/// `type: "passkey"` (spec §3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasskeyAccount {
    /// The credential id (base64url).
    pub credential_id: String,
    /// The authenticator's name (from its AAGUID), when known.
    pub authenticator_name: Option<String>,
    /// The browser that registered it (from its User-Agent).
    pub created_with_browser: Option<String>,
    /// The operating system that registered it.
    pub created_with_os: Option<String>,
    /// The device kind that registered it (`desktop`, `mobile`, …).
    pub created_with_device: Option<String>,
    /// Whether it is one of the user's MFA methods.
    pub enrolled_in_mfa: bool,
    /// Verification times.
    #[serde(flatten)]
    #[ts(flatten)]
    pub verification: Verification,
}

/// Chain family of a wallet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ChainType {
    /// EVM chains.
    Ethereum,
    /// Solana.
    Solana,
}

impl ChainType {
    /// The wire name, e.g. `"ethereum"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Ethereum => "ethereum",
            Self::Solana => "solana",
        }
    }

    /// Parses a wire name.
    pub fn parse(name: &str) -> Option<Self> {
        [Self::Ethereum, Self::Solana]
            .into_iter()
            .find(|c| c.as_str() == name)
    }
}

/// How an embedded wallet's recovery share is protected (spec §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum RecoveryMethod {
    /// Automatic recovery, share held by the server.
    #[serde(rename = "privy")]
    Privy,
    /// Automatic recovery, second version.
    #[serde(rename = "privy-v2")]
    PrivyV2,
    /// Protected by a passcode only the user knows.
    #[serde(rename = "user-passcode")]
    UserPasscode,
    /// Kept in the user's Google Drive.
    #[serde(rename = "google-drive")]
    GoogleDrive,
    /// Kept in the user's iCloud.
    #[serde(rename = "icloud")]
    Icloud,
    /// Kept in iCloud by a native app.
    #[serde(rename = "icloud-native")]
    IcloudNative,
    /// Protected by a recovery encryption key the host provides.
    #[serde(rename = "recovery-encryption-key")]
    RecoveryEncryptionKey,
}

impl RecoveryMethod {
    /// Every method, for parsing.
    const ALL: [Self; 7] = [
        Self::Privy,
        Self::PrivyV2,
        Self::UserPasscode,
        Self::GoogleDrive,
        Self::Icloud,
        Self::IcloudNative,
        Self::RecoveryEncryptionKey,
    ];

    /// The wire name, e.g. `"privy"` or `"user-passcode"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Privy => "privy",
            Self::PrivyV2 => "privy-v2",
            Self::UserPasscode => "user-passcode",
            Self::GoogleDrive => "google-drive",
            Self::Icloud => "icloud",
            Self::IcloudNative => "icloud-native",
            Self::RecoveryEncryptionKey => "recovery-encryption-key",
        }
    }

    /// Parses a wire name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.as_str() == name)
    }
}

/// `type: "wallet"`; for embedded wallets `wallet_client_type: "privy"`, `connector_type: "embedded"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WalletAccount {
    /// Server id of the wallet.
    pub id: Option<String>,
    /// Checksummed (EVM) or base58 (Solana) address.
    pub address: String,
    /// `ethereum` or `solana`.
    pub chain_type: ChainType,
    /// `privy` for embedded wallets, else the external wallet's client name.
    pub wallet_client_type: String,
    /// `embedded` for embedded wallets, else the connector used.
    pub connector_type: String,
    /// Index among the user's embedded wallets of this chain type (first is 0).
    pub wallet_index: Option<u32>,
    /// Embedded wallets only.
    pub recovery_method: Option<RecoveryMethod>,
    /// Whether the key was imported.
    pub imported: bool,
    /// Whether the user delegated actions on this wallet to the app.
    pub delegated: bool,
    /// Verification times.
    #[serde(flatten)]
    #[ts(flatten)]
    pub verification: Verification,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_names_match_serde() {
        for chain in [ChainType::Ethereum, ChainType::Solana] {
            assert_eq!(
                serde_json::to_value(chain).ok(),
                Some(chain.as_str().into())
            );
            assert_eq!(ChainType::parse(chain.as_str()), Some(chain));
        }
        for method in RecoveryMethod::ALL {
            assert_eq!(
                serde_json::to_value(method).ok(),
                Some(method.as_str().into())
            );
            assert_eq!(RecoveryMethod::parse(method.as_str()), Some(method));
        }
        assert_eq!(ChainType::parse("bitcoin"), None);
        let custom = serde_json::json!({
            "type": "custom:acme", "subject": "u1", "email": null, "name": "Ada",
            "username": null, "verified_at": 1, "first_verified_at": 1, "latest_verified_at": 1,
        });
        let parsed: Option<LinkedAccount> = serde_json::from_value(custom.clone()).ok();
        assert!(
            matches!(&parsed, Some(LinkedAccount::CustomOauth(a)) if a.account_type == "custom:acme")
        );
        assert_eq!(
            parsed.and_then(|p| serde_json::to_value(p).ok()),
            Some(custom)
        );
        let google = serde_json::json!({
            "type": "google_oauth", "subject": "g1", "email": "a@b.c", "name": null,
            "username": null, "verified_at": 1, "first_verified_at": 1, "latest_verified_at": 1,
        });
        let parsed: Option<LinkedAccount> = serde_json::from_value(google.clone()).ok();
        assert!(matches!(parsed, Some(LinkedAccount::GoogleOauth(_))));
        assert_eq!(RecoveryMethod::parse("passkey"), None);
    }
}
