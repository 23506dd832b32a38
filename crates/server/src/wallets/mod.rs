//! Embedded-wallet secrets on the server: the two share keys, the share envelopes and the
//! signed proofs of the frame's calls.

pub mod proofs;
pub mod share_keys;
pub mod share_vault;

pub use share_keys::ShareKeyError;
pub use share_vault::{ShareVault, VaultError};
