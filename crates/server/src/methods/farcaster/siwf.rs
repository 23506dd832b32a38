//! Sign In With Farcaster messages: SIWE (EIP-4361) messages that name the fid as the resource
//! `farcaster://fid/<fid>` and are signed (EIP-191) by the fid's custody address.
//!
//! Parsed by the `siwe` crate; these checks are the ones that need no network: domain, time,
//! resource and signer. The custody address is read from the ID registry by the caller.

use siwe::Message;
use symbolon_wallet_core::chains::ethereum::{Address, recover_personal_signer};
use symbolon_wallet_core::decode_hex;
use time::OffsetDateTime;

/// The longest message accepted (a real one is ~500 bytes).
pub const MAX_MESSAGE_LEN: usize = 4096;

/// Why a message was refused; the `Display` text is what the client sees.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SiwfError {
    /// Not an EIP-4361 message, or too long.
    #[error("Invalid Sign In With Farcaster message")]
    Malformed,
    /// The message names another site (EIP-4361: the domain must be the relying party's).
    #[error("The message was signed for another domain")]
    WrongDomain,
    /// Past its `Expiration Time`, or before its `Not Before`.
    #[error("The message has expired or is not valid yet")]
    Expired,
    /// No `farcaster://fid/<fid>` resource, or another fid than the request's.
    #[error("The message does not name this Farcaster id")]
    FidMismatch,
    /// The signature is malformed or was not made by the message's address.
    #[error("Invalid signature")]
    BadSignature,
}

/// A message whose offline checks passed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedMessage {
    /// The nonce it carries (still to be used up).
    pub nonce: String,
    /// The address that signed it (the message's address), to compare with the custody address.
    pub signer: Address,
}

/// Checks `message` signed by `signature` for `fid` at `now` (unix seconds) on `domain`.
pub fn check_message(
    message: &str,
    signature: &str,
    fid: u64,
    domain: &str,
    now: i64,
) -> Result<CheckedMessage, SiwfError> {
    if message.len() > MAX_MESSAGE_LEN {
        return Err(SiwfError::Malformed);
    }
    let parsed: Message = message.parse().map_err(|_| SiwfError::Malformed)?;
    if !parsed.domain.as_str().eq_ignore_ascii_case(domain) {
        return Err(SiwfError::WrongDomain);
    }
    let now = OffsetDateTime::from_unix_timestamp(now).map_err(|_| SiwfError::Expired)?;
    if !parsed.valid_at(&now) {
        return Err(SiwfError::Expired);
    }
    // FIP-11 (Sign In With Farcaster): the fid is the resource `farcaster://fid/<fid>`.
    let fids: Vec<&str> = parsed
        .resources
        .iter()
        .filter_map(|r| r.as_str().strip_prefix("farcaster://fid/"))
        .collect();
    if fids.len() != 1 || fids[0] != fid.to_string() {
        return Err(SiwfError::FidMismatch);
    }
    let signature = decode_hex(signature.trim()).map_err(|_| SiwfError::BadSignature)?;
    // The exact bytes received are what was signed (not a re-rendering of the parsed message).
    let signer = recover_personal_signer(message.as_bytes(), &signature)
        .map_err(|_| SiwfError::BadSignature)?;
    if signer.0 != parsed.address {
        return Err(SiwfError::BadSignature);
    }
    Ok(CheckedMessage {
        nonce: parsed.nonce,
        signer,
    })
}

#[cfg(test)]
mod tests {
    use symbolon_wallet_core::chains::ethereum::{PrivateKey, personal_sign};

    use super::*;

    const KEY: &str = "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356";
    // 2026-01-01T00:00:00Z
    const NOW: i64 = 1_767_225_600;

    fn message(address: &str, fid: &str, expires: &str) -> String {
        format!(
            "example.com wants you to sign in with your Ethereum account:\n{address}\n\n\
             Farcaster Auth\n\nURI: https://example.com/login\nVersion: 1\nChain ID: 10\n\
             Nonce: abcdefgh1234\nIssued At: 2025-12-31T23:59:00Z\nExpiration Time: {expires}\n\
             Resources:\n- farcaster://fid/{fid}"
        )
    }

    fn key() -> PrivateKey {
        PrivateKey::from_bytes(&decode_hex(KEY).expect("hex")).expect("key")
    }

    fn signed(fid: &str, expires: &str) -> (String, String) {
        let key = key();
        let address = key.address().to_checksum();
        let text = message(&address, fid, expires);
        let signature = personal_sign(&key, text.as_bytes()).expect("sign");
        (text, signature.to_hex())
    }

    #[test]
    fn accepts_a_signed_message_and_names_its_signer() {
        let (text, sig) = signed("1001", "2026-01-01T00:10:00Z");
        let checked = check_message(&text, &sig, 1001, "example.com", NOW).expect("accepted");
        assert_eq!(checked.nonce, "abcdefgh1234");
        assert_eq!(checked.signer, key().address());
    }

    #[test]
    fn refuses_domain_time_fid_and_signature_faults() {
        let (text, sig) = signed("1001", "2026-01-01T00:10:00Z");
        let check = |t: &str, s: &str, fid, domain, now| check_message(t, s, fid, domain, now);
        assert_eq!(
            check(&text, &sig, 1001, "evil.com", NOW),
            Err(SiwfError::WrongDomain)
        );
        assert_eq!(
            check(&text, &sig, 1001, "example.com", NOW + 3600),
            Err(SiwfError::Expired)
        );
        assert_eq!(
            check(&text, &sig, 1002, "example.com", NOW),
            Err(SiwfError::FidMismatch)
        );
        let tampered = text.replace("Farcaster Auth", "Farcaster auth");
        assert_eq!(
            check(&tampered, &sig, 1001, "example.com", NOW),
            Err(SiwfError::BadSignature)
        );
        assert_eq!(
            check("hello", &sig, 1001, "example.com", NOW),
            Err(SiwfError::Malformed)
        );
    }
}
