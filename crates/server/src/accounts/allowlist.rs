//! The app's allowlist (`allowlist_rejected`): who may sign in or up when one is set.

use symbolon_wallet_core::chains::ethereum::Address;

use super::{AccountDeps, VerifiedIdentity};
use crate::db::apps::AppRecord;
use crate::db::users::UserRecord;
use crate::error::AppError;

/// Whether `identity` may sign in: no allowlist, or the identity is on it, or (for an existing
/// user) any of the user's accounts is. Types the list has no column for never match.
pub async fn admits(
    deps: &AccountDeps,
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
        if account_type == "wallet" {
            let subject = wallet_key(subject);
            return entries.iter().any(|e| wallet_key(e) == subject);
        }
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
    let accounts = deps.db.linked_accounts(&user.id).await?;
    Ok(accounts.iter().any(|a| listed(&a.account_type, &a.subject)))
}

/// A wallet address as the allowlist compares it: an Ethereum address by its 20 bytes (any case,
/// checksum or not), anything else (a Solana base58 key, which is case-sensitive) exactly.
pub fn wallet_key(address: &str) -> String {
    let address = address.trim();
    match Address::parse(&address.to_ascii_lowercase()) {
        Ok(parsed) => parsed.to_checksum(),
        Err(_) => address.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::wallet_key;

    #[test]
    fn ethereum_entries_match_in_any_case_solana_ones_exactly() {
        let checksummed = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
        assert_eq!(
            wallet_key(" 0xF39FD6E51AAD88F6F4CE6AB8827279CFFFB92266 "),
            checksummed
        );
        assert_eq!(
            wallet_key("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"),
            checksummed
        );
        let solana = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
        assert_eq!(wallet_key(solana), solana);
        assert_ne!(wallet_key(&solana.to_lowercase()), solana);
    }
}
