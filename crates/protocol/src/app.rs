//! App configuration as `GET /api/v1/apps/{app_id}` returns it (spec §3, server form).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::accounts::LoginMethodsAndOrder;
use crate::oauth::CustomOAuthProviderConfig;

/// The public configuration of an app. Secrets and allowed origins are not part of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AppConfigResponse {
    /// The 25-character app id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Logo shown in the modal.
    pub logo_url: Option<String>,
    /// Base URL the client should call instead of the default, if any.
    pub custom_api_url: Option<String>,
    /// Email code login enabled.
    pub email_auth: bool,
    /// SMS code login enabled.
    pub sms_auth: bool,
    /// External wallet login enabled.
    pub wallet_auth: bool,
    /// Passkey login enabled.
    pub passkey_auth: bool,
    /// Guest login enabled.
    pub guest_auth: bool,
    /// The app signs users in with its own JWTs (spec §3 `customAuth`).
    pub custom_jwt_auth: bool,
    /// Google login enabled (and configured).
    pub google_oauth: bool,
    /// Apple login enabled.
    pub apple_oauth: bool,
    /// Twitter (X) login enabled.
    pub twitter_oauth: bool,
    /// Discord login enabled.
    pub discord_oauth: bool,
    /// GitHub login enabled.
    pub github_oauth: bool,
    /// LinkedIn login enabled.
    pub linkedin_oauth: bool,
    /// Spotify login enabled.
    pub spotify_oauth: bool,
    /// Instagram login enabled.
    pub instagram_oauth: bool,
    /// TikTok login enabled.
    pub tiktok_oauth: bool,
    /// LINE login enabled.
    pub line_oauth: bool,
    /// Twitch login enabled.
    pub twitch_oauth: bool,
    /// The operator's own OAuth providers (spec §3 `customOAuthProviders`).
    pub custom_oauth_providers: Vec<CustomOAuthProviderConfig>,
    /// The login methods the modal lists, in order (spec §3 `loginMethodsAndOrder`).
    pub login_methods_and_order: LoginMethodsAndOrder,
    /// Email addresses with '+' are refused.
    pub disable_plus_emails: bool,
    /// Users must accept the terms before using the app.
    pub require_users_accept_terms: bool,
    /// Link to the terms.
    pub terms_and_conditions_url: Option<String>,
    /// Link to the privacy policy.
    pub privacy_policy_url: Option<String>,
    /// Invisible captcha enabled.
    pub captcha_enabled: bool,
    /// Captcha site key (must start with `t:`); absent without one (the published schema takes a
    /// string or nothing, not null).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub captcha_site_key: Option<String>,
    /// Embedded wallet behaviour.
    pub embedded_wallet_config: EmbeddedWalletConfig,
    /// MFA methods the app offers.
    pub mfa_methods: Vec<String>,
    /// Every signature and transaction of a user enrolled in MFA needs a fresh verification
    /// (transaction protection).
    #[serde(default)]
    pub mfa_protect_transactions: bool,
    /// Login with Telegram, when the app has a bot (spec §3 `telegramAuthConfiguration`).
    pub telegram_auth_config: Option<crate::telegram::TelegramAuthConfig>,
    /// The WalletConnect Cloud project id of the app's external-wallet connections (spec §3
    /// `walletConnectCloudProjectId`); absent when the operator set none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub wallet_connect_cloud_project_id: Option<String>,
    /// What the modal shows a user the allowlist refuses. Always present (every field may be
    /// null): the published react-auth reads it while rendering the app's config.
    pub allowlist_config: AllowlistConfig,
    // The keys below are the published app schema's (`AppResponseSchema` of `@privy-io/public-api`):
    // its clients parse the config with it, so each is present even where we have no such feature.
    /// The app's small icon (none: the logo serves).
    pub icon_url: Option<String>,
    /// The modal's theme when the host sets none.
    pub theme: String,
    /// The modal's accent colour when the host sets none.
    pub accent_color: Option<String>,
    /// List wallets before the other methods.
    pub show_wallet_login_first: bool,
    /// The origins the app serves (its allowed origins).
    pub allowed_domains: Vec<String>,
    /// Native apps allowed to use the app id (none: web only).
    pub allowed_native_app_ids: Vec<String>,
    /// Native apps' URL schemes (none).
    pub allowed_native_app_url_schemes: Vec<String>,
    /// Sign In With Farcaster offered.
    pub farcaster_auth: bool,
    /// New users may sign up with a passkey.
    pub passkeys_for_signup_enabled: bool,
    /// Login with Telegram offered.
    pub telegram_auth: bool,
    /// Sign-in with Solana wallets offered.
    pub solana_wallet_auth: bool,
    /// Only listed accounts may sign in.
    pub allowlist_enabled: bool,
    /// Wallet confirmation screens are forced on (no).
    pub enforce_wallet_uis: bool,
    /// The vendor's older wallet screens (no).
    pub legacy_wallet_ui_config: bool,
    /// Fiat on-ramp (not offered).
    pub fiat_on_ramp_enabled: bool,
    /// Twitter login on mobile (not offered separately).
    pub twitter_oauth_on_mobile_enabled: bool,
    /// A verification key in PEM; empty: the token keys are published as a JWKS instead.
    pub verification_key: String,
    /// At most this many external wallets per user (none: no limit of its own).
    pub max_linked_wallets_per_user: Option<u32>,
    /// Farcaster accounts link their verified wallets (no).
    pub farcaster_link_wallets_enabled: bool,
    /// WhatsApp codes (not offered).
    pub whatsapp_enabled: bool,
}

/// The texts of the allowlist refusal screen; null means the client's default.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AllowlistConfig {
    /// The screen's title.
    pub error_title: Option<String>,
    /// The screen's explanation.
    pub error_detail: Option<String>,
    /// The label of the screen's button.
    pub cta_text: Option<String>,
    /// Where the screen's button leads.
    pub cta_link: Option<String>,
}

/// When an embedded wallet is created on login (spec §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum CreateOnLogin {
    /// Never automatically.
    #[default]
    Off,
    /// For users who have no wallet yet.
    UsersWithoutWallets,
    /// For every user.
    AllUsers,
}

/// Per-chain wallet creation.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChainWalletConfig {
    /// When to create a wallet of this chain type on login.
    pub create_on_login: CreateOnLogin,
}

/// Embedded wallet configuration, server form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EmbeddedWalletConfig {
    /// When to create a wallet on login (the published schema's top-level copy of Ethereum's).
    #[serde(default)]
    pub create_on_login: CreateOnLogin,
    /// Ethereum wallets.
    pub ethereum: ChainWalletConfig,
    /// Solana wallets.
    pub solana: ChainWalletConfig,
    /// A user password is required when creating a wallet.
    pub require_user_password_on_create: bool,
    /// Recovery methods users may choose.
    pub user_owned_recovery_options: Vec<String>,
    /// Wallet stack: `legacy-embedded-wallets-only` or `user-controlled-server-wallets-only`.
    pub mode: String,
}
