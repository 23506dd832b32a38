//! The events a change records (`db::webhooks::NewEvent`), one constructor per kind: each takes
//! what the change knows and writes the fields of the vendor's payload it can fill then. The
//! user's current form (`user`, `toUser`) is added when the event is first sent
//! ([`super::delivery`]).

use std::sync::atomic::{AtomicU32, Ordering};

use serde_json::{Value, json};
use symbolon_protocol::mfa::MfaMethodType;
use symbolon_protocol::user::User;
use symbolon_protocol::webhooks::WebhookEventType;

use crate::db::users::LinkedAccountRecord;
use crate::db::wallets::EmbeddedWalletRecord;
use crate::db::webhooks::NewEvent;
use crate::error::AppError;
use crate::random::random_id;
use crate::users::view::wire_account;

/// An account as an event shows it: its wire form (`null` for kinds without one).
fn account(record: &LinkedAccountRecord) -> Value {
    wire_account(record.clone())
        .and_then(|account| serde_json::to_value(account).ok())
        .unwrap_or(Value::Null)
}

/// An account the change knows by its parts only (a login's proven identity), verified `now`.
pub fn proven_account(
    account_type: &str,
    subject: &str,
    details: Option<String>,
    now: i64,
) -> LinkedAccountRecord {
    LinkedAccountRecord {
        id: String::new(),
        account_type: account_type.to_string(),
        subject: subject.to_string(),
        first_verified_at: now,
        latest_verified_at: now,
        wallet: None,
        details,
    }
}

/// Orders the events made in one millisecond by this process.
static SEQUENCE: AtomicU32 = AtomicU32::new(0);

/// A message id that sorts by when it was made (milliseconds, then this process's count), so an
/// endpoint gets a user's events in the order they happened (`user.created` before the
/// `user.authenticated` of the same sign-up): `msg_<ms, 12 hex><count, 4 hex><random>`.
fn message_id() -> Result<String, AppError> {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let count = SEQUENCE.fetch_add(1, Ordering::Relaxed) & 0xffff;
    Ok(format!("msg_{ms:012x}{count:04x}{}", random_id(16)?))
}

fn event(
    kind: WebhookEventType,
    app_id: &str,
    user_id: &str,
    body: Value,
) -> Result<NewEvent, AppError> {
    Ok(NewEvent {
        id: message_id()?,
        app_id: app_id.to_string(),
        event_type: kind.as_str(),
        user_id: user_id.to_string(),
        body: body.to_string(),
    })
}

/// `user.created`.
pub fn user_created(app_id: &str, user_id: &str) -> Result<NewEvent, AppError> {
    event(WebhookEventType::UserCreated, app_id, user_id, json!({}))
}

/// `user.authenticated` with the account the user proved.
pub fn authenticated(
    app_id: &str,
    user_id: &str,
    proved: &LinkedAccountRecord,
) -> Result<NewEvent, AppError> {
    event(
        WebhookEventType::UserAuthenticated,
        app_id,
        user_id,
        json!({ "account": account(proved) }),
    )
}

/// `user.linked_account`, `user.unlinked_account` or `user.updated_account` (`kind`).
pub fn account_changed(
    kind: WebhookEventType,
    app_id: &str,
    user_id: &str,
    changed: &LinkedAccountRecord,
) -> Result<NewEvent, AppError> {
    event(
        kind,
        app_id,
        user_id,
        json!({ "account": account(changed) }),
    )
}

/// `user.transferred_account` of `moved` to `to_user_id`; the move's transaction adds who had
/// it (`fromUser`) and whether they were deleted (`deletedUser`).
pub fn transferred(
    app_id: &str,
    to_user_id: &str,
    moved: &LinkedAccountRecord,
) -> Result<NewEvent, AppError> {
    event(
        WebhookEventType::UserTransferredAccount,
        app_id,
        to_user_id,
        json!({ "account": account(moved) }),
    )
}

/// `user.wallet_created` for a wallet being stored.
pub fn wallet_created(wallet: &EmbeddedWalletRecord) -> Result<NewEvent, AppError> {
    event(
        WebhookEventType::UserWalletCreated,
        &wallet.app_id,
        &wallet.user_id,
        json!({ "wallet": {
            "type": "wallet",
            "address": wallet.address,
            "chain_type": wallet.chain_type,
        } }),
    )
}

/// `user.deleted`, with the user as they were just before.
pub fn user_deleted(app_id: &str, user: &User) -> Result<NewEvent, AppError> {
    event(
        WebhookEventType::UserDeleted,
        app_id,
        &user.id,
        json!({ "user": user }),
    )
}

/// `mfa.enabled` or `mfa.disabled`.
pub fn mfa_changed(
    enabled: bool,
    app_id: &str,
    user_id: &str,
    method: MfaMethodType,
) -> Result<NewEvent, AppError> {
    let kind = if enabled {
        WebhookEventType::MfaEnabled
    } else {
        WebhookEventType::MfaDisabled
    };
    event(
        kind,
        app_id,
        user_id,
        json!({ "user_id": user_id, "method": method.as_str() }),
    )
}

/// `wallet.private_key_export` or `wallet.recovered` (`kind`) for the user's wallet.
pub fn wallet_used(
    kind: WebhookEventType,
    app_id: &str,
    user_id: &str,
    wallet_id: &str,
    address: &str,
) -> Result<NewEvent, AppError> {
    event(
        kind,
        app_id,
        user_id,
        json!({ "user_id": user_id, "wallet_id": wallet_id, "wallet_address": address }),
    )
}
