//! The account rules, in one place (`docs/accounts.md`). A login method proves a
//! [`VerifiedIdentity`]; these functions decide what that proof does to a user — log in or sign
//! up, link, unlink, update, transfer — and answer with the spec's codes (spec §4, §5, §8).
//! Methods never touch users or linked accounts themselves.

pub mod allowlist;
pub mod deps;
pub mod identity;
pub mod messages;

use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::accounts::AccountTransferData;
use symbolon_protocol::oauth::OAuthUserInfo;
use symbolon_protocol::session::AuthMode;
use symbolon_protocol::siwe::ExternalWalletMetadata;

pub use self::deps::AccountDeps;
pub use self::identity::{Proof, VerifiedIdentity};
use crate::app_settings::login_methods::LoginMethod;
use crate::db::DbError;
use crate::db::accounts::{Link, NewAccount, SignUp, Transfer, Unlink};
use crate::db::apps::AppRecord;
use crate::db::passkeys::{PASSKEY, PasskeyUnlink};
use crate::db::users::{LinkedAccountRecord, UserRecord};
use crate::db::wallets::WALLET_ACCOUNT_TYPE as WALLET;
use crate::db::webhooks::NewEvent;
use crate::digest::sha256_hex;
use crate::error::AppError;
use crate::random::{random_id, random_token};
use crate::webhooks::events;
use symbolon_protocol::webhooks::WebhookEventType;

/// The linked-account type of smart wallets (signed in with SIWE, ERC-1271).
pub const SMART_WALLET: &str = "smart_wallet";

/// Seconds an `account_transfer_required` nonce may be used.
pub const TRANSFER_TTL_S: i64 = 600;

/// Who signed in, and whether this login created them.
#[derive(Debug, Clone)]
pub struct LoggedIn {
    /// The user.
    pub user: UserRecord,
    /// The login created the user (a guest's first real login is not new).
    pub is_new_user: bool,
}

/// How many accounts of `account_type` one user may have (spec §9: 5 passkeys, any number of
/// wallets, one of every other type).
pub fn max_of_type(account_type: &str) -> i64 {
    match account_type {
        "passkey" => 5,
        "wallet" => i64::MAX,
        _ => 1,
    }
}

/// Whether accounts of this type may move between users (spec §5: not custom, guest, passkey).
pub fn transferable(account_type: &str) -> bool {
    !matches!(account_type, "custom_auth" | "guest" | "passkey")
}

/// Signs `identity` in: its owner, or a new user (sign-up rules), or — when the caller is a
/// guest and nobody owns the identity — the guest, who then stops being one.
pub async fn login(
    deps: &AccountDeps,
    app: &AppRecord,
    identity: &VerifiedIdentity,
    mode: AuthMode,
    current: Option<&UserRecord>,
) -> Result<LoggedIn, AppError> {
    sign_in_or_up(deps, app, identity, mode, current, false).await
}

/// Signs up with an identity nobody has yet (a new passkey), or upgrades the calling guest
/// with it; an identity someone owns is refused, never signed in: a passkey's credential id is
/// public, so a registration that names an existing one proves nothing about its owner.
pub async fn register(
    deps: &AccountDeps,
    app: &AppRecord,
    identity: &VerifiedIdentity,
    current: Option<&UserRecord>,
) -> Result<LoggedIn, AppError> {
    sign_in_or_up(deps, app, identity, AuthMode::default(), current, true).await
}

async fn sign_in_or_up(
    deps: &AccountDeps,
    app: &AppRecord,
    identity: &VerifiedIdentity,
    mode: AuthMode,
    current: Option<&UserRecord>,
    new_only: bool,
) -> Result<LoggedIn, AppError> {
    require_identity_method(app, identity)?;
    refuse_embedded_wallet(deps, &app.id, identity).await?;
    let now = deps.clock.now();
    // Twice at most: a concurrent sign-up of the same identity makes the second pass find it.
    for _ in 0..2 {
        if let Some(user) = owner(deps, app, identity).await? {
            if new_only {
                return Err(AppError::new(
                    ServerErrorCode::InvalidCredentials,
                    messages::PASSKEY_ALREADY_REGISTERED,
                ));
            }
            if !allowlist::admits(deps, app, identity, Some(&user)).await? {
                return Err(allowlist_rejected());
            }
            let signed_in = events::authenticated(&app.id, &user.id, &proven(identity, now))?;
            touch(deps, app, identity, now, &[signed_in]).await?;
            return Ok(LoggedIn {
                user,
                is_new_user: false,
            });
        }
        if !allowlist::admits(deps, app, identity, None).await? {
            return Err(allowlist_rejected());
        }
        if let Some(guest) = current.filter(|u| u.is_guest && identity.method != LoginMethod::Guest)
        {
            let upgrade = [
                events::account_changed(
                    WebhookEventType::UserLinkedAccount,
                    &app.id,
                    &guest.id,
                    &proven(identity, now),
                )?,
                events::authenticated(&app.id, &guest.id, &proven(identity, now))?,
            ];
            match link_row(deps, app, guest, identity, true, &random_id(25)?, &upgrade).await {
                Ok(Link::Linked) => {
                    let user = UserRecord {
                        is_guest: false,
                        ..guest.clone()
                    };
                    return Ok(LoggedIn {
                        user,
                        is_new_user: false,
                    });
                }
                Ok(Link::TypeLimitReached) => {}
                Err(DbError::Conflict { .. }) => continue,
                Err(other) => return Err(other.into()),
            }
        }
        if mode == AuthMode::NoSignup {
            return Err(AppError::new(
                ServerErrorCode::UserDoesNotExist,
                messages::USER_DOES_NOT_EXIST,
            ));
        }
        if !app.settings.signup_enabled {
            return Err(AppError::new(
                ServerErrorCode::SignupDisabled,
                messages::SIGNUP_DISABLED,
            ));
        }
        let user = UserRecord {
            id: format!("did:privy:{}", random_id(25)?),
            app_id: app.id.clone(),
            created_at: now,
            has_accepted_terms: false,
            is_guest: identity.method == LoginMethod::Guest,
            custom_metadata: None,
        };
        let account_id = random_id(25)?;
        let details = identity.details_json();
        let account = NewAccount {
            id: &account_id,
            account_type: &identity.account_type,
            subject: &identity.subject,
            details: details.as_deref(),
        };
        let signed_up = [
            events::user_created(&app.id, &user.id)?,
            events::authenticated(&app.id, &user.id, &proven(identity, now))?,
        ];
        match deps
            .db
            .sign_up(
                &user,
                std::slice::from_ref(&account),
                app.settings.max_users,
                &signed_up,
            )
            .await
        {
            Ok(SignUp::Created) => {
                tracing::info!(app = %app.id, method = identity.method.as_str(), "user signed up");
                return Ok(LoggedIn {
                    user,
                    is_new_user: true,
                });
            }
            Ok(SignUp::UserLimitReached) => {
                tracing::warn!(app = %app.id, "user limit reached");
                return Err(AppError::new(
                    ServerErrorCode::MaxAccountsReached,
                    messages::MAX_ACCOUNTS_REACHED,
                ));
            }
            Err(DbError::Conflict { .. }) => continue,
            Err(other) => return Err(other.into()),
        }
    }
    Err(DbError::Conflict { constraint: None }.into())
}

/// Links `identity` to `user` (who is signed in). Linking what the user already has is a no-op;
/// what another user owns is `account_transfer_required` (with a nonce) when it may move, else
/// `linked_to_another_user`.
pub async fn link(
    deps: &AccountDeps,
    app: &AppRecord,
    user: &UserRecord,
    identity: &VerifiedIdentity,
) -> Result<(), AppError> {
    require_identity_method(app, identity)?;
    refuse_embedded_wallet(deps, &app.id, identity).await?;
    if registers_new(identity)
        && let Some(owner) = owner(deps, app, identity).await?
    {
        return Err(already_linked(&owner, user));
    }
    if owner(deps, app, identity)
        .await?
        .is_some_and(|owner| owner.id == user.id)
    {
        touch(deps, app, identity, deps.clock.now(), &[]).await?;
        return Ok(());
    }
    let linked = events::account_changed(
        WebhookEventType::UserLinkedAccount,
        &app.id,
        &user.id,
        &proven(identity, deps.clock.now()),
    )?;
    match link_row(
        deps,
        app,
        user,
        identity,
        user.is_guest,
        &random_id(25)?,
        &[linked],
    )
    .await
    {
        Ok(Link::Linked) => Ok(()),
        Ok(Link::TypeLimitReached) => Err(AppError::new(
            ServerErrorCode::CannotLinkMoreOfType,
            messages::cannot_link_more_of_type(&identity.account_type),
        )),
        Err(DbError::Conflict { .. }) => match owner(deps, app, identity).await? {
            Some(owner) if registers_new(identity) => Err(already_linked(&owner, user)),
            Some(owner) if owner.id == user.id => {
                touch(deps, app, identity, deps.clock.now(), &[]).await?;
                Ok(())
            }
            Some(_) => Err(owned_elsewhere(deps, app, user, identity).await?),
            // Unlinked between the insert and this read: the client may simply retry.
            None => Err(DbError::Conflict { constraint: None }.into()),
        },
        Err(other) => Err(other.into()),
    }
}

/// Removes the user's `(account_type, subject)`; never their last way in, never an embedded
/// wallet (spec §5).
pub async fn unlink(
    deps: &AccountDeps,
    user: &UserRecord,
    account_type: &str,
    subject: &str,
) -> Result<(), AppError> {
    if account_type == WALLET
        && deps
            .db
            .find_embedded_wallet(&user.app_id, subject)
            .await?
            .is_some_and(|w| w.user_id == user.id)
    {
        return Err(AppError::new(
            ServerErrorCode::CannotUnlinkEmbeddedWallet,
            messages::CANNOT_UNLINK_EMBEDDED_WALLET,
        ));
    }
    let unlinked = unlinked_events(deps, &user.app_id, &user.id, account_type, subject).await?;
    let now = deps.clock.now();
    if account_type == PASSKEY {
        return unlink_passkey(deps, user, subject, &unlinked, now).await;
    }
    match deps
        .db
        .unlink_account(&user.id, account_type, subject, &unlinked, now)
        .await?
    {
        Unlink::Unlinked => {
            tracing::info!(user = %user.id, account_type, "account unlinked");
            Ok(())
        }
        Unlink::NotFound => Err(AppError::new(
            ServerErrorCode::LinkedAccountNotFound,
            messages::LINKED_ACCOUNT_NOT_FOUND,
        )),
        Unlink::SoleAccount => Err(AppError::new(
            ServerErrorCode::CannotUnlinkSoleAccount,
            messages::CANNOT_UNLINK_SOLE_ACCOUNT,
        )),
    }
}

/// `user.unlinked_account` for the user's account as stored, to record with its removal (none
/// when they have no such account: the unlink is then refused).
pub async fn unlinked_events(
    deps: &AccountDeps,
    app_id: &str,
    user_id: &str,
    account_type: &str,
    subject: &str,
) -> Result<Vec<NewEvent>, AppError> {
    match deps
        .db
        .find_linked_account(app_id, account_type, subject)
        .await?
    {
        Some((owner, account)) if owner == user_id => Ok(vec![events::account_changed(
            WebhookEventType::UserUnlinkedAccount,
            app_id,
            user_id,
            &account,
        )?]),
        _ => Ok(Vec::new()),
    }
}

/// Unlinks a passkey: never one enrolled in MFA (unenrol it first), never the last way in.
async fn unlink_passkey(
    deps: &AccountDeps,
    user: &UserRecord,
    credential_id: &str,
    unlinked: &[NewEvent],
    now: i64,
) -> Result<(), AppError> {
    match deps
        .db
        .unlink_passkey(&user.id, credential_id, unlinked, now)
        .await?
    {
        PasskeyUnlink::Unlinked => {
            tracing::info!(user = %user.id, account_type = PASSKEY, "account unlinked");
            Ok(())
        }
        PasskeyUnlink::EnrolledInMfa => {
            Err(AppError::invalid_data(messages::CANNOT_UNLINK_MFA_PASSKEY))
        }
        PasskeyUnlink::NotFound => Err(AppError::new(
            ServerErrorCode::LinkedAccountNotFound,
            messages::LINKED_ACCOUNT_NOT_FOUND,
        )),
        PasskeyUnlink::SoleAccount => Err(AppError::new(
            ServerErrorCode::CannotUnlinkSoleAccount,
            messages::CANNOT_UNLINK_SOLE_ACCOUNT,
        )),
    }
}

/// Identities whose every link creates a new credential (passkeys): linking one that exists is
/// refused rather than treated as "already yours", which would replace its stored public key.
fn registers_new(identity: &VerifiedIdentity) -> bool {
    identity.method == LoginMethod::Passkey
}

fn already_linked(owner: &UserRecord, user: &UserRecord) -> AppError {
    if owner.id == user.id {
        AppError::invalid_data("This passkey is already linked to this user")
    } else {
        AppError::new(
            ServerErrorCode::LinkedToAnotherUser,
            messages::LINKED_TO_ANOTHER_USER,
        )
    }
}

/// Replaces the user's `old` account of `new.account_type` by the just-verified `new` (email
/// and phone only, spec §5).
pub async fn update(
    deps: &AccountDeps,
    app: &AppRecord,
    user: &UserRecord,
    old_subject: &str,
    new: &VerifiedIdentity,
) -> Result<(), AppError> {
    app.settings.require(new.method)?;
    let now = deps.clock.now();
    if old_subject == new.subject {
        // Re-verifying the current value: it must be the caller's (never touch another user's).
        let mine = owner(deps, app, new).await?;
        if mine.is_none_or(|owner| owner.id != user.id) {
            return Err(AppError::new(
                ServerErrorCode::LinkedAccountNotFound,
                messages::LINKED_ACCOUNT_NOT_FOUND,
            ));
        }
        touch(deps, app, new, now, &[]).await?;
        return Ok(());
    }
    let updated = events::account_changed(
        WebhookEventType::UserUpdatedAccount,
        &app.id,
        &user.id,
        &proven(new, now),
    )?;
    match deps
        .db
        .replace_account(
            &user.id,
            &new.account_type,
            old_subject,
            &new.subject,
            now,
            &[updated],
        )
        .await
    {
        Ok(true) => Ok(()),
        Ok(false) => Err(AppError::new(
            ServerErrorCode::LinkedAccountNotFound,
            messages::LINKED_ACCOUNT_NOT_FOUND,
        )),
        Err(DbError::Conflict { .. }) => Err(AppError::new(
            ServerErrorCode::LinkedToAnotherUser,
            messages::LINKED_TO_ANOTHER_USER,
        )),
        Err(other) => Err(other.into()),
    }
}

/// Moves `(account_type, subject)` to `user`, proven by the nonce of an earlier
/// `account_transfer_required` for exactly this account and user.
pub async fn transfer(
    deps: &AccountDeps,
    app: &AppRecord,
    user: &UserRecord,
    nonce: &str,
    account_type: &str,
    subject: &str,
) -> Result<(), AppError> {
    if !transferable(account_type) {
        return Err(AppError::invalid_data(messages::NOT_TRANSFERABLE));
    }
    let now = deps.clock.now();
    if !deps
        .db
        .take_transfer(
            &sha256_hex(nonce.trim().as_bytes()),
            &app.id,
            account_type,
            subject,
            &user.id,
            now,
        )
        .await?
    {
        return Err(AppError::new(
            ServerErrorCode::TokenAlreadyUsed,
            messages::TRANSFER_NONCE_USED,
        ));
    }
    let account = match deps
        .db
        .find_linked_account(&app.id, account_type, subject)
        .await?
    {
        Some((_, stored)) => LinkedAccountRecord {
            latest_verified_at: now,
            ..stored
        },
        None => events::proven_account(account_type, subject, None, now),
    };
    let moved = deps
        .db
        .transfer_account(
            &app.id,
            account_type,
            subject,
            &user.id,
            max_of_type(account_type),
            now,
            events::transferred(&app.id, &user.id, &account)?,
        )
        .await?;
    match moved {
        Transfer::Moved { owner_deleted } => {
            tracing::info!(app = %app.id, user = %user.id, account_type, owner_deleted, "account transferred");
            Ok(())
        }
        Transfer::TypeLimitReached => Err(AppError::new(
            ServerErrorCode::CannotLinkMoreOfType,
            messages::cannot_link_more_of_type(account_type),
        )),
        Transfer::WouldStrandWallets => Err(AppError::new(
            ServerErrorCode::LinkedToAnotherUser,
            messages::LINKED_TO_ANOTHER_USER,
        )),
        Transfer::Gone => Err(AppError::new(
            ServerErrorCode::LinkedAccountNotFound,
            messages::LINKED_ACCOUNT_NOT_FOUND,
        )),
    }
}

/// `disallowed_login_method` unless the app enables the way `identity` was proven: for OAuth,
/// its provider (`details.provider`: `google`, `custom:<name>`, `privy:<app id>`).
pub fn require_identity_method(
    app: &AppRecord,
    identity: &VerifiedIdentity,
) -> Result<(), AppError> {
    if identity.method != LoginMethod::OAuth {
        return app.settings.require(identity.method);
    }
    let provider = identity.detail("provider").unwrap_or_default();
    if app.settings.oauth_enabled(provider) {
        Ok(())
    } else {
        Err(AppError::new(
            ServerErrorCode::DisallowedLoginMethod,
            messages::disallowed_oauth_provider(provider),
        ))
    }
}

/// Spec §5: an embedded wallet can never be used to log in or link, whoever holds its key (an
/// exported key signs like any other). Its address is already a `wallet` account of its owner,
/// so without this a SIWE login with it would sign that owner in. A `smart_wallet` link of an
/// embedded wallet's address (one with code: EIP-7702 delegation) is refused alike.
async fn refuse_embedded_wallet(
    deps: &AccountDeps,
    app_id: &str,
    identity: &VerifiedIdentity,
) -> Result<(), AppError> {
    let wallet_like = identity.account_type == WALLET || identity.account_type == SMART_WALLET;
    if wallet_like
        && deps
            .db
            .find_embedded_wallet(app_id, &identity.subject)
            .await?
            .is_some()
    {
        return Err(AppError::invalid_data(messages::EMBEDDED_WALLET_LOGIN));
    }
    Ok(())
}

/// Records that `identity`'s owner proved it again, with its method's current details, and
/// `events`.
async fn touch(
    deps: &AccountDeps,
    app: &AppRecord,
    identity: &VerifiedIdentity,
    now: i64,
    events: &[NewEvent],
) -> Result<(), DbError> {
    deps.db
        .touch_account(
            &app.id,
            &identity.account_type,
            &identity.subject,
            identity.details_json().as_deref(),
            now,
            events,
        )
        .await
}

/// `identity` as the account an event shows, verified `now`.
fn proven(identity: &VerifiedIdentity, now: i64) -> LinkedAccountRecord {
    events::proven_account(
        &identity.account_type,
        &identity.subject,
        identity.details_json(),
        now,
    )
}

async fn owner(
    deps: &AccountDeps,
    app: &AppRecord,
    identity: &VerifiedIdentity,
) -> Result<Option<UserRecord>, AppError> {
    Ok(deps
        .db
        .find_user_by_account(&app.id, &identity.account_type, &identity.subject)
        .await?)
}

async fn link_row(
    deps: &AccountDeps,
    app: &AppRecord,
    user: &UserRecord,
    identity: &VerifiedIdentity,
    clear_guest: bool,
    account_id: &str,
    events: &[NewEvent],
) -> Result<Link, DbError> {
    let details = identity.details_json();
    let account = NewAccount {
        id: account_id,
        account_type: &identity.account_type,
        subject: &identity.subject,
        details: details.as_deref(),
    };
    deps.db
        .link_account(
            &app.id,
            &user.id,
            &account,
            max_of_type(&identity.account_type),
            clear_guest,
            deps.clock.now(),
            events,
        )
        .await
}

/// The refusal for an identity another user owns: a transfer offer when it may move.
async fn owned_elsewhere(
    deps: &AccountDeps,
    app: &AppRecord,
    user: &UserRecord,
    identity: &VerifiedIdentity,
) -> Result<AppError, AppError> {
    let refused = AppError::new(
        ServerErrorCode::LinkedToAnotherUser,
        messages::LINKED_TO_ANOTHER_USER,
    );
    if !transferable(&identity.account_type)
        || deps
            .db
            .transfer_possible(&app.id, &identity.account_type, &identity.subject)
            .await?
            != Some(true)
    {
        return Ok(refused);
    }
    let nonce = random_token()?;
    let now = deps.clock.now();
    deps.db
        .offer_transfer(
            &sha256_hex(nonce.as_bytes()),
            &app.id,
            &identity.account_type,
            &identity.subject,
            &user.id,
            now,
            now + TRANSFER_TTL_S,
        )
        .await?;
    let data = AccountTransferData {
        nonce,
        account_type: identity.account_type.to_string(),
        // OAuth accounts show the provider's email or handle (their subject is an opaque id, sent
        // back in `oauth_user_info`); the others show the subject the transfer call names.
        display_name: if identity.method == LoginMethod::OAuth {
            identity
                .detail("email")
                .or(identity.detail("username"))
                .unwrap_or(&identity.subject)
        } else {
            &identity.subject
        }
        .to_string(),
        embedded_wallet_address: None,
        oauth_user_info: (identity.method == LoginMethod::OAuth).then(|| OAuthUserInfo {
            provider: identity.detail("provider").unwrap_or_default().into(),
            subject: identity.subject.clone(),
            email: identity.detail("email").map(str::to_string),
            name: identity.detail("name").map(str::to_string),
            username: identity.detail("username").map(str::to_string),
        }),
        external_wallet_metadata: (identity.method == LoginMethod::Wallet).then(|| {
            ExternalWalletMetadata {
                wallet_client_type: identity.detail("wallet_client_type").map(str::to_string),
                connector_type: identity.detail("connector_type").map(str::to_string),
            }
        }),
    };
    Ok(AppError::new(
        ServerErrorCode::AccountTransferRequired,
        messages::ACCOUNT_TRANSFER_REQUIRED,
    )
    .with_data(serde_json::to_value(data).unwrap_or_default()))
}

fn allowlist_rejected() -> AppError {
    AppError::new(
        ServerErrorCode::AllowlistRejected,
        messages::ALLOWLIST_REJECTED,
    )
}
