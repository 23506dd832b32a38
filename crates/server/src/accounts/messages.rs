//! The messages of the account rules' refusals (each goes with its spec §8 code).

/// `user_does_not_exist`.
pub const USER_DOES_NOT_EXIST: &str =
    "No user exists for this account, and this login does not sign up";
/// `signup_disabled`.
pub const SIGNUP_DISABLED: &str = "Sign-up is disabled for this app";
/// `allowlist_rejected`.
pub const ALLOWLIST_REJECTED: &str = "This account is not on the app's allowlist";
/// `max_accounts_reached`.
pub const MAX_ACCOUNTS_REACHED: &str = "This app has reached its user limit";
/// `linked_to_another_user`.
pub const LINKED_TO_ANOTHER_USER: &str = "This account has already been linked to another user.";
/// `account_transfer_required`.
pub const ACCOUNT_TRANSFER_REQUIRED: &str =
    "This account belongs to another user; it can be transferred with the nonce";
/// `linked_account_not_found`.
pub const LINKED_ACCOUNT_NOT_FOUND: &str = "No such account is linked to this user";
/// `cannot_unlink_sole_account`.
pub const CANNOT_UNLINK_SOLE_ACCOUNT: &str =
    "Cannot unlink the only account this user can sign in with";
/// `token_already_used` for a transfer nonce.
pub const TRANSFER_NONCE_USED: &str = "This transfer was already used or has expired";
/// `invalid_data` for custom, guest and passkey accounts (spec §5).
pub const NOT_TRANSFERABLE: &str = "Accounts of this type cannot be transferred";

/// `invalid_data` for an embedded wallet's address in a wallet login or link (spec §5, §8).
pub const EMBEDDED_WALLET_LOGIN: &str = "Cannot link or login with embedded wallet";
/// `cannot_unlink_embedded_wallet` (spec §8).
pub const CANNOT_UNLINK_EMBEDDED_WALLET: &str = "Cannot unlink an embedded wallet";

/// `cannot_link_more_of_type` (the spec client's own wording, spec §5).
pub fn cannot_link_more_of_type(account_type: &str) -> String {
    if account_type == "passkey" {
        return CANNOT_LINK_MORE_PASSKEYS.into();
    }
    format!("User already has an account of type {account_type} linked.")
}

/// `cannot_link_more_of_type` for a sixth passkey (spec §5, §8).
pub const CANNOT_LINK_MORE_PASSKEYS: &str = "Cannot link more passkeys to account.";
/// `invalid_data` for unlinking a passkey that is a second factor (spec §5, §8).
pub const CANNOT_UNLINK_MFA_PASSKEY: &str = "Cannot unlink a passkey enrolled in MFA";
/// `invalid_credentials` for a sign-up with a credential id that is already registered: a
/// credential id is public, so presenting it proves nothing.
pub const PASSKEY_ALREADY_REGISTERED: &str = "This passkey is already registered";

/// `disallowed_login_method` for an OAuth provider the app does not enable.
pub fn disallowed_oauth_provider(provider: &str) -> String {
    format!("Login with {provider} is not enabled for this app")
}
