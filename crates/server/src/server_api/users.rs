//! The users a host app's back end reads and writes on the `/v1` API: by id, by page, by one of
//! their accounts; created with accounts proven elsewhere (an import), deleted with everything
//! theirs, and given custom metadata. No HTTP here.

use std::collections::HashMap;

use serde_json::{Map, Value};
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::server_api::{
    CreateUserRequest, DEFAULT_PAGE_SIZE, LinkedAccountInput, MAX_CUSTOM_METADATA_BYTES,
    MAX_PAGE_SIZE, OAuthAccountInput, UnlinkAccountRequest, UserPage, WalletCreationInput,
};
use symbolon_protocol::user::User;

use super::deps::ServerApiDeps;
use super::wallets::{NO_WALLETS, ethereum_wallets_wanted, pregenerate_for};
use crate::accounts::{self, max_of_type, messages as account_messages};
use crate::db::DbError;
use crate::db::account_details::{
    AccountDetails, ExternalWalletDetails, FarcasterDetails, OAuthDetails, TelegramDetails,
};
use crate::db::accounts::{NewAccount, SignUp};
use crate::db::apps::AppRecord;
use crate::db::users::UserRecord;
use crate::error::AppError;
use crate::identifiers::email::normalize_email;
use crate::identifiers::wallet_address::normalize_wallet_address;
use crate::random::random_id;
use crate::sms::normalize_phone;
use crate::users::view::{user_page_view, user_view};
use crate::webhooks::events;
use symbolon_protocol::user::ChainType;

/// The answer to an id, lookup or delete of a user the app does not have.
pub const USER_NOT_FOUND: &str = "User not found";

/// The refusal of a page size out of range.
pub const PAGE_LIMIT: &str = "Query limit can be at maximum 100 records.";

/// The refusal of metadata over the size limit or of another shape.
pub const METADATA_SHAPE: &str =
    "custom_metadata must be an object of strings, numbers or booleans, at most 1 KB as JSON";

/// The refusal of a create without accounts.
pub const NO_ACCOUNTS: &str = "linked_accounts must hold at least one account";

/// A user id as given: `did:privy:<id>`, or the bare id (the vendor accepts both).
pub fn full_id(user_id: &str) -> String {
    let user_id = user_id.trim();
    if user_id.starts_with("did:privy:") {
        user_id.to_string()
    } else {
        format!("did:privy:{user_id}")
    }
}

fn not_found() -> AppError {
    AppError::new(ServerErrorCode::NotFound, USER_NOT_FOUND)
}

/// The app's user `user_id`, in wire form.
pub async fn get(deps: &ServerApiDeps, app: &AppRecord, user_id: &str) -> Result<User, AppError> {
    let user = deps
        .db
        .find_user(&app.id, &full_id(user_id))
        .await?
        .ok_or_else(not_found)?;
    user_view(&deps.db, &user).await
}

/// One page of the app's users, by id after `cursor`.
pub async fn list(
    deps: &ServerApiDeps,
    app: &AppRecord,
    cursor: Option<&str>,
    limit: Option<u32>,
) -> Result<UserPage, AppError> {
    let limit = limit.unwrap_or(DEFAULT_PAGE_SIZE);
    if limit == 0 || limit > MAX_PAGE_SIZE {
        return Err(AppError::invalid_data(PAGE_LIMIT));
    }
    let cursor = cursor.map(str::trim).filter(|c| !c.is_empty());
    let users = deps.db.list_users(&app.id, cursor, limit).await?;
    let full = users.len() == limit as usize;
    let next_cursor = users.last().filter(|_| full).map(|u| u.id.clone());
    let data = user_page_view(&deps.db, &app.id, cursor, &users).await?;
    Ok(UserPage { data, next_cursor })
}

/// `POST /v1/users/{user_id}/wallets`: pregenerated wallets for a user who has none of the chain.
pub async fn pregenerate_wallets(
    deps: &ServerApiDeps,
    app: &AppRecord,
    user_id: &str,
    wallets: &[WalletCreationInput],
) -> Result<User, AppError> {
    if wallets.is_empty() {
        return Err(AppError::invalid_data(NO_WALLETS));
    }
    let count = ethereum_wallets_wanted(wallets)?;
    let user = deps
        .db
        .find_user(&app.id, &full_id(user_id))
        .await?
        .ok_or_else(not_found)?;
    pregenerate_for(deps, app, &user.id, count).await?;
    user_view(&deps.db, &user).await
}

/// Deletes the app's user `user_id` and everything of theirs.
pub async fn delete(deps: &ServerApiDeps, app: &AppRecord, user_id: &str) -> Result<(), AppError> {
    let user_id = full_id(user_id);
    let user = deps
        .db
        .find_user(&app.id, &user_id)
        .await?
        .ok_or_else(not_found)?;
    // `user.deleted` carries the user as they were just before.
    let deleted = events::user_deleted(&app.id, &user_view(&deps.db, &user).await?)?;
    if !deps
        .db
        .delete_user(&app.id, &user_id, &[deleted], deps.clock.now())
        .await?
    {
        return Err(not_found());
    }
    tracing::info!(app = %app.id, user = %user_id, "user deleted by the app's back end");
    Ok(())
}

/// The user who owns the account `(account_type, subject)`; `subject` already normalised.
pub async fn by_account(
    deps: &ServerApiDeps,
    app: &AppRecord,
    account_type: &str,
    subject: &str,
) -> Result<User, AppError> {
    let user = deps
        .db
        .find_user_by_account(&app.id, account_type, subject)
        .await?
        .ok_or_else(not_found)?;
    user_view(&deps.db, &user).await
}

/// The user whose `account_type` account has this provider `username` (any case).
pub async fn by_username(
    deps: &ServerApiDeps,
    app: &AppRecord,
    account_type: &str,
    username: &str,
) -> Result<User, AppError> {
    let username = username.trim().trim_start_matches('@');
    if username.is_empty() {
        return Err(AppError::invalid_data("username must not be empty"));
    }
    let user = deps
        .db
        .find_user_by_username(&app.id, account_type, username)
        .await?
        .ok_or_else(not_found)?;
    user_view(&deps.db, &user).await
}

/// Removes one of the user's accounts by its type and handle, under the account rules (never the
/// last way in, never an embedded wallet); answers the user.
pub async fn unlink(
    deps: &ServerApiDeps,
    app: &AppRecord,
    user_id: &str,
    request: &UnlinkAccountRequest,
) -> Result<User, AppError> {
    let account_type = request.account_type.trim();
    let subject = match account_type {
        "email" => email_subject(&request.handle)?,
        "phone" => phone_subject(&request.handle)?,
        "wallet" | "smart_wallet" => wallet_subject(&request.handle)?,
        _ => request.handle.trim().to_string(),
    };
    let user = deps
        .db
        .find_user(&app.id, &full_id(user_id))
        .await?
        .ok_or_else(not_found)?;
    accounts::unlink(&deps.accounts, &user, account_type, &subject).await?;
    user_view(&deps.db, &user).await
}

/// An email as stored, or `invalid_data`.
pub fn email_subject(address: &str) -> Result<String, AppError> {
    normalize_email(address)
}

/// A phone number as stored (E.164), or `invalid_data`.
pub fn phone_subject(number: &str) -> Result<String, AppError> {
    normalize_phone(number, &[]).map_err(|_| AppError::invalid_data("Invalid phone number"))
}

/// A wallet address as stored, or `invalid_data`.
pub fn wallet_subject(address: &str) -> Result<String, AppError> {
    normalize_wallet_address(address).ok_or_else(|| AppError::invalid_data("Invalid address"))
}

/// Checks custom metadata: an object of strings, numbers and booleans within the size limit; the
/// JSON text to store.
pub fn checked_metadata(metadata: &Map<String, Value>) -> Result<String, AppError> {
    let flat = metadata
        .values()
        .all(|v| v.is_string() || v.is_number() || v.is_boolean());
    let text =
        serde_json::to_string(metadata).map_err(|_| AppError::invalid_data(METADATA_SHAPE))?;
    if !flat || text.len() > MAX_CUSTOM_METADATA_BYTES {
        return Err(AppError::invalid_data(METADATA_SHAPE));
    }
    Ok(text)
}

/// Replaces the user's custom metadata; answers the user.
pub async fn set_custom_metadata(
    deps: &ServerApiDeps,
    app: &AppRecord,
    user_id: &str,
    metadata: &Map<String, Value>,
) -> Result<User, AppError> {
    let text = checked_metadata(metadata)?;
    let user_id = full_id(user_id);
    if !deps
        .db
        .set_custom_metadata(&app.id, &user_id, &text)
        .await?
    {
        return Err(not_found());
    }
    get(deps, app, &user_id).await
}

/// An account to import, normalised: its type, subject and details.
struct ImportedAccount {
    account_type: String,
    subject: String,
    details: Option<String>,
}

fn oauth(provider: &str, input: &OAuthAccountInput) -> Result<ImportedAccount, AppError> {
    let subject = input.subject.trim();
    if subject.is_empty() {
        return Err(AppError::invalid_data("An OAuth account needs its subject"));
    }
    let details = OAuthDetails {
        provider: provider.to_string(),
        email: input.email.clone(),
        name: input.name.clone(),
        username: input.username.clone(),
    };
    Ok(ImportedAccount {
        account_type: format!("{provider}_oauth"),
        subject: subject.to_string(),
        details: Some(details.to_stored()?),
    })
}

/// What an import's account becomes, checked as its login method would.
fn imported(input: &LinkedAccountInput) -> Result<ImportedAccount, AppError> {
    let plain = |account_type: &str, subject: String| ImportedAccount {
        account_type: account_type.to_string(),
        subject,
        details: None,
    };
    Ok(match input {
        LinkedAccountInput::Email { address } => plain("email", email_subject(address)?),
        LinkedAccountInput::Phone { number } => plain("phone", phone_subject(number)?),
        LinkedAccountInput::Wallet {
            address,
            chain_type,
        } => {
            let chain = ChainType::parse(chain_type)
                .ok_or_else(|| AppError::invalid_data("chain_type must be ethereum or solana"))?;
            let subject = wallet_subject(address)?;
            let details = ExternalWalletDetails {
                chain_type: Some(chain),
                ..ExternalWalletDetails::default()
            };
            ImportedAccount {
                account_type: "wallet".into(),
                subject,
                details: Some(details.to_stored()?),
            }
        }
        LinkedAccountInput::CustomAuth { custom_user_id } => {
            let id = custom_user_id.trim();
            if id.is_empty() || id.len() > 256 {
                return Err(AppError::invalid_data(
                    "custom_user_id must be 1 to 256 characters",
                ));
            }
            plain("custom_auth", id.to_string())
        }
        LinkedAccountInput::Telegram {
            telegram_user_id,
            first_name,
            last_name,
            username,
            photo_url,
        } => {
            let id = telegram_user_id.trim();
            if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
                return Err(AppError::invalid_data("telegram_user_id must be digits"));
            }
            let details = TelegramDetails {
                first_name: first_name.clone(),
                last_name: last_name.clone(),
                username: username.clone(),
                photo_url: photo_url.clone(),
            };
            ImportedAccount {
                account_type: "telegram".into(),
                subject: id.to_string(),
                details: Some(details.to_stored()?),
            }
        }
        LinkedAccountInput::Farcaster {
            fid,
            owner_address,
            username,
            display_name,
            bio,
            profile_picture_url,
        } => {
            let details = FarcasterDetails {
                owner_address: wallet_subject(owner_address)?,
                username: username.clone(),
                display_name: display_name.clone(),
                bio: bio.clone(),
                profile_picture_url: profile_picture_url.clone(),
                ..FarcasterDetails::default()
            };
            ImportedAccount {
                account_type: "farcaster".into(),
                subject: fid.to_string(),
                details: Some(details.to_stored()?),
            }
        }
        LinkedAccountInput::GoogleOauth(input) => oauth("google", input)?,
        LinkedAccountInput::AppleOauth(input) => oauth("apple", input)?,
        LinkedAccountInput::TwitterOauth(input) => oauth("twitter", input)?,
        LinkedAccountInput::DiscordOauth(input) => oauth("discord", input)?,
        LinkedAccountInput::GithubOauth(input) => oauth("github", input)?,
        LinkedAccountInput::LinkedinOauth(input) => oauth("linkedin", input)?,
        LinkedAccountInput::SpotifyOauth(input) => oauth("spotify", input)?,
        LinkedAccountInput::InstagramOauth(input) => oauth("instagram", input)?,
        LinkedAccountInput::TiktokOauth(input) => oauth("tiktok", input)?,
        LinkedAccountInput::LineOauth(input) => oauth("line", input)?,
        LinkedAccountInput::TwitchOauth(input) => oauth("twitch", input)?,
    })
}

/// Creates a user with the given accounts (proven elsewhere: an import) and metadata; every
/// account must be free. All or nothing.
pub async fn create(
    deps: &ServerApiDeps,
    app: &AppRecord,
    request: &CreateUserRequest,
) -> Result<User, AppError> {
    create_kept(deps, app, request, None).await
}

/// What an import keeps of a user from another server: id, creation time, terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptIdentity {
    /// `did:privy:<id>`.
    pub id: String,
    /// Unix seconds.
    pub created_at: i64,
    /// Whether the user had accepted the terms.
    pub has_accepted_terms: bool,
}

/// The refusal of a kept id that is not `did:privy:` and 1 to 64 letters or digits.
pub const INVALID_USER_ID: &str = "A user id must be did:privy: and 1 to 64 letters or digits";

/// The refusal of a kept id some user of this server has.
pub const USER_ID_TAKEN: &str = "A user with this id exists already";

/// [`create`], keeping the user's id and times when `kept` (an import from another server).
pub async fn create_kept(
    deps: &ServerApiDeps,
    app: &AppRecord,
    request: &CreateUserRequest,
    kept: Option<&KeptIdentity>,
) -> Result<User, AppError> {
    if request.linked_accounts.is_empty() {
        return Err(AppError::invalid_data(NO_ACCOUNTS));
    }
    if let Some(kept) = kept {
        let bare = kept.id.strip_prefix("did:privy:").unwrap_or_default();
        if bare.is_empty() || bare.len() > 64 || !bare.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(AppError::invalid_data(INVALID_USER_ID));
        }
        if deps.db.user_exists(&kept.id).await? {
            return Err(AppError::new(
                ServerErrorCode::ResourceAlreadyExists,
                USER_ID_TAKEN,
            ));
        }
    }
    let accounts = request
        .linked_accounts
        .iter()
        .map(imported)
        .collect::<Result<Vec<_>, _>>()?;
    let mut per_type: HashMap<&str, i64> = HashMap::new();
    for account in &accounts {
        let count = per_type.entry(&account.account_type).or_default();
        *count += 1;
        if *count > max_of_type(&account.account_type) {
            return Err(AppError::new(
                ServerErrorCode::CannotLinkMoreOfType,
                format!("Too many accounts of type {}", account.account_type),
            ));
        }
    }
    let custom_metadata = request
        .custom_metadata
        .as_ref()
        .map(checked_metadata)
        .transpose()?;
    // Checked before anything is written: a refused wallet makes no user.
    let wallets = ethereum_wallets_wanted(request.wallets.as_deref().unwrap_or_default())?;
    let ids = accounts
        .iter()
        .map(|_| random_id(25))
        .collect::<Result<Vec<_>, _>>()?;
    let rows: Vec<NewAccount<'_>> = accounts
        .iter()
        .zip(&ids)
        .map(|(account, id)| NewAccount {
            id,
            account_type: &account.account_type,
            subject: &account.subject,
            details: account.details.as_deref(),
        })
        .collect();
    let user = UserRecord {
        id: match kept {
            Some(kept) => kept.id.clone(),
            None => format!("did:privy:{}", random_id(25)?),
        },
        app_id: app.id.clone(),
        created_at: kept.map_or_else(|| deps.clock.now(), |k| k.created_at),
        has_accepted_terms: kept.is_some_and(|k| k.has_accepted_terms),
        is_guest: false,
        custom_metadata,
    };
    let created = events::user_created(&app.id, &user.id)?;
    match deps
        .db
        .sign_up(&user, &rows, app.settings.max_users, &[created])
        .await
    {
        Ok(SignUp::Created) => {}
        Ok(SignUp::UserLimitReached) => {
            return Err(AppError::new(
                ServerErrorCode::MaxAccountsReached,
                account_messages::MAX_ACCOUNTS_REACHED,
            ));
        }
        Err(DbError::Conflict { .. }) => {
            return Err(AppError::new(
                ServerErrorCode::LinkedToAnotherUser,
                account_messages::LINKED_TO_ANOTHER_USER,
            ));
        }
        Err(other) => return Err(other.into()),
    }
    tracing::info!(app = %app.id, user = %user.id, accounts = rows.len(), "user created by the app's back end");
    pregenerate_for(deps, app, &user.id, wallets).await?;
    user_view(&deps.db, &user).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_are_taken_with_or_without_the_did_prefix() {
        assert_eq!(full_id("abc"), "did:privy:abc");
        assert_eq!(full_id(" did:privy:abc "), "did:privy:abc");
    }

    #[test]
    fn metadata_is_flat_and_small() {
        let ok = json!({"plan": "pro", "seats": 3, "beta": true});
        assert!(checked_metadata(ok.as_object().unwrap_or(&Map::new())).is_ok());
        for refused in [
            json!({"nested": {"a": 1}}),
            json!({"list": [1]}),
            json!({"nothing": null}),
            json!({"big": "x".repeat(MAX_CUSTOM_METADATA_BYTES)}),
        ] {
            let map = refused.as_object().cloned().unwrap_or_default();
            assert!(checked_metadata(&map).is_err(), "{refused}");
        }
    }
}
