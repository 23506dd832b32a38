//! Whether an app enables each login method. The methods themselves are declared once, in the
//! protocol (`symbolon_protocol::login_methods`); routes that belong to a method declare it in
//! their row (`crate::web::routes::Route::method`), and the request's app context refuses the call
//! when the app does not enable it.

use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::login_methods::LISTED_NAMES;
pub use symbolon_protocol::login_methods::LoginMethod;

use super::AppSettings;
use crate::error::AppError;

/// The names apps list in `login_methods` for the methods enabled that way (one list, shared with
/// the client through the protocol).
pub fn listed_names() -> impl Iterator<Item = &'static str> {
    LISTED_NAMES.iter().copied()
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
    fn a_listed_method_is_enabled_exactly_when_listed() {
        for method in LoginMethod::ALL.into_iter().filter(|m| m.listed()) {
            let mut settings = AppSettings::default();
            let list = &mut settings.login_methods;
            list.primary.retain(|name| name != method.as_str());
            list.overflow.retain(|name| name != method.as_str());
            assert!(
                !settings.enables(method),
                "{method:?} enabled though not listed"
            );
            if method != LoginMethod::Telegram {
                settings.login_methods.overflow.push(method.as_str().into());
                assert!(
                    settings.enables(method),
                    "{method:?} listed but not enabled"
                );
            }
        }
    }
}
