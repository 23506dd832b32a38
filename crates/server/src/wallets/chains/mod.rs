//! What differs per chain. Only Ethereum wallets exist so far; a Solana wallet is one more module
//! here and one more arm in [`supported_chain`].

pub mod ethereum;

use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::user::ChainType;

use crate::error::{AppError, Status};

/// The chain, if this server keeps embedded wallets on it.
pub fn supported_chain(chain: ChainType) -> Result<ChainType, AppError> {
    match chain {
        ChainType::Ethereum => Ok(chain),
        ChainType::Solana => Err(AppError::new(
            ServerErrorCode::NotSupported,
            "Solana embedded wallets are not supported yet",
        )
        .with_status(Status::BadRequest)),
    }
}
