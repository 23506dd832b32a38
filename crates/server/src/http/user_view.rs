//! Stored users in their wire form.

use symbolon_protocol::user::{
    ChainType, CustomAuthAccount, EmailAccount, FarcasterAccount, LinkedAccount, PhoneAccount,
    RecoveryMethod, TelegramAccount, User, Verification, WalletAccount,
};

use super::error::AppError;
use crate::db::users::{LinkedAccountRecord, UserRecord};
use crate::db::wallets::WALLET_ACCOUNT_TYPE;
use crate::state::AppState;

/// Loads the user's accounts and builds the wire [`User`].
pub async fn user_view(state: &AppState, user: &UserRecord) -> Result<User, AppError> {
    let accounts = state.db.linked_accounts(&user.id).await?;
    Ok(wire_user(user, accounts))
}

/// The wire [`User`] from a stored user and its accounts (oldest first).
pub fn wire_user(user: &UserRecord, accounts: Vec<LinkedAccountRecord>) -> User {
    User {
        id: user.id.clone(),
        created_at: user.created_at,
        linked_accounts: accounts.into_iter().filter_map(wire_account).collect(),
        mfa_methods: Vec::new(),
        has_accepted_terms: user.has_accepted_terms,
        is_guest: user.is_guest,
    }
}

/// One stored account in wire form; `None` for kinds this server does not render.
pub fn wire_account(account: LinkedAccountRecord) -> Option<LinkedAccount> {
    let verification = Verification {
        verified_at: account.first_verified_at,
        first_verified_at: Some(account.first_verified_at),
        latest_verified_at: Some(account.latest_verified_at),
    };
    // What the login method knew beyond the subject (names, profile), stored as JSON.
    let details = account
        .details
        .as_deref()
        .and_then(|d| serde_json::from_str::<serde_json::Value>(d).ok());
    let text = |key: &str| {
        details
            .as_ref()
            .and_then(|d| d[key].as_str())
            .map(str::to_string)
    };
    match account.account_type.as_str() {
        "email" => Some(LinkedAccount::Email(EmailAccount {
            address: account.subject,
            verification,
        })),
        "phone" => Some(LinkedAccount::Phone(PhoneAccount {
            phone_number: account.subject,
            verification,
        })),
        "custom_auth" => Some(LinkedAccount::CustomAuth(CustomAuthAccount {
            custom_user_id: account.subject,
            verification,
        })),
        "farcaster" => Some(LinkedAccount::Farcaster(FarcasterAccount {
            fid: account.subject.parse().ok()?,
            owner_address: text("owner_address").unwrap_or_default(),
            username: text("username"),
            display_name: text("display_name"),
            bio: text("bio"),
            profile_picture_url: text("profile_picture_url"),
            signer_public_key: text("signer_public_key"),
            verification,
        })),
        "telegram" => Some(LinkedAccount::Telegram(TelegramAccount {
            telegram_user_id: account.subject,
            first_name: text("first_name"),
            last_name: text("last_name"),
            username: text("username"),
            photo_url: text("photo_url"),
            verification,
        })),
        // Guests have no account to show: their credential is a secret (stored as a hash).
        WALLET_ACCOUNT_TYPE => {
            // Only embedded wallets exist so far; external (SIWE) wallets come later.
            let wallet = account.wallet?;
            Some(LinkedAccount::Wallet(WalletAccount {
                id: Some(account.id),
                address: account.subject,
                chain_type: ChainType::parse(&wallet.chain_type)?,
                wallet_client_type: "privy".into(),
                connector_type: "embedded".into(),
                wallet_index: Some(wallet.wallet_index),
                recovery_method: RecoveryMethod::parse(&wallet.recovery_method),
                imported: wallet.imported,
                delegated: false,
                verification,
            }))
        }
        _ => None,
    }
}
