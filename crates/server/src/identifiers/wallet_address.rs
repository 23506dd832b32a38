//! Wallet addresses as the server stores and compares them: Ethereum checksummed (accepted in
//! any case), Solana base58 as written.

use symbolon_wallet_core::chains::ethereum::Address;

/// An Ethereum address in any case (a wallet may hand it lower-case, checksummed or upper-case).
pub fn ethereum_address(text: &str) -> Option<Address> {
    let text = text.trim();
    let digits = text.strip_prefix("0x").or(text.strip_prefix("0X"))?;
    Address::parse(&format!("0x{}", digits.to_ascii_lowercase())).ok()
}

/// A Solana address: base58 of a 32-byte ed25519 public key, kept as written (base58 is
/// case-sensitive, so this is the only form).
pub fn solana_address(text: &str) -> Option<[u8; 32]> {
    let bytes = bs58::decode(text.trim()).into_vec().ok()?;
    bytes.try_into().ok()
}

/// A Solana address as stored (trimmed), when it is one.
pub fn normalize_solana(text: &str) -> Option<String> {
    solana_address(text).map(|_| text.trim().to_string())
}

/// A wallet address as the server stores and compares it: Ethereum checksummed, Solana as is.
pub fn normalize_wallet_address(text: &str) -> Option<String> {
    if let Some(address) = ethereum_address(text) {
        return Some(address.to_checksum());
    }
    normalize_solana(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_normalise_as_stored() {
        assert_eq!(
            normalize_wallet_address("0XF39FD6E51AAD88F6F4CE6AB8827279CFFFB92266").as_deref(),
            Some("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")
        );
        let solana = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
        assert_eq!(normalize_wallet_address(solana).as_deref(), Some(solana));
        assert_eq!(normalize_wallet_address("0x12"), None);
        assert_eq!(normalize_wallet_address("not-an-address"), None);
        // 0, O, I and l are not base58.
        assert_eq!(solana_address("0OIl"), None);
    }
}
