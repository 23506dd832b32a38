//! The keys the server holds outside the database (docs/security.md): the sealing key (app
//! settings' secrets, signing keys at rest) and the two share keys with the vault that seals
//! embedded-wallet shares. Capabilities use these services; none of them reads a key itself.

pub mod key_sealer;
pub mod sealing;
pub mod share_keys;
pub mod share_vault;
pub mod wallet_transfer;

pub use share_keys::ShareKeyError;
pub use share_vault::{ShareVault, VaultError};
