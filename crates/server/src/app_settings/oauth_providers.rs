//! Every provider as configuration on one engine: the built-in table (endpoints, scopes, where
//! the user's id, email, name and handle are), the operator's custom providers, and other apps
//! of this server (`privy:<app id>`, cross-app login). [`resolve`] turns an app's settings and a
//! provider name into the one [`Provider`] shape the engine runs.

use crate::app_secrets::SealedSecret;
use crate::app_settings::AppSettings;

/// How the token endpoint wants the client's credentials.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientAuth {
    /// HTTP Basic (RFC 6749 §2.3.1, preferred).
    Basic,
    /// `client_id` and `client_secret` in the form.
    Body,
}

/// Where the user's fields are: claim names of the ID token, or dotted paths in the user-info
/// JSON (`data.id`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimMap {
    /// The provider's stable id of the user.
    pub subject: String,
    /// Email.
    pub email: Option<String>,
    /// Display name.
    pub name: Option<String>,
    /// Handle.
    pub username: Option<String>,
}

/// How the user is proven after the code exchange.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Proof {
    /// OpenID Connect: the ID token, checked against the issuer's keys (and `nonce`).
    IdToken {
        /// Expected `iss`.
        issuer: String,
        /// The issuer's JWK Set.
        jwks_url: String,
    },
    /// Plain OAuth 2.0: the user-info endpoint, called with the access token.
    UserInfo {
        /// The endpoint.
        url: String,
    },
}

/// A provider ready to run: what the engine needs, nothing else.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provider {
    /// As the client names it (`google`, `custom:acme`, `privy:<app id>`).
    pub name: String,
    /// The linked-account type (`google_oauth`, `custom:acme`, `cross_app`).
    pub account_type: String,
    /// The app's client id there.
    pub client_id: String,
    /// The app's client secret there, as stored (sealed; opened only for the code exchange).
    pub client_secret: SealedSecret,
    /// Authorization page.
    pub authorize_url: String,
    /// Token endpoint.
    pub token_url: String,
    /// How the user is proven.
    pub proof: Proof,
    /// Scopes requested.
    pub scopes: Vec<String>,
    /// Where the fields are.
    pub claims: ClaimMap,
    /// Credentials at the token endpoint.
    pub client_auth: ClientAuth,
    /// Extra authorize and token parameters some providers need (TikTok's `client_key`).
    pub client_id_param: Option<&'static str>,
    /// Always answer the provider's tokens (cross-app: the client needs them to transact).
    pub always_return_tokens: bool,
    /// The provider answers by POSTing a form to the callback (Apple, when asked for scopes).
    pub form_post: bool,
    /// The provider app, for cross-app.
    pub provider_app_id: Option<String>,
}

/// A row of the built-in table.
#[derive(Debug)]
pub struct BuiltIn {
    /// Provider name (`google`).
    pub name: &'static str,
    authorize_url: &'static str,
    token_url: &'static str,
    /// `Some((issuer, jwks))` for providers whose ID tokens we check.
    oidc: Option<(&'static str, &'static str)>,
    userinfo_url: &'static str,
    scopes: &'static [&'static str],
    subject: &'static str,
    email: Option<&'static str>,
    name_field: Option<&'static str>,
    username: Option<&'static str>,
    client_auth: ClientAuth,
    client_id_param: Option<&'static str>,
}

/// The providers of spec §3, from their public documentation (2026-11). Google and Apple are
/// checked by ID token; the others by their user-info APIs (LINE signs web ID tokens with the
/// channel secret, and Twitch and LinkedIn give more through user-info).
#[rustfmt::skip]
pub const BUILT_IN: &[BuiltIn] = &[
    BuiltIn { name: "google", authorize_url: "https://accounts.google.com/o/oauth2/v2/auth", token_url: "https://oauth2.googleapis.com/token",
        oidc: Some(("https://accounts.google.com", "https://www.googleapis.com/oauth2/v3/certs")), userinfo_url: "https://openidconnect.googleapis.com/v1/userinfo",
        scopes: &["openid", "email", "profile"], subject: "sub", email: Some("email"), name_field: Some("name"), username: None, client_auth: ClientAuth::Basic, client_id_param: None },
    BuiltIn { name: "apple", authorize_url: "https://appleid.apple.com/auth/authorize", token_url: "https://appleid.apple.com/auth/token",
        oidc: Some(("https://appleid.apple.com", "https://appleid.apple.com/auth/keys")), userinfo_url: "",
        scopes: &["openid", "email"], subject: "sub", email: Some("email"), name_field: None, username: None, client_auth: ClientAuth::Body, client_id_param: None },
    BuiltIn { name: "twitter", authorize_url: "https://twitter.com/i/oauth2/authorize", token_url: "https://api.twitter.com/2/oauth2/token",
        oidc: None, userinfo_url: "https://api.twitter.com/2/users/me",
        scopes: &["users.read", "tweet.read", "offline.access"], subject: "data.id", email: None, name_field: Some("data.name"), username: Some("data.username"), client_auth: ClientAuth::Basic, client_id_param: None },
    BuiltIn { name: "discord", authorize_url: "https://discord.com/oauth2/authorize", token_url: "https://discord.com/api/oauth2/token",
        oidc: None, userinfo_url: "https://discord.com/api/users/@me",
        scopes: &["identify", "email"], subject: "id", email: Some("email"), name_field: Some("global_name"), username: Some("username"), client_auth: ClientAuth::Basic, client_id_param: None },
    BuiltIn { name: "github", authorize_url: "https://github.com/login/oauth/authorize", token_url: "https://github.com/login/oauth/access_token",
        oidc: None, userinfo_url: "https://api.github.com/user",
        scopes: &["read:user", "user:email"], subject: "id", email: Some("email"), name_field: Some("name"), username: Some("login"), client_auth: ClientAuth::Body, client_id_param: None },
    BuiltIn { name: "linkedin", authorize_url: "https://www.linkedin.com/oauth/v2/authorization", token_url: "https://www.linkedin.com/oauth/v2/accessToken",
        oidc: None, userinfo_url: "https://api.linkedin.com/v2/userinfo",
        scopes: &["openid", "profile", "email"], subject: "sub", email: Some("email"), name_field: Some("name"), username: None, client_auth: ClientAuth::Body, client_id_param: None },
    BuiltIn { name: "spotify", authorize_url: "https://accounts.spotify.com/authorize", token_url: "https://accounts.spotify.com/api/token",
        oidc: None, userinfo_url: "https://api.spotify.com/v1/me",
        scopes: &["user-read-email"], subject: "id", email: Some("email"), name_field: Some("display_name"), username: None, client_auth: ClientAuth::Basic, client_id_param: None },
    BuiltIn { name: "instagram", authorize_url: "https://www.instagram.com/oauth/authorize", token_url: "https://api.instagram.com/oauth/access_token",
        oidc: None, userinfo_url: "https://graph.instagram.com/me?fields=id,username",
        scopes: &["instagram_business_basic"], subject: "id", email: None, name_field: None, username: Some("username"), client_auth: ClientAuth::Body, client_id_param: None },
    BuiltIn { name: "tiktok", authorize_url: "https://www.tiktok.com/v2/auth/authorize/", token_url: "https://open.tiktokapis.com/v2/oauth/token/",
        oidc: None, userinfo_url: "https://open.tiktokapis.com/v2/user/info/?fields=open_id,display_name,username",
        scopes: &["user.info.basic", "user.info.profile"], subject: "data.user.open_id", email: None, name_field: Some("data.user.display_name"), username: Some("data.user.username"), client_auth: ClientAuth::Body, client_id_param: Some("client_key") },
    BuiltIn { name: "line", authorize_url: "https://access.line.me/oauth2/v2.1/authorize", token_url: "https://api.line.me/oauth2/v2.1/token",
        oidc: None, userinfo_url: "https://api.line.me/oauth2/v2.1/userinfo",
        scopes: &["profile", "openid", "email"], subject: "sub", email: Some("email"), name_field: Some("name"), username: None, client_auth: ClientAuth::Body, client_id_param: None },
    BuiltIn { name: "twitch", authorize_url: "https://id.twitch.tv/oauth2/authorize", token_url: "https://id.twitch.tv/oauth2/token",
        oidc: None, userinfo_url: "https://id.twitch.tv/oauth2/userinfo",
        scopes: &["openid", "user:read:email"], subject: "sub", email: Some("email"), name_field: None, username: Some("preferred_username"), client_auth: ClientAuth::Body, client_id_param: None },
];

/// The built-in provider `name`.
pub fn built_in(name: &str) -> Option<&'static BuiltIn> {
    BUILT_IN.iter().find(|p| p.name == name)
}

/// Prefix of cross-app providers: `privy:<app id>`.
pub const CROSS_APP_PREFIX: &str = "privy:";

/// Why a provider cannot run for an app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unavailable {
    /// Not a provider this server knows.
    Unknown,
    /// Known, but the app does not list it (or lists it without settings).
    NotEnabled,
}

/// The provider `name` as `settings` configure it; `public_url` is this server's (cross-app
/// endpoints are ours). Only providers in the app's login methods run (cross-app: listed in
/// `cross_app.providers`).
pub fn resolve(
    settings: &AppSettings,
    name: &str,
    public_url: &str,
    own_app_id: &str,
) -> Result<Provider, Unavailable> {
    let owned = |v: Option<&'static str>| v.map(str::to_string);
    if let Some(app_id) = name.strip_prefix(CROSS_APP_PREFIX) {
        if !settings
            .cross_app
            .providers
            .iter()
            .any(|p| p.app_id == app_id)
            || app_id.is_empty()
        {
            return Err(Unavailable::NotEnabled);
        }
        let base = public_url.trim_end_matches('/');
        return Ok(Provider {
            name: name.to_string(),
            account_type: "cross_app".into(),
            client_id: own_app_id.to_string(),
            client_secret: SealedSecret::default(),
            authorize_url: format!("{base}/apps/{app_id}/oauth/authorize"),
            token_url: format!("{base}/api/v1/apps/{app_id}/oauth/token"),
            proof: Proof::UserInfo {
                url: format!("{base}/api/v1/apps/{app_id}/oauth/userinfo"),
            },
            scopes: Vec::new(),
            claims: ClaimMap {
                subject: "sub".into(),
                email: None,
                name: None,
                username: None,
            },
            client_auth: ClientAuth::Body,
            client_id_param: None,
            always_return_tokens: true,
            form_post: false,
            provider_app_id: Some(app_id.to_string()),
        });
    }
    if name.starts_with("custom:") {
        let custom = settings.oauth.custom(name).ok_or(Unavailable::Unknown)?;
        if !settings.lists_method(name) {
            return Err(Unavailable::NotEnabled);
        }
        let proof = match (&custom.issuer, &custom.jwks_url) {
            (Some(issuer), Some(jwks_url)) => Proof::IdToken {
                issuer: issuer.clone(),
                jwks_url: jwks_url.clone(),
            },
            _ => Proof::UserInfo {
                url: custom.userinfo_url.clone().ok_or(Unavailable::NotEnabled)?,
            },
        };
        return Ok(Provider {
            name: name.to_string(),
            account_type: name.to_string(),
            client_id: custom.client_id.clone(),
            client_secret: custom.client_secret.clone(),
            authorize_url: custom.authorize_url.clone(),
            token_url: custom.token_url.clone(),
            proof,
            scopes: custom.scopes.clone(),
            claims: ClaimMap {
                subject: custom.subject_claim.clone().unwrap_or_else(|| "sub".into()),
                email: custom.email_claim.clone(),
                name: custom.name_claim.clone(),
                username: custom.username_claim.clone(),
            },
            client_auth: ClientAuth::Basic,
            client_id_param: None,
            always_return_tokens: false,
            form_post: false,
            provider_app_id: None,
        });
    }
    let table = built_in(name).ok_or(Unavailable::Unknown)?;
    let config = settings
        .oauth
        .providers
        .get(name)
        .filter(|_| settings.lists_method(name))
        .ok_or(Unavailable::NotEnabled)?;
    let pick = |over: &Option<String>, default: &'static str| {
        over.clone().unwrap_or_else(|| default.to_string())
    };
    // An override of the issuer or keys makes the provider an OpenID one (a stand-in, or a
    // provider's tenant); otherwise the table decides.
    let proof = match (table.oidc, &config.issuer, &config.jwks_url) {
        (_, Some(issuer), Some(jwks)) => Proof::IdToken {
            issuer: issuer.clone(),
            jwks_url: jwks.clone(),
        },
        (Some((issuer, jwks)), issuer_over, jwks_over) => Proof::IdToken {
            issuer: pick(issuer_over, issuer),
            jwks_url: pick(jwks_over, jwks),
        },
        (None, _, _) => Proof::UserInfo {
            url: pick(&config.userinfo_url, table.userinfo_url),
        },
    };
    Ok(Provider {
        name: name.to_string(),
        account_type: format!("{name}_oauth"),
        client_id: config.client_id.clone(),
        client_secret: config.client_secret.clone(),
        authorize_url: pick(&config.authorize_url, table.authorize_url),
        token_url: pick(&config.token_url, table.token_url),
        proof,
        scopes: config
            .scopes
            .clone()
            .unwrap_or_else(|| table.scopes.iter().map(|s| s.to_string()).collect()),
        claims: ClaimMap {
            subject: table.subject.to_string(),
            email: owned(table.email),
            name: owned(table.name_field),
            username: owned(table.username),
        },
        client_auth: table.client_auth,
        client_id_param: table.client_id_param,
        always_return_tokens: false,
        form_post: name == "apple",
        provider_app_id: None,
    })
}

/// The value at a dotted `path` of `json` as text (numbers too: GitHub's ids are numbers).
pub fn field(json: &serde_json::Value, path: &str) -> Option<String> {
    let value = path
        .split('.')
        .try_fold(json, |value, key| value.get(key))?;
    match value {
        serde_json::Value::String(text) if !text.trim().is_empty() => Some(text.clone()),
        serde_json::Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app_settings::oauth::ProviderSettings;

    #[test]
    fn built_in_providers_need_settings_and_a_login_method_entry() {
        let mut settings = AppSettings::default();
        let run = |s: &AppSettings, name: &str| resolve(s, name, "https://id.example", "app");
        assert_eq!(run(&settings, "myspace"), Err(Unavailable::Unknown));
        assert_eq!(run(&settings, "google"), Err(Unavailable::NotEnabled));
        settings.oauth.providers.insert(
            "google".into(),
            ProviderSettings {
                client_id: "cid".into(),
                ..ProviderSettings::default()
            },
        );
        assert_eq!(run(&settings, "google"), Err(Unavailable::NotEnabled));
        settings.login_methods.overflow.push("google".into());
        let google = run(&settings, "google").ok();
        assert_eq!(
            google.as_ref().map(|g| g.account_type.as_str()),
            Some("google_oauth")
        );
        assert!(matches!(
            google.map(|g| g.proof),
            Some(Proof::IdToken { issuer, .. }) if issuer == "https://accounts.google.com"
        ));
    }

    #[test]
    fn fields_are_read_by_dotted_path_and_numbers_become_text() {
        let json = serde_json::json!({"id": 42, "data": {"user": {"open_id": "o1"}}, "e": ""});
        assert_eq!(field(&json, "id").as_deref(), Some("42"));
        assert_eq!(field(&json, "data.user.open_id").as_deref(), Some("o1"));
        assert_eq!(field(&json, "e"), None);
        assert_eq!(field(&json, "data.missing"), None);
    }
}
