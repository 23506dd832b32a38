//! How a wallet's recovery share comes back to a new device. Automatic recovery (`privy`) is the
//! only method so far ([`automatic`]): the server keeps the recovery share sealed and releases it
//! to a freshly signed-in session. A user-owned method (passcode, cloud backup) is one more module
//! here and one more arm in [`on_create`].

pub mod automatic;

use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::user::RecoveryMethod;

use crate::error::AppError;

/// The recovery method a new wallet asks for (none: automatic), if this server runs it.
pub fn on_create(requested: Option<RecoveryMethod>) -> Result<RecoveryMethod, AppError> {
    let recovery_method = requested.unwrap_or(RecoveryMethod::Privy);
    if recovery_method != RecoveryMethod::Privy {
        return Err(AppError::new(
            ServerErrorCode::DisallowedRecoveryMethod,
            format!(
                "Recovery method {} is not supported; use privy",
                recovery_method.as_str()
            ),
        ));
    }
    Ok(recovery_method)
}
