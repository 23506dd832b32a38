//! The app's configuration: what `GET /api/v1/apps/{app_id}` shows its pages and `GET
//! /v1/apps/{app_id}` its back end (the SDK's `apps().get`), one view for both.

use axum::Json;
use axum::extract::State;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::app::{
    AllowlistConfig, AppConfigResponse, ChainWalletConfig, EmbeddedWalletConfig,
};
use symbolon_protocol::oauth::CustomOAuthProviderConfig;

use super::deps::AppSettingsDeps;
use crate::app_secrets::{AppSecrets, TELEGRAM_BOT_TOKEN};
use crate::db::apps::AppRecord;
use crate::error::AppError;
use crate::web::back_end::BackEnd;
use crate::web::path_param::PathParam;

/// `GET /v1/apps/{app_id}`: the calling app's settings. Another app's id is `404` (a secret
/// shows nothing of other apps).
pub async fn get_settings(
    State(deps): State<AppSettingsDeps>,
    back_end: BackEnd,
    PathParam(app_id): PathParam<String>,
) -> Result<Json<AppConfigResponse>, AppError> {
    if app_id != back_end.app.id {
        return Err(AppError::new(ServerErrorCode::NotFound, "No such app"));
    }
    Ok(Json(app_config(
        &deps.app_secrets,
        &back_end.app,
        deps.tokens.keys().verification_pem(),
    )))
}

/// The wire configuration: the app's login methods (wallet creation stays with the client), the
/// origins it allows and the public key that verifies its tokens now.
pub fn app_config(
    secrets: &AppSecrets,
    app: &AppRecord,
    verification_key: &str,
) -> AppConfigResponse {
    let settings = &app.settings;
    let oauth = |provider: &str| settings.oauth_enabled(provider);
    let ethereum = ChainWalletConfig::default();
    // Telegram is offered exactly when its bot is shown.
    let telegram_auth_config = settings
        .telegram
        .as_ref()
        .filter(|_| settings.lists_method("telegram"))
        // A bot token that does not open is logged, and Telegram not offered.
        .and_then(|t| {
            let token = secrets
                .open(&app.id, TELEGRAM_BOT_TOKEN, &t.bot_token)
                .ok()?;
            Some(t.public_config(&token))
        });
    AppConfigResponse {
        id: app.id.clone(),
        name: app.name.clone(),
        logo_url: settings.logo_url.clone(),
        custom_api_url: None,
        email_auth: settings.lists_method("email"),
        sms_auth: settings.lists_method("sms"),
        wallet_auth: settings.lists_method("wallet"),
        passkey_auth: settings.lists_method("passkey"),
        guest_auth: settings.guest_accounts,
        custom_jwt_auth: settings.custom_auth.is_some(),
        google_oauth: oauth("google"),
        apple_oauth: oauth("apple"),
        twitter_oauth: oauth("twitter"),
        discord_oauth: oauth("discord"),
        github_oauth: oauth("github"),
        linkedin_oauth: oauth("linkedin"),
        spotify_oauth: oauth("spotify"),
        instagram_oauth: oauth("instagram"),
        tiktok_oauth: oauth("tiktok"),
        line_oauth: oauth("line"),
        twitch_oauth: oauth("twitch"),
        custom_oauth_providers: settings
            .oauth
            .custom_providers
            .iter()
            .filter(|c| settings.oauth_enabled(&c.provider))
            .map(|c| CustomOAuthProviderConfig {
                provider: c.provider.clone(),
                provider_display_name: c.display_name.clone(),
                provider_icon_url: c.icon_url.clone(),
                enabled: true,
            })
            .collect(),
        login_methods_and_order: settings.login_methods.clone(),
        disable_plus_emails: app.disable_plus_emails,
        require_users_accept_terms: app.require_users_accept_terms,
        terms_and_conditions_url: None,
        privacy_policy_url: None,
        captcha_enabled: false,
        captcha_site_key: None,
        embedded_wallet_config: EmbeddedWalletConfig {
            // The published schema's top-level copy of Ethereum's.
            create_on_login: ethereum.create_on_login,
            ethereum,
            solana: ChainWalletConfig::default(),
            require_user_password_on_create: false,
            user_owned_recovery_options: vec!["user-passcode".into()],
            mode: "legacy-embedded-wallets-only".into(),
        },
        mfa_methods: settings.mfa.methods.clone(),
        mfa_protect_transactions: settings.mfa.protect_transactions,
        telegram_auth: telegram_auth_config.is_some(),
        telegram_auth_config,
        wallet_connect_cloud_project_id: settings.wallets.wallet_connect_cloud_project_id.clone(),
        // The client's own refusal texts: no setting of ours overrides them yet.
        allowlist_config: AllowlistConfig::default(),
        icon_url: None,
        theme: "light".into(),
        accent_color: None,
        show_wallet_login_first: false,
        allowed_domains: app.allowed_origins.clone(),
        allowed_native_app_ids: Vec::new(),
        allowed_native_app_url_schemes: Vec::new(),
        farcaster_auth: settings.lists_method("farcaster"),
        passkeys_for_signup_enabled: settings.lists_method("passkey") && settings.signup_enabled,
        solana_wallet_auth: settings.lists_method("wallet"),
        allowlist_enabled: settings.allowlist.is_some(),
        enforce_wallet_uis: false,
        legacy_wallet_ui_config: false,
        fiat_on_ramp_enabled: false,
        twitter_oauth_on_mobile_enabled: false,
        verification_key: verification_key.to_string(),
        max_linked_wallets_per_user: None,
        farcaster_link_wallets_enabled: false,
        whatsapp_enabled: false,
    }
}
