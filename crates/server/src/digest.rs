//! SHA-256 in lower-case hex: the stored form of every secret the server only needs to recognise
//! (refresh tokens, challenge and transfer nonces, guest credentials).

use sha2::{Digest, Sha256};

/// Lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}
