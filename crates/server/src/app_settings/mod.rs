//! What an operator decides per app without SQL (`symbolon apps apply`): login methods and their
//! order, sign-up, allowlist, user limit, custom auth and SMS. Stored as one JSON document in
//! `apps.settings`; every field has a default, so an app without settings is an email-only app.
//! Its secrets (bot token, custody key, client secrets) are stored sealed ([`AppSettings::sealed`]).

pub mod delegation;
pub mod farcaster;
pub mod login_methods;
pub mod mfa;
pub mod oauth;
pub mod oauth_providers;
pub mod passkeys;
pub mod telegram;
pub mod wallets;

use serde::{Deserialize, Serialize};
use symbolon_protocol::accounts::LoginMethodsAndOrder;

use self::delegation::DelegationSettings;
use self::farcaster::FarcasterSettings;
use self::login_methods::listed_names;
use self::mfa::MfaSettings;
use self::oauth::OAuthSettings;
use self::oauth_providers::{CROSS_APP_PREFIX, built_in};
use self::passkeys::PasskeySettings;
use self::telegram::TelegramSettings;
use self::wallets::WalletSettings;
use crate::app_secrets::{
    AppSecrets, FARCASTER_SIGNER_KEY, TELEGRAM_BOT_TOKEN, oauth_client_secret,
};
use crate::identifiers::email::normalize_email;
use crate::identifiers::wallet_address::normalize_wallet_address;
use crate::jwt_verifier::CustomAuthSettings;
use crate::sms::normalize_phone;

/// An app's settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AppSettings {
    /// The methods the modal lists (spec §3 `loginMethodsAndOrder`); a method not listed here
    /// is refused with `disallowed_login_method`. Guest and custom auth have their own switches.
    pub login_methods: LoginMethodsAndOrder,
    /// Guest accounts (`POST /guest/authenticate`).
    pub guest_accounts: bool,
    /// New users may sign up; off, only existing users sign in (`signup_disabled`).
    pub signup_enabled: bool,
    /// When set, only these may sign in or up (`allowlist_rejected`).
    pub allowlist: Option<Allowlist>,
    /// At most this many users (`max_accounts_reached`).
    pub max_users: Option<u64>,
    /// Sign-in with the host's own JWTs.
    pub custom_auth: Option<CustomAuthSettings>,
    /// SMS codes.
    pub sms: SmsSettings,
    /// OAuth providers: client credentials, endpoint overrides, custom providers.
    pub oauth: OAuthSettings,
    /// Cross-app login: the apps of this server whose users may sign in here, and whether
    /// this app may be such a provider (spec §3 "Cross-app connection").
    pub cross_app: CrossAppSettings,
    /// Sign In With Farcaster: relay and ID registry.
    pub farcaster: FarcasterSettings,
    /// Login with Telegram: the app's bot.
    pub telegram: Option<TelegramSettings>,
    /// External wallets (SIWE, SIWS): the chains' RPC endpoints for contract-wallet signatures.
    pub wallets: WalletSettings,
    /// Second factors: which methods users may enrol, and whether signatures need one.
    pub mfa: MfaSettings,
    /// Passkeys: the WebAuthn RP id.
    pub passkeys: PasskeySettings,
    /// The app's logo (an `https://` or `http://` URL), shown in the modal's header (`logo_url` of
    /// the app config).
    pub logo_url: Option<String>,
    /// Delegated actions: the default signers (docs/delegation.md).
    pub delegation: DelegationSettings,
}

impl Default for AppSettings {
    fn default() -> Self {
        Self {
            login_methods: LoginMethodsAndOrder {
                primary: vec!["email".into()],
                overflow: Vec::new(),
            },
            guest_accounts: false,
            signup_enabled: true,
            allowlist: None,
            max_users: None,
            custom_auth: None,
            sms: SmsSettings::default(),
            oauth: OAuthSettings::default(),
            cross_app: CrossAppSettings::default(),
            farcaster: FarcasterSettings::default(),
            telegram: None,
            wallets: WalletSettings::default(),
            mfa: MfaSettings::default(),
            passkeys: PasskeySettings::default(),
            logo_url: None,
            delegation: DelegationSettings::default(),
        }
    }
}

impl AppSettings {
    /// Whether `method` (`email`, `sms`, …) is in the app's list.
    pub fn lists_method(&self, method: &str) -> bool {
        let methods = &self.login_methods;
        methods
            .primary
            .iter()
            .chain(&methods.overflow)
            .any(|m| m == method)
    }

    /// Whether the OAuth `provider` (`google`, `custom:<name>`, `privy:<app id>`) may sign in:
    /// listed with its settings, or (cross-app) a listed provider app.
    pub fn oauth_enabled(&self, provider: &str) -> bool {
        if let Some(app_id) = provider.strip_prefix(CROSS_APP_PREFIX) {
            return self.cross_app.providers.iter().any(|p| p.app_id == app_id);
        }
        self.lists_method(provider) && self.oauth.configured(provider)
    }

    /// Whether any OAuth provider may sign in.
    pub fn oauth_enabled_any(&self) -> bool {
        let methods = &self.login_methods;
        !self.cross_app.providers.is_empty()
            || methods
                .primary
                .iter()
                .chain(&methods.overflow)
                .any(|m| self.oauth.configured(m))
    }

    /// The settings an operator wrote, checked and normalised the way the server compares them:
    /// known login methods only, allowlisted emails lower-cased and numbers in E.164 (so an entry
    /// written `+1 201 555 0123` matches), custom auth with a key source, regions upper-case.
    pub fn checked(mut self) -> Result<Self, String> {
        if let Some(logo) = &self.logo_url {
            let web = url::Url::parse(logo)
                .ok()
                .filter(|url| matches!(url.scheme(), "https" | "http"));
            if web.is_none() {
                return Err(format!(
                    "logo_url {logo:?} must be an https:// or http:// URL"
                ));
            }
        }
        let methods = &self.login_methods;
        self.oauth.checked()?;
        for method in methods.primary.iter().chain(&methods.overflow) {
            if listed_names().any(|name| name == method) {
                continue;
            }
            let oauth = built_in(method).is_some() || method.starts_with("custom:");
            if oauth && !self.oauth.configured(method) {
                return Err(format!(
                    "login method {method:?} needs its client in [oauth.providers.{method}] \
                     (custom providers: [[oauth.custom_providers]])"
                ));
            }
            let cross_app = method
                .strip_prefix(CROSS_APP_PREFIX)
                .is_some_and(|id| self.cross_app.providers.iter().any(|p| p.app_id == id));
            if !oauth && !cross_app {
                return Err(format!(
                    "unknown login method {method:?}: this server offers {}, the OAuth \
                     providers of [oauth] and privy:<app id> of [cross_app]",
                    listed_names().collect::<Vec<_>>().join(", ")
                ));
            }
        }
        if let Some(list) = &mut self.allowlist {
            for email in &mut list.emails {
                *email = normalize_email(email)
                    .map_err(|_| format!("allowlist: {email:?} is not an email address"))?;
            }
            for number in &mut list.phone_numbers {
                *number = normalize_phone(number, &[]).map_err(|_| {
                    format!("allowlist: {number:?} is not a phone number with its country code")
                })?;
            }
            for address in &mut list.wallet_addresses {
                *address = normalize_wallet_address(address)
                    .ok_or_else(|| format!("allowlist: {address:?} is not a wallet address"))?;
            }
        }
        if let Some(custom) = &self.custom_auth
            && custom.jwks_url.is_none()
            && custom.public_key_pem.is_none()
        {
            return Err("custom_auth needs jwks_url or public_key_pem".into());
        }
        if let Some(telegram) = &mut self.telegram {
            telegram.bot_name = telegram.bot_name.trim().trim_start_matches('@').to_string();
            if !telegram.token_is_well_formed() {
                return Err(
                    "telegram.bot_token must be the <bot id>:<secret> token of @BotFather".into(),
                );
            }
        }
        if self.lists_method("telegram") && self.telegram.is_none() {
            return Err("the telegram login method needs a [telegram] bot".into());
        }
        for region in &mut self.sms.allowed_regions {
            *region = region.trim().to_ascii_uppercase();
        }
        self.farcaster.check()?;
        self.wallets.check()?;
        self.mfa.check()?;
        self.passkeys.check()?;
        Ok(self)
    }

    /// The settings with every secret sealed for `app_id` ([`crate::app_secrets`]): what is
    /// stored. Run after [`Self::checked`], which reads the secrets as written.
    pub fn sealed(mut self, secrets: &AppSecrets, app_id: &str) -> Result<Self, String> {
        if let Some(telegram) = &mut self.telegram {
            secrets.seal(app_id, TELEGRAM_BOT_TOKEN, &mut telegram.bot_token)?;
        }
        if let Some(key) = &mut self.farcaster.signer_request_key {
            secrets.seal(app_id, FARCASTER_SIGNER_KEY, key)?;
        }
        for (name, provider) in &mut self.oauth.providers {
            let field = oauth_client_secret(name);
            secrets.seal(app_id, &field, &mut provider.client_secret)?;
        }
        for custom in &mut self.oauth.custom_providers {
            let field = oauth_client_secret(&custom.provider);
            secrets.seal(app_id, &field, &mut custom.client_secret)?;
        }
        Ok(self)
    }

    /// Reads the stored document; a document this version cannot read falls back to the
    /// defaults, logged (a server never refuses to start over one app's settings).
    pub fn from_stored(app_id: &str, json: &str) -> Self {
        serde_json::from_str(json).unwrap_or_else(|error| {
            tracing::error!(app = %app_id, %error, "unreadable app settings; using the defaults");
            Self::default()
        })
    }
}

/// Who may sign in when an allowlist is set. Entries are compared normalised (emails lower-case,
/// numbers E.164, addresses checksummed).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Allowlist {
    /// Email addresses.
    pub emails: Vec<String>,
    /// Phone numbers.
    pub phone_numbers: Vec<String>,
    /// Wallet addresses.
    pub wallet_addresses: Vec<String>,
}

/// SMS settings of an app.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SmsSettings {
    /// ISO 3166 regions codes may be texted to (`["US", "GB"]`); empty means every region.
    /// Limits what SMS pumping fraud can cost.
    pub allowed_regions: Vec<String>,
}

/// Cross-app login settings of an app.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CrossAppSettings {
    /// Apps whose users may sign in to this one (`privy:{app_id}`), each possibly read-only.
    pub providers: Vec<CrossAppProvider>,
    /// Other apps may list this one in their `providers` (its consent page answers them).
    pub allow_as_provider: bool,
}

/// One provider app another app's users may sign in with.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CrossAppProvider {
    /// The provider app's id.
    pub app_id: String,
    /// Sign-in only: no signatures or transactions with the provider's wallet (spec §6).
    pub read_only: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allowlist_entries_are_stored_as_the_server_compares_them() {
        let settings = AppSettings {
            allowlist: Some(Allowlist {
                emails: vec![" Ada@Example.COM ".into()],
                phone_numbers: vec!["+1 201 555 0123".into()],
                wallet_addresses: vec![
                    " 0XF39FD6E51AAD88F6F4CE6AB8827279CFFFB92266 ".into(),
                    "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM".into(),
                ],
            }),
            sms: SmsSettings {
                allowed_regions: vec!["us ".into()],
            },
            ..AppSettings::default()
        }
        .checked()
        .unwrap_or_default();
        let list = settings.allowlist.unwrap_or_default();
        assert_eq!(list.emails, vec!["ada@example.com"]);
        assert_eq!(list.phone_numbers, vec!["+12015550123"]);
        assert_eq!(
            list.wallet_addresses,
            vec![
                "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
                "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
            ]
        );
        assert_eq!(settings.sms.allowed_regions, vec!["US"]);
    }

    #[test]
    fn unusable_settings_are_refused_with_the_reason() {
        let refused = |settings: AppSettings| settings.checked().err().unwrap_or_default();
        let mut unknown = AppSettings::default();
        unknown.login_methods.overflow = vec!["carrier-pigeon".into()];
        assert!(refused(unknown).contains("carrier-pigeon"));
        let bad_phone = AppSettings {
            allowlist: Some(Allowlist {
                phone_numbers: vec!["555-0100".into()],
                ..Allowlist::default()
            }),
            ..AppSettings::default()
        };
        assert!(refused(bad_phone).contains("555-0100"));
        let bad_wallet = AppSettings {
            allowlist: Some(Allowlist {
                wallet_addresses: vec!["0xAbC".into()],
                ..Allowlist::default()
            }),
            ..AppSettings::default()
        };
        assert!(refused(bad_wallet).contains("0xAbC"));
        for logo in [
            "javascript:alert(1)",
            "data:image/svg+xml,<svg/>",
            "logo.png",
        ] {
            let bad_logo = AppSettings {
                logo_url: Some(logo.into()),
                ..AppSettings::default()
            };
            assert!(refused(bad_logo).contains("logo_url"), "{logo}");
        }
        let logo = AppSettings {
            logo_url: Some("https://example.com/logo.svg".into()),
            ..AppSettings::default()
        };
        assert!(logo.checked().is_ok());
        let keyless = AppSettings {
            custom_auth: Some(CustomAuthSettings::default()),
            ..AppSettings::default()
        };
        assert!(refused(keyless).contains("jwks_url"));
    }
}
