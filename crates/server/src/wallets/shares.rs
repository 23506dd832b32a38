//! The root shares as requests carry them (base64) and as they are stored (sealed, `crate::keys`).

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use symbolon_wallet_core::chains::ethereum::Address;
use symbolon_wallet_core::{Share, ShareKind};

use super::proofs::parse_device_public_key;
use crate::db::wallets::RootShareEnvelopes;
use crate::error::AppError;
use crate::keys::{ShareVault, VaultError};

/// The device public key of a request that registers shares (base64 uncompressed P-256 point,
/// returned trimmed as it is stored and signed).
pub fn required_device_key(text: Option<&str>) -> Result<String, AppError> {
    let text = text
        .map(str::trim)
        .ok_or_else(|| AppError::invalid_data("device_public_key is required with shares"))?;
    if parse_device_public_key(text).is_none() {
        return Err(AppError::invalid_data(
            "device_public_key must be base64 of an uncompressed P-256 public key",
        ));
    }
    Ok(text.to_string())
}

/// A base64 share of `kind` from the request field `field`.
pub fn parse_share(text: &str, field: &str, kind: ShareKind) -> Result<Share, AppError> {
    let bytes = STANDARD
        .decode(text.trim())
        .map_err(|_| AppError::invalid_data(format!("{field} is not valid base64")))?;
    let share = Share::from_bytes(&bytes).map_err(|_| {
        AppError::invalid_data(format!(
            "{field} must be a 17-byte share (identifier and 16 bytes)"
        ))
    })?;
    if share.kind() != kind {
        return Err(AppError::invalid_data(format!(
            "{field} is a {} share, expected the {} share",
            share.kind().name(),
            kind.name()
        )));
    }
    Ok(share)
}

/// The share in `field`, which index 0 must send.
pub fn required_share(text: Option<&str>, field: &str, kind: ShareKind) -> Result<Share, AppError> {
    let text = text
        .ok_or_else(|| AppError::invalid_data(format!("{field} is required for wallet index 0")))?;
    parse_share(text, field, kind)
}

/// Both shares sealed for storage, bound to the root address and the user.
pub fn seal_pair(
    vault: &ShareVault,
    auth: &Share,
    recovery: &Share,
    root: Address,
    user_id: &str,
    device_public_key: Option<String>,
) -> Result<RootShareEnvelopes, AppError> {
    let seal = |share: &Share| -> Result<String, AppError> {
        vault
            .seal(share, root, user_id)
            .map_err(|e: VaultError| AppError::internal(&e))
    };
    Ok(RootShareEnvelopes {
        auth: seal(auth)?,
        recovery: seal(recovery)?,
        device_public_key,
    })
}
