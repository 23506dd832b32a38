//! `POST /v1/users/search` (the SDK's `users().search`): one user found by a term or by lists
//! of emails, phone numbers and wallet addresses.

use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::server_api::UserSearchRequest;
use symbolon_protocol::user::User;

use super::deps::ServerApiDeps;
use super::users::{email_subject, full_id, phone_subject, wallet_subject};
use crate::db::apps::AppRecord;
use crate::error::AppError;
use crate::users::view::user_view;

/// The refusal of a search with nothing to look for.
pub const NOTHING_TO_SEARCH: &str =
    "Give searchTerm, or emails, phoneNumbers or walletAddresses to search by";

/// Shorter terms match whole identifiers only (a part of one or two characters finds anyone).
pub const MIN_PARTIAL_TERM: usize = 3;

/// Most identifiers one search may list.
pub const MAX_LISTED: usize = 100;

/// The user the search finds: by `searchTerm` the user with that id, else the oldest whose
/// account identifier is the term (any case), else contains it; by lists, the first listed
/// email, then phone number, then wallet address someone has. `404` when nobody matches.
pub async fn search(
    deps: &ServerApiDeps,
    app: &AppRecord,
    request: &UserSearchRequest,
) -> Result<User, AppError> {
    let found = match request.search_term.as_deref().map(str::trim) {
        Some(term) if term.chars().any(char::is_control) => {
            return Err(AppError::invalid_data(
                "searchTerm must not contain control characters",
            ));
        }
        Some(term) if !term.is_empty() => by_term(deps, app, term).await?,
        _ => by_lists(deps, app, request).await?,
    };
    let user = found
        .ok_or_else(|| AppError::new(ServerErrorCode::NotFound, "No user matches the search"))?;
    user_view(&deps.db, &user).await
}

async fn by_term(
    deps: &ServerApiDeps,
    app: &AppRecord,
    term: &str,
) -> Result<Option<crate::db::users::UserRecord>, AppError> {
    if let Some(user) = deps.db.find_user(&app.id, &full_id(term)).await? {
        return Ok(Some(user));
    }
    let partial = term.chars().count() >= MIN_PARTIAL_TERM;
    Ok(deps
        .db
        .search_user_by_account(&app.id, term, partial)
        .await?)
}

async fn by_lists(
    deps: &ServerApiDeps,
    app: &AppRecord,
    request: &UserSearchRequest,
) -> Result<Option<crate::db::users::UserRecord>, AppError> {
    let listed = |list: &Option<Vec<String>>| list.as_deref().unwrap_or_default().to_vec();
    let (emails, phones, wallets) = (
        listed(&request.emails),
        listed(&request.phone_numbers),
        listed(&request.wallet_addresses),
    );
    if emails.len() + phones.len() + wallets.len() == 0 {
        return Err(AppError::invalid_data(NOTHING_TO_SEARCH));
    }
    if emails.len() + phones.len() + wallets.len() > MAX_LISTED {
        return Err(AppError::invalid_data(format!(
            "At most {MAX_LISTED} emails, phone numbers and wallet addresses in all"
        )));
    }
    let mut wanted = Vec::new();
    for email in &emails {
        wanted.push(("email", email_subject(email)?));
    }
    for phone in &phones {
        wanted.push(("phone", phone_subject(phone)?));
    }
    for wallet in &wallets {
        wanted.push(("wallet", wallet_subject(wallet)?));
    }
    for (account_type, subject) in wanted {
        if let Some(user) = deps
            .db
            .find_user_by_account(&app.id, account_type, &subject)
            .await?
        {
            return Ok(Some(user));
        }
    }
    Ok(None)
}
