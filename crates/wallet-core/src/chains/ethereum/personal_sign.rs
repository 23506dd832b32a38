//! EIP-191 version 0x45 (`personal_sign`) messages.

use super::keccak::keccak256_parts;
use super::{Address, B256, PrivateKey, Signature, recover_address};
use crate::{Result, WalletError, decode_hex};

/// How a `personal_sign` message string is to be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageEncoding {
    /// The message is text; its UTF-8 bytes are signed.
    Utf8,
    /// The message is `0x`-prefixed hex; the decoded bytes are signed.
    Hex,
}

impl MessageEncoding {
    /// Parses the wire names `"utf-8"`/`"utf8"` and `"hex"`.
    pub fn parse(name: &str) -> Result<Self> {
        match name {
            "utf-8" | "utf8" => Ok(Self::Utf8),
            "hex" => Ok(Self::Hex),
            other => Err(WalletError::InvalidMessage(
                ["unknown encoding \"", other, "\""].concat(),
            )),
        }
    }
}

/// The bytes of a message given as text in `encoding`.
pub fn parse_message(message: &str, encoding: MessageEncoding) -> Result<Vec<u8>> {
    match encoding {
        MessageEncoding::Utf8 => Ok(message.as_bytes().to_vec()),
        MessageEncoding::Hex => {
            decode_hex(message).map_err(|e| WalletError::InvalidMessage(e.to_string()))
        }
    }
}

/// EIP-191: `keccak256("\x19Ethereum Signed Message:\n" || len(message) || message)`.
pub fn personal_sign_hash(message: &[u8]) -> B256 {
    let length = message.len().to_string();
    keccak256_parts(&[
        b"\x19Ethereum Signed Message:\n",
        length.as_bytes(),
        message,
    ])
}

/// Signs `message` as `personal_sign` does.
pub fn personal_sign(key: &PrivateKey, message: &[u8]) -> Result<Signature> {
    key.sign_hash(&personal_sign_hash(message))
}

/// The address that signed `message` with `personal_sign` (`ecrecover` of the EIP-191 hash);
/// `signature` is the 65-byte `r || s || v`. A wrong signature recovers some other address
/// (or none), so callers compare the result with the address they expect.
pub fn recover_personal_signer(message: &[u8], signature: &[u8]) -> Result<Address> {
    let signature = Signature::from_bytes(signature)?;
    recover_address(&personal_sign_hash(message), &signature)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode_hex;

    /// Hardhat/Anvil default account 0 (mnemonic "test test … junk", m/44'/60'/0'/0/0).
    const ANVIL_KEY: &str = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

    #[test]
    fn hash_matches_known_value() {
        // keccak256("\x19Ethereum Signed Message:\n11hello world"), as in ethers' `hashMessage`.
        assert_eq!(
            encode_hex(&personal_sign_hash(b"hello world")),
            "0xd9eba16ed0ecae432b71fe008c98cc872bb4cc214d3220a36f365326cf807d68"
        );
    }

    #[test]
    fn known_signature() {
        let key = PrivateKey::from_bytes(&decode_hex(ANVIL_KEY).unwrap()).unwrap();
        assert_eq!(
            key.address().to_checksum(),
            "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
        );
        // viem's `signMessage({ message: 'hello world', privateKey })` test vector.
        let signature = personal_sign(&key, b"hello world").unwrap();
        assert_eq!(
            signature.to_hex(),
            "0xa461f509887bd19e312c0c58467ce8ff8e300d3c1a90b608a760c5b80318eaf15fe57c96f9175d6cd4daad4663763baa7e78836e067d0163e9a2ccf2ff753f5b1b"
        );
        let hex = parse_message("0x68656c6c6f20776f726c64", MessageEncoding::Hex).unwrap();
        assert_eq!(personal_sign(&key, &hex).unwrap(), signature);
        let hash = personal_sign_hash(b"hello world");
        assert_eq!(recover_address(&hash, &signature).unwrap(), key.address());
    }

    #[test]
    fn recovers_the_signer_of_a_known_vector() {
        // viem's `signMessage({ message: 'hello world' })` by Anvil account 0, as bytes.
        let signature = decode_hex("0xa461f509887bd19e312c0c58467ce8ff8e300d3c1a90b608a760c5b80318eaf15fe57c96f9175d6cd4daad4663763baa7e78836e067d0163e9a2ccf2ff753f5b1b").unwrap();
        assert_eq!(
            recover_personal_signer(b"hello world", &signature)
                .unwrap()
                .to_checksum(),
            "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
        );
        // Another message under the same signature is some other signer, never account 0.
        let other = recover_personal_signer(b"hello world!", &signature);
        assert!(other.map_or(true, |a| a.to_checksum()
            != "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"));
        assert!(recover_personal_signer(b"hello world", &signature[..64]).is_err());
    }

    #[test]
    fn rejects_bad_input() {
        assert!(parse_message("hello", MessageEncoding::Hex).is_err());
        assert!(parse_message("0x123", MessageEncoding::Hex).is_err());
        assert!(MessageEncoding::parse("base64").is_err());
        assert_eq!(
            parse_message("hé", MessageEncoding::Utf8).unwrap(),
            "hé".as_bytes()
        );
    }
}
