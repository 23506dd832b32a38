//! `0x`-prefixed hex encoding used at every text boundary.

use crate::{Result, WalletError};

/// Encodes bytes as lower-case hex with a `0x` prefix.
pub fn encode_hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(2 + bytes.len() * 2);
    out.push_str("0x");
    out.push_str(&::hex::encode(bytes));
    out
}

/// Decodes `0x`-prefixed hex (either case). `"0x"` is the empty byte string.
pub fn decode_hex(text: &str) -> Result<Vec<u8>> {
    let digits =
        strip_0x(text).ok_or_else(|| WalletError::InvalidHex("missing 0x prefix".into()))?;
    if digits.len() % 2 != 0 {
        return Err(WalletError::InvalidHex("odd number of hex digits".into()));
    }
    ::hex::decode(digits).map_err(|_| WalletError::InvalidHex("non-hex character".into()))
}

/// Returns the text after a `0x`/`0X` prefix, or `None` without one.
pub(crate) fn strip_0x(text: &str) -> Option<&str> {
    text.strip_prefix("0x").or_else(|| text.strip_prefix("0X"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_errors() {
        assert_eq!(encode_hex(&[0, 0xab]), "0x00ab");
        assert_eq!(decode_hex("0x00AB"), Ok(vec![0, 0xab]));
        assert_eq!(decode_hex("0x"), Ok(vec![]));
        assert!(decode_hex("00ab").is_err());
        assert!(decode_hex("0x0").is_err());
        assert!(decode_hex("0xzz").is_err());
    }
}
