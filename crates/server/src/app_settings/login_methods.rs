//! The login methods of this server and whether an app enables each. Routes that belong to a
//! method declare it in their row (`crate::web::routes::Route::method`), and the request's app
//! context refuses the call when the app does not enable it.

use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::LISTED_LOGIN_METHODS;

use super::AppSettings;
use crate::error::AppError;

/// The ways in this server implements (the names `login_methods_and_order` uses).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoginMethod {
    /// Email code.
    Email,
    /// SMS code.
    Sms,
    /// Guest credential.
    Guest,
    /// The host app's JWT.
    CustomAuth,
    /// An OAuth provider (built-in, `custom:<name>` or another app); `details.provider` names it.
    OAuth,
    /// Sign In With Farcaster.
    Farcaster,
    /// Telegram Login Widget or Mini App.
    Telegram,
    /// An external wallet: Sign-In With Ethereum or Solana.
    Wallet,
    /// A WebAuthn passkey; the subject is its credential id.
    Passkey,
}

impl LoginMethod {
    /// Every login method of this server.
    pub const ALL: [Self; 9] = [
        Self::Email,
        Self::Sms,
        Self::Guest,
        Self::CustomAuth,
        Self::OAuth,
        Self::Farcaster,
        Self::Telegram,
        Self::Wallet,
        Self::Passkey,
    ];

    /// Whether apps enable it by listing its name in `login_methods` (the others are enabled by
    /// their own settings: guest accounts, custom auth, each OAuth provider by its name).
    pub fn listed(self) -> bool {
        LISTED_LOGIN_METHODS.contains(&self.as_str())
    }

    /// The name apps configure and logs show.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Email => "email",
            Self::Sms => "sms",
            Self::Guest => "guest",
            Self::CustomAuth => "custom_auth",
            Self::OAuth => "oauth",
            Self::Farcaster => "farcaster",
            Self::Telegram => "telegram",
            Self::Wallet => "wallet",
            Self::Passkey => "passkey",
        }
    }
}

/// The names apps list in `login_methods` for the methods enabled that way (one list, shared with
/// the client through the protocol).
pub fn listed_names() -> impl Iterator<Item = &'static str> {
    LISTED_LOGIN_METHODS.iter().copied()
}

impl AppSettings {
    /// Whether the app enables `method` (for OAuth: any provider; each provider by its name).
    pub fn enables(&self, method: LoginMethod) -> bool {
        match method {
            LoginMethod::Guest => self.guest_accounts,
            LoginMethod::CustomAuth => self.custom_auth.is_some(),
            LoginMethod::OAuth => self.oauth_enabled_any(),
            LoginMethod::Telegram => self.lists_method("telegram") && self.telegram.is_some(),
            listed => self.lists_method(listed.as_str()),
        }
    }

    /// `disallowed_login_method` unless the app enables `method`.
    pub fn require(&self, method: LoginMethod) -> Result<(), AppError> {
        if self.enables(method) {
            Ok(())
        } else {
            Err(AppError::new(
                ServerErrorCode::DisallowedLoginMethod,
                disallowed_login_method(method),
            ))
        }
    }
}

/// The message of `disallowed_login_method`.
pub fn disallowed_login_method(method: LoginMethod) -> String {
    format!("Login with {} is not enabled for this app", method.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_name_is_a_method_of_this_server() {
        for name in listed_names() {
            let method = LoginMethod::ALL.iter().find(|m| m.as_str() == name);
            assert!(
                method.is_some_and(|m| m.listed()),
                "{name} is listed but no method"
            );
        }
        let listed = LoginMethod::ALL.iter().filter(|m| m.listed()).count();
        assert_eq!(listed, listed_names().count());
        assert!(!LoginMethod::Guest.listed() && !LoginMethod::OAuth.listed());
    }
}
