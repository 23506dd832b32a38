//! Ethereum addresses: strict parsing and EIP-55 checksummed output.

use core::fmt;
use core::str::FromStr;

use super::keccak::keccak256;
use crate::hex::strip_0x;
use crate::{Result, WalletError};

/// A 20-byte Ethereum address.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Address(pub [u8; 20]);

impl Address {
    /// Parses `0x` + 40 hex characters. All-lower or all-upper case is accepted as is;
    /// mixed case must carry a valid EIP-55 checksum.
    pub fn parse(text: &str) -> Result<Self> {
        let digits = strip_0x(text).ok_or_else(|| {
            WalletError::InvalidAddress(["\"", text, "\" lacks the 0x prefix"].concat())
        })?;
        if digits.len() != 40 {
            return Err(WalletError::InvalidAddress(
                [
                    "\"",
                    text,
                    "\" has ",
                    &digits.len().to_string(),
                    " hex characters, expected 40",
                ]
                .concat(),
            ));
        }
        let mut bytes = [0u8; 20];
        ::hex::decode_to_slice(digits, &mut bytes)
            .map_err(|_| WalletError::InvalidAddress(["\"", text, "\" is not hex"].concat()))?;
        let address = Self(bytes);
        let has_lower = digits.bytes().any(|b| b.is_ascii_lowercase());
        let has_upper = digits.bytes().any(|b| b.is_ascii_uppercase());
        // EIP-55: a mixed-case address is a checksummed one and must verify.
        if has_lower && has_upper && address.to_checksum().strip_prefix("0x") != Some(digits) {
            return Err(WalletError::AddressChecksum(text.to_owned()));
        }
        Ok(address)
    }

    /// The address of an uncompressed SEC1 public key (`0x04 || x || y`).
    pub(crate) fn from_uncompressed_point(point: &[u8]) -> Result<Self> {
        let xy = point
            .strip_prefix(&[0x04])
            .filter(|xy| xy.len() == 64)
            .ok_or(WalletError::InvalidPrivateKey)?;
        let hash = keccak256(xy);
        let mut bytes = [0u8; 20];
        bytes.copy_from_slice(&hash[12..]);
        Ok(Self(bytes))
    }

    /// EIP-55 mixed-case checksum encoding with `0x` prefix.
    pub fn to_checksum(&self) -> String {
        let lower = ::hex::encode(self.0);
        let hash = keccak256(lower.as_bytes());
        let mut out = String::with_capacity(42);
        out.push_str("0x");
        for (i, c) in lower.chars().enumerate() {
            let nibble = (hash[i / 2] >> if i % 2 == 0 { 4 } else { 0 }) & 0x0f;
            out.push(if nibble >= 8 {
                c.to_ascii_uppercase()
            } else {
                c
            });
        }
        out
    }
}

impl FromStr for Address {
    type Err = WalletError;

    fn from_str(text: &str) -> Result<Self> {
        Self::parse(text)
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_checksum())
    }
}

impl fmt::Debug for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_checksum())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The examples listed in EIP-55 ("all caps", "all lower", "normal").
    const EIP55: [&str; 8] = [
        "0x52908400098527886E0F7030069857D2E4169EE7",
        "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
        "0xde709f2102306220921060314715629080e2fb77",
        "0x27b1fdb04752bbc536007a920d24acb045561c26",
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
        "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
        "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
    ];

    #[test]
    fn eip55_examples_round_trip() {
        for text in EIP55 {
            let address = Address::parse(text).unwrap();
            // Every example (including the all-caps and all-lower ones) is its own checksum form.
            assert_eq!(address.to_checksum(), text);
            assert_eq!(Address::parse(&text.to_ascii_lowercase()).unwrap(), address);
        }
    }

    #[test]
    fn rejects_malformed() {
        assert!(Address::parse("52908400098527886E0F7030069857D2E4169EE7").is_err());
        assert!(Address::parse("0x52908400098527886E0F7030069857D2E4169EE").is_err());
        assert!(Address::parse("0x52908400098527886E0F7030069857D2E4169EE77").is_err());
        assert!(Address::parse("0xg2908400098527886e0f7030069857d2e4169ee7").is_err());
        // Flip the case of one letter of a checksummed address.
        assert_eq!(
            Address::parse("0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed").map_err(|e| e.code()),
            Err("invalid_address_checksum")
        );
    }
}
