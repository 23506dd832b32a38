//! The `/v1` API a host app's back end calls with its app secret (HTTP Basic), in the shapes the
//! spec vendor's server SDK (`@privy-io/node`) sends and parses: users looked up, listed, created,
//! deleted and given custom metadata.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::user::User;

/// Most users one page of `GET /v1/users` holds (the vendor's cap; more is refused).
pub const MAX_PAGE_SIZE: u32 = 100;

/// Users per page when `limit` is not given.
pub const DEFAULT_PAGE_SIZE: u32 = 100;

/// Most bytes of a user's custom metadata as JSON (the vendor's 1 KB).
pub const MAX_CUSTOM_METADATA_BYTES: usize = 1024;

/// `GET /v1/users?cursor=&limit=`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema, utoipa::IntoParams))]
pub struct UserListQuery {
    /// Where the previous page ended (its `next_cursor`); the first page without it.
    pub cursor: Option<String>,
    /// Users per page, 1 to 100.
    pub limit: Option<u32>,
}

/// One page of users, oldest id first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UserPage {
    /// The users.
    pub data: Vec<User>,
    /// Pass as `cursor` for the next page; null after the last.
    pub next_cursor: Option<String>,
}

/// `POST /v1/users/email/address`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EmailLookup {
    /// The address (compared lower-cased).
    pub address: String,
}

/// `POST /v1/users/phone/number`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PhoneLookup {
    /// The number, in any form that parses (compared in E.164).
    pub number: String,
}

/// `POST /v1/users/wallet/address` and `/v1/users/smart_wallet/address`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WalletLookup {
    /// An Ethereum (any case) or Solana address.
    pub address: String,
}

/// `POST /v1/users/custom_auth/id`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CustomAuthLookup {
    /// The host's user id.
    pub custom_user_id: String,
}

/// `POST /v1/users/twitter/subject`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SubjectLookup {
    /// The provider's id of the user.
    pub subject: String,
}

/// `POST /v1/users/{twitter,discord,github,telegram}/username`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UsernameLookup {
    /// The handle at the provider (compared without case).
    pub username: String,
}

/// `POST /v1/users/{user_id}/accounts/unlink`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UnlinkAccountRequest {
    /// The account's type (`email`, `phone`, `wallet`, `google_oauth`, `custom:<name>`, …).
    #[serde(rename = "type")]
    #[ts(rename = "type")]
    pub account_type: String,
    /// What identifies it: the address, number, wallet address, OAuth subject, Telegram user id,
    /// Farcaster id or custom-auth id.
    pub handle: String,
    /// For `cross_app`: the provider app's id (accepted, not needed: the handle is unique).
    #[serde(default)]
    pub provider: Option<String>,
}

/// `POST /v1/users/telegram/telegram_user_id`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TelegramLookup {
    /// The Telegram user id, in decimal.
    pub telegram_user_id: String,
}

/// `POST /v1/users/farcaster/fid`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FarcasterLookup {
    /// The Farcaster id.
    #[ts(type = "number")]
    pub fid: u64,
}

/// `POST /v1/users/{user_id}/custom_metadata`: replaces the user's metadata.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CustomMetadataRequest {
    /// Keys to strings, numbers or booleans; at most 1 KB as JSON.
    #[ts(type = "Record<string, string | number | boolean>")]
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub custom_metadata: serde_json::Map<String, serde_json::Value>,
}

/// An account a user is created with (`POST /v1/users` `linked_accounts`), tagged by `type` as
/// the vendor's import takes it. Imported accounts count as verified at the import.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LinkedAccountInput {
    /// An email address.
    Email {
        /// The address.
        address: String,
    },
    /// A phone number.
    Phone {
        /// The number.
        number: String,
    },
    /// An external wallet.
    Wallet {
        /// The address.
        address: String,
        /// `ethereum` or `solana`.
        chain_type: String,
    },
    /// The host's own user id.
    CustomAuth {
        /// The host's user id.
        custom_user_id: String,
    },
    /// A Telegram account.
    Telegram {
        /// The Telegram user id.
        telegram_user_id: String,
        /// First name.
        #[serde(default)]
        first_name: Option<String>,
        /// Last name.
        #[serde(default)]
        last_name: Option<String>,
        /// Username.
        #[serde(default)]
        username: Option<String>,
        /// Photo.
        #[serde(default)]
        photo_url: Option<String>,
    },
    /// A Farcaster account.
    Farcaster {
        /// The Farcaster id.
        #[ts(type = "number")]
        fid: u64,
        /// The custody address.
        owner_address: String,
        /// Username.
        #[serde(default)]
        username: Option<String>,
        /// Display name.
        #[serde(default)]
        display_name: Option<String>,
        /// Bio.
        #[serde(default)]
        bio: Option<String>,
        /// Profile picture.
        #[serde(default)]
        profile_picture_url: Option<String>,
    },
    /// A Google account.
    GoogleOauth(OAuthAccountInput),
    /// An Apple account.
    AppleOauth(OAuthAccountInput),
    /// A Twitter (X) account.
    TwitterOauth(OAuthAccountInput),
    /// A Discord account.
    DiscordOauth(OAuthAccountInput),
    /// A GitHub account.
    GithubOauth(OAuthAccountInput),
    /// A LinkedIn account.
    LinkedinOauth(OAuthAccountInput),
    /// A Spotify account.
    SpotifyOauth(OAuthAccountInput),
    /// An Instagram account.
    InstagramOauth(OAuthAccountInput),
    /// A TikTok account.
    TiktokOauth(OAuthAccountInput),
    /// A LINE account.
    LineOauth(OAuthAccountInput),
    /// A Twitch account.
    TwitchOauth(OAuthAccountInput),
}

/// An OAuth account to import: the provider's subject and what it told.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OAuthAccountInput {
    /// The provider's stable id of the user.
    pub subject: String,
    /// Email.
    #[serde(default)]
    pub email: Option<String>,
    /// Display name.
    #[serde(default)]
    pub name: Option<String>,
    /// Handle.
    #[serde(default)]
    pub username: Option<String>,
}

/// `POST /v1/users`: a user with these accounts (and metadata).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreateUserRequest {
    /// At least one account; each must belong to nobody yet.
    pub linked_accounts: Vec<LinkedAccountInput>,
    /// Initial custom metadata.
    #[serde(default)]
    #[ts(optional, type = "Record<string, string | number | boolean>")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub custom_metadata: Option<serde_json::Map<String, serde_json::Value>>,
    /// Embedded wallets to make for the user now, which they own from their first sign-in.
    #[serde(default)]
    #[ts(optional)]
    pub wallets: Option<Vec<WalletCreationInput>>,
}

/// `POST /v1/users/{user_id}/wallets`: embedded wallets to make for a user who has none yet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PregenerateWalletsRequest {
    /// At least one wallet.
    pub wallets: Vec<WalletCreationInput>,
}

/// One embedded wallet to pregenerate, in the vendor's shape. Only `chain_type: "ethereum"` is
/// made so far; the other fields are refused when set (they come with smart wallets and
/// delegation), never silently dropped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WalletCreationInput {
    /// `ethereum` (the vendor also names `solana` and other chains).
    pub chain_type: String,
    /// A smart wallet with this one as its signer.
    #[serde(default)]
    #[ts(optional)]
    pub create_smart_wallet: Option<bool>,
    /// Key quorums that may also sign.
    #[serde(default)]
    #[ts(optional, type = "Array<unknown>")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Vec<Object>>))]
    pub additional_signers: Option<Vec<serde_json::Value>>,
    /// Policies the wallet's signatures must pass.
    #[serde(default)]
    #[ts(optional)]
    pub policy_ids: Option<Vec<String>>,
    /// The host's own id for the wallet.
    #[serde(default)]
    #[ts(optional)]
    pub external_id: Option<String>,
}

/// What `symbolon users export` writes: every user of one app, in the `/v1` user form (linked
/// accounts with embedded-wallet metadata, MFA enrolment, custom metadata). `symbolon users import`
/// reads it back, and also a bare array of users (the vendor's export).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UserExport {
    /// The app the users belong to.
    pub app_id: String,
    /// Unix seconds.
    #[ts(type = "number")]
    pub exported_at: i64,
    /// The users, by id.
    pub users: Vec<User>,
    /// With `--wallets-to`: each moved embedded wallet's auth and recovery shares, sealed to the
    /// destination server's transfer key (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub wallet_shares: Option<Vec<SealedWalletShares>>,
}

/// One user's root embedded wallet's auth and recovery shares, HPKE-sealed (RFC 9180, X25519,
/// HKDF-SHA256, ChaCha20-Poly1305) to another server's transfer key and bound to the user, the
/// chain and the root address. Only that server opens it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SealedWalletShares {
    /// `did:privy:…`.
    pub user_id: String,
    /// The wallet's chain.
    pub chain_type: crate::user::ChainType,
    /// The wallet at index 0, whose entropy the shares rebuild.
    pub root_address: String,
    /// HPKE's encapsulated key, base64url.
    pub encapsulated_key: String,
    /// The sealed 17-byte auth share then 17-byte recovery share, base64url.
    pub ciphertext: String,
}

/// `POST /v1/users/import`: several users at once, each as `POST /v1/users` takes one. Each is
/// read on its own: a malformed one fails alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ImportUsersRequest {
    /// 1 to 100 users.
    #[ts(type = "Array<CreateUserRequest>")]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<CreateUserRequest>))]
    pub users: Vec<serde_json::Value>,
}

/// What happened to each user of an import, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ImportUsersResponse {
    /// One per user sent.
    pub results: Vec<ImportUserResult>,
}

/// One user of an import.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ImportUserResult {
    /// Always `create`.
    pub action: String,
    /// Its position in `users` (from 0).
    pub index: usize,
    /// Whether the user was created.
    pub success: bool,
    /// The new user's id, when created.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub id: Option<String>,
    /// Why not: the error code `POST /v1/users` would have answered (`linked_to_another_user`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub code: Option<String>,
    /// Why not, for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<String>,
}

/// `POST /v1/users/search`: a term (a user id, or all or part of an email, phone number, wallet
/// address, custom-auth id or username), or lists of emails, phone numbers and wallet addresses.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UserSearchRequest {
    /// What to look for.
    #[serde(default, rename = "searchTerm")]
    #[ts(optional)]
    pub search_term: Option<String>,
    /// Email addresses.
    #[serde(default)]
    #[ts(optional)]
    pub emails: Option<Vec<String>>,
    /// Phone numbers.
    #[serde(default, rename = "phoneNumbers")]
    #[ts(optional)]
    pub phone_numbers: Option<Vec<String>>,
    /// Wallet addresses.
    #[serde(default, rename = "walletAddresses")]
    #[ts(optional)]
    pub wallet_addresses: Option<Vec<String>>,
}
