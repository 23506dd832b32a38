//! What an operator decides per app without SQL (`symbolon apps apply`): login methods and their
//! order, sign-up, allowlist, user limit, custom auth and SMS. Stored as one JSON document in
//! `apps.settings`; every field has a default, so an app without settings is an email-only app.

use serde::{Deserialize, Serialize};
use symbolon_protocol::accounts::LoginMethodsAndOrder;

use crate::methods::custom_jwt::verifier::CustomAuthSettings;

/// The login methods this server implements, as `login_methods_and_order` names them.
pub const KNOWN_LOGIN_METHODS: &[&str] = &["email", "sms"];

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
