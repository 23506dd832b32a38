//! The app's allowlist (`allowlist_rejected`): who may sign in or up when one is set.

use super::VerifiedIdentity;
use crate::db::apps::AppRecord;
use crate::db::users::UserRecord;
use crate::http::error::AppError;
use crate::state::AppState;

/// Whether `identity` may sign in: no allowlist, or the identity is on it, or (for an existing
/// user) any of the user's accounts is. Types the list has no column for never match.
pub async fn admits(
    state: &AppState,
    app: &AppRecord,
    identity: &VerifiedIdentity,
    user: Option<&UserRecord>,
) -> Result<bool, AppError> {
    let Some(list) = &app.settings.allowlist else {
        return Ok(true);
    };
    let listed = |account_type: &str, subject: &str| {
        let entries = match account_type {
            "email" => &list.emails,
            "phone" => &list.phone_numbers,
            "wallet" => &list.wallet_addresses,
            _ => return false,
        };
        entries
            .iter()
            .any(|e| e.trim().eq_ignore_ascii_case(subject))
    };
    if listed(&identity.account_type, &identity.subject) {
        return Ok(true);
    }
    let Some(user) = user else {
        return Ok(false);
    };
    let accounts = state.db.linked_accounts(&user.id).await?;
    Ok(accounts.iter().any(|a| listed(&a.account_type, &a.subject)))
}
