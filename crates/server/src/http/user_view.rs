//! Stored users in their wire form.

use symbolon_protocol::user::{EmailAccount, LinkedAccount, User, Verification};

use super::error::AppError;
use crate::db::users::{LinkedAccountRecord, UserRecord};
use crate::state::AppState;

/// Loads the user's accounts and builds the wire [`User`].
pub async fn user_view(state: &AppState, user: &UserRecord) -> Result<User, AppError> {
    let accounts = state.db.linked_accounts(&user.id).await?;
    Ok(wire_user(user, accounts))
}

/// The wire [`User`] from a stored user and its accounts (oldest first).
pub fn wire_user(user: &UserRecord, accounts: Vec<LinkedAccountRecord>) -> User {
    let linked_accounts = accounts
        .into_iter()
        .filter_map(|account| match account.account_type.as_str() {
            "email" => Some(LinkedAccount::Email(EmailAccount {
                address: account.subject,
                verification: Verification {
                    verified_at: account.first_verified_at,
                    first_verified_at: Some(account.first_verified_at),
                    latest_verified_at: Some(account.latest_verified_at),
                },
            })),
            _ => None,
        })
        .collect();
    User {
        id: user.id.clone(),
        created_at: user.created_at,
        linked_accounts,
        mfa_methods: Vec::new(),
        has_accepted_terms: user.has_accepted_terms,
        is_guest: user.is_guest,
    }
}
