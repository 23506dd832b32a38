//! What a login method proves.

use std::borrow::Cow;

use crate::app_settings::login_methods::LoginMethod;
use crate::db::DbError;
use crate::db::account_details::AccountDetails;

/// How fresh a login's proof is, which decides what its session may do in its first minutes
/// (link, unlink, register the root wallet, get the recovery share: [`ACCOUNT_CHANGE_WINDOW_S`]).
/// Only a proof nobody can present twice makes a sign-in fresh; a replayable one (a guest
/// credential, an old Telegram proof or host JWT) signs in, but never freshly.
///
/// [`ACCOUNT_CHANGE_WINDOW_S`]: crate::web::auth::ACCOUNT_CHANGE_WINDOW_S
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proof {
    /// A single-use proof made for this sign-in (a code, a nonce, a challenge, an OAuth code).
    SingleUse,
    /// A replayable proof that says when it was made (Telegram's `auth_date`, a JWT's `iat`):
    /// fresh until the window after that time.
    MadeAt(i64),
    /// A replayable proof with no time of its own (a guest credential, a JWT without `iat`):
    /// fresh only when it creates the user.
    Replayable,
}

impl Proof {
    /// When the sign-in counts as fresh from, if at all: `now` for a single-use proof or a
    /// sign-up, the proof's own time for a dated one.
    pub fn fresh_since(self, now: i64, is_new_user: bool) -> Option<i64> {
        match self {
            Self::SingleUse => Some(now),
            _ if is_new_user => Some(now),
            Self::MadeAt(at) => Some(at.min(now)),
            Self::Replayable => None,
        }
    }
}

/// A proven identity: the method checked the code, token or signature, and normalised the
/// subject (emails lower-case, numbers E.164, …).
#[derive(Debug, Clone, PartialEq)]
pub struct VerifiedIdentity {
    /// The method that proved it.
    pub method: LoginMethod,
    /// The linked-account type it becomes (`email`, `phone`, `guest`, `custom_auth`,
    /// `google_oauth`, `custom:<name>`, …).
    pub account_type: Cow<'static, str>,
    /// The normalised identifier.
    pub subject: String,
    /// What the method knows beyond the subject (an OAuth name, a wallet's connector): one of
    /// the `db::account_details` types as JSON.
    pub details: Option<serde_json::Value>,
}

impl VerifiedIdentity {
    /// An identity without details.
    pub fn new(method: LoginMethod, account_type: &'static str, subject: String) -> Self {
        Self {
            method,
            account_type: Cow::Borrowed(account_type),
            subject,
            details: None,
        }
    }

    /// An identity with its method's typed details (`db::account_details`).
    pub fn with_details(
        method: LoginMethod,
        account_type: impl Into<Cow<'static, str>>,
        subject: String,
        details: &impl AccountDetails,
    ) -> Result<Self, DbError> {
        Ok(Self {
            method,
            account_type: account_type.into(),
            subject,
            details: Some(details.to_json()?),
        })
    }

    /// A string field of `details` (e.g. an OAuth identity's `provider`).
    pub fn detail(&self, key: &str) -> Option<&str> {
        self.details.as_ref()?.get(key)?.as_str()
    }

    /// `details` as stored.
    pub fn details_json(&self) -> Option<String> {
        self.details.as_ref().map(serde_json::Value::to_string)
    }
}
