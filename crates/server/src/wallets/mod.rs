//! Embedded-wallet secrets on the server: the two share keys and the share envelopes.

pub mod share_keys;
pub mod share_vault;

pub use share_keys::ShareKeyError;
pub use share_vault::{ShareVault, VaultError};
