//! An app's OAuth settings (`[oauth]` in the app's TOML, docs/server.md "OAuth providers"):
//! client credentials per built-in provider, endpoint overrides, and the operator's own
//! `custom:<name>` providers.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::oauth_providers::{BUILT_IN, built_in};
use crate::app_secrets::SealedSecret;

/// `[oauth]`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OAuthSettings {
    /// Answer the provider's tokens (`oauth_tokens`) after an OAuth login (`useOAuthTokens`).
    /// Cross-app logins always answer them.
    pub return_provider_tokens: bool,
    /// Built-in providers by name (`google`, `github`, …).
    pub providers: BTreeMap<String, ProviderSettings>,
    /// The operator's own providers.
    pub custom_providers: Vec<CustomProviderSettings>,
}

/// `[oauth.providers.<name>]`: the app's client at a built-in provider. The endpoint fields
/// replace the built-in ones (a provider's regional host, or a loopback stand-in in tests).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProviderSettings {
    /// The app's client id at the provider.
    pub client_id: String,
    /// The app's client secret (Apple: the signed client-secret JWT); sealed once stored.
    pub client_secret: SealedSecret,
    /// OpenID issuer (`iss` of ID tokens).
    pub issuer: Option<String>,
    /// Authorization page.
    pub authorize_url: Option<String>,
    /// Token endpoint.
    pub token_url: Option<String>,
    /// User-info endpoint.
    pub userinfo_url: Option<String>,
    /// Keys of the ID tokens.
    pub jwks_url: Option<String>,
    /// Scopes requested instead of the built-in ones.
    pub scopes: Option<Vec<String>>,
}

/// `[[oauth.custom_providers]]`: a provider the operator describes completely. With `issuer`
/// and `jwks_url` it is an OpenID provider (ID token checked); else `userinfo_url` is read.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CustomProviderSettings {
    /// `custom:<name>`: the login method, the provider sent by the client and the account type.
    pub provider: String,
    /// Button label.
    pub display_name: String,
    /// Button icon.
    pub icon_url: Option<String>,
    /// The app's client id.
    pub client_id: String,
    /// The app's client secret; sealed once stored.
    pub client_secret: SealedSecret,
    /// Authorization page.
    pub authorize_url: String,
    /// Token endpoint.
    pub token_url: String,
    /// User-info endpoint (plain OAuth 2.0 providers).
    pub userinfo_url: Option<String>,
    /// OpenID issuer.
    pub issuer: Option<String>,
    /// Keys of the ID tokens.
    pub jwks_url: Option<String>,
    /// Scopes to request.
    pub scopes: Vec<String>,
    /// Where the user's id is (a claim or a dotted path in the user-info JSON; default `sub`).
    pub subject_claim: Option<String>,
    /// Where the email is.
    pub email_claim: Option<String>,
    /// Where the display name is.
    pub name_claim: Option<String>,
    /// Where the handle is.
    pub username_claim: Option<String>,
}

impl OAuthSettings {
    /// The settings checked: known built-in names with a client id, custom providers named
    /// `custom:<name>` with their endpoints, every URL `https://` (or `http://` on loopback).
    pub fn checked(&self) -> Result<(), String> {
        for (name, provider) in &self.providers {
            if built_in(name).is_none() {
                let names: Vec<&str> = BUILT_IN.iter().map(|p| p.name).collect();
                return Err(format!(
                    "oauth.providers.{name}: unknown provider (built in: {})",
                    names.join(", ")
                ));
            }
            if provider.client_id.trim().is_empty() {
                return Err(format!("oauth.providers.{name} needs client_id"));
            }
            let urls = [
                &provider.issuer,
                &provider.authorize_url,
                &provider.token_url,
                &provider.userinfo_url,
                &provider.jwks_url,
            ];
            for url in urls.into_iter().flatten() {
                check_url(url).map_err(|e| format!("oauth.providers.{name}: {e}"))?;
            }
        }
        for custom in &self.custom_providers {
            let name = &custom.provider;
            let valid_name = name.strip_prefix("custom:").is_some_and(|rest| {
                !rest.is_empty()
                    && rest.len() <= 64
                    && rest
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            });
            if !valid_name {
                return Err(format!(
                    "oauth.custom_providers: {name:?} must be custom:<name> (letters, digits, - and _)"
                ));
            }
            if custom.client_id.trim().is_empty() {
                return Err(format!("oauth.custom_providers {name} needs client_id"));
            }
            let oidc = custom.issuer.is_some() && custom.jwks_url.is_some();
            if !oidc && custom.userinfo_url.is_none() {
                return Err(format!(
                    "oauth.custom_providers {name} needs userinfo_url, or issuer and jwks_url"
                ));
            }
            let urls = [
                Some(&custom.authorize_url),
                Some(&custom.token_url),
                custom.userinfo_url.as_ref(),
                custom.issuer.as_ref(),
                custom.jwks_url.as_ref(),
                custom.icon_url.as_ref(),
            ];
            for url in urls.into_iter().flatten() {
                check_url(url).map_err(|e| format!("oauth.custom_providers {name}: {e}"))?;
            }
        }
        Ok(())
    }

    /// The custom provider named `provider`.
    pub fn custom(&self, provider: &str) -> Option<&CustomProviderSettings> {
        self.custom_providers
            .iter()
            .find(|c| c.provider == provider)
    }

    /// Whether `provider` (a built-in name or `custom:<name>`) has settings.
    pub fn configured(&self, provider: &str) -> bool {
        self.providers.contains_key(provider) || self.custom(provider).is_some()
    }
}

/// `https://`, or `http://` to a loopback host (a stand-in in development and tests).
pub fn check_url(url: &str) -> Result<(), String> {
    let parsed = url::Url::parse(url).map_err(|_| format!("{url:?} is not a URL"))?;
    if crate::outbound_http::is_https_or_loopback(&parsed) {
        Ok(())
    } else {
        Err(format!("{url:?} must be https (http only on loopback)"))
    }
}

#[cfg(test)]
mod tests {
    use crate::app_settings::AppSettings;

    fn refused(toml_text: &str) -> String {
        let settings: AppSettings = toml::from_str(toml_text).unwrap_or_default();
        settings.checked().err().unwrap_or_default()
    }

    #[test]
    fn oauth_settings_are_read_from_toml_and_checked() {
        let ok: AppSettings = toml::from_str(
            r#"
            [login_methods]
            primary = ["email", "google", "custom:acme"]
            [oauth.providers.google]
            client_id = "cid"
            client_secret = "secret"
            issuer = "http://localhost:1083"
            [[oauth.custom_providers]]
            provider = "custom:acme"
            display_name = "Acme"
            client_id = "cid"
            authorize_url = "https://id.acme.example/authorize"
            token_url = "https://id.acme.example/token"
            userinfo_url = "https://id.acme.example/me"
            "#,
        )
        .unwrap_or_default();
        assert!(ok.checked().is_ok());

        // Listed without its client.
        assert!(
            refused("[login_methods]\nprimary = [\"github\"]").contains("oauth.providers.github")
        );
        // Not a provider at all.
        assert!(
            refused("[oauth.providers.myspace]\nclient_id = \"c\"").contains("unknown provider")
        );
        // Plain http off loopback.
        assert!(
            refused(
                "[oauth.providers.google]\nclient_id = \"c\"\ntoken_url = \"http://evil.example/t\""
            )
            .contains("https")
        );
        // Custom providers are named custom:<name> and need a way to read the user.
        let custom = |name: &str, userinfo: &str| {
            format!(
                "[[oauth.custom_providers]]\nprovider = \"{name}\"\nclient_id = \"c\"\n\
                 authorize_url = \"https://a.example/a\"\ntoken_url = \"https://a.example/t\"\n{userinfo}"
            )
        };
        assert!(
            refused(&custom("acme", "userinfo_url = \"https://a.example/u\""))
                .contains("custom:<name>")
        );
        assert!(refused(&custom("custom:acme", "")).contains("userinfo_url"));
        // Cross-app names must be listed providers.
        assert!(
            refused("[login_methods]\nprimary = [\"privy:aaaaaaaaaaaaaaaaaaaaaaaaa\"]")
                .contains("unknown login method")
        );
    }
}
