//! Ethereum wallets: addresses.

use symbolon_wallet_core::chains::ethereum::Address;

use crate::error::AppError;

/// `0x` + 40 hex characters (a mixed-case address must carry a valid EIP-55 checksum).
pub fn parse_address(text: &str) -> Result<Address, AppError> {
    Address::parse(text.trim())
        .map_err(|e| AppError::invalid_data(format!("Invalid wallet address: {e}")))
}
