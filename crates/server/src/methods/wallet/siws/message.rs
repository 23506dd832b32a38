//! Sign-In With Solana messages: the text the Wallet Standard's `solana:signIn` writes (the
//! EIP-4361 layout with "wants you to sign in with your Solana account:"), parsed strictly —
//! every line in its place, fields in the standard's order, none twice — and its ed25519
//! signature checked with `ed25519-dalek`.
//!
//! ```text
//! {domain} wants you to sign in with your Solana account:
//! {address}
//!
//! {statement}
//!
//! URI: {uri}
//! Version: 1
//! Chain ID: {chain id}
//! Nonce: {nonce}
//! Issued At: {RFC 3339}
//! Expiration Time: {RFC 3339}
//! Not Before: {RFC 3339}
//! Request ID: {id}
//! Resources:
//! - {uri}
//! ```

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use ed25519_dalek::{Signature, VerifyingKey};

use crate::error::AppError;
use crate::methods::wallet::{
    CommonFields, check_common, check_length, parse_rfc3339, solana_address,
};

const PREAMBLE: &str = " wants you to sign in with your Solana account:";
/// The advanced fields, in the order the standard writes them.
const TAGS: [&str; 8] = [
    "URI: ",
    "Version: ",
    "Chain ID: ",
    "Nonce: ",
    "Issued At: ",
    "Expiration Time: ",
    "Not Before: ",
    "Request ID: ",
];
const RESOURCES: &str = "Resources:";

/// A parsed SIWS message (text fields as written).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SiwsMessage {
    /// The requesting site's host.
    pub domain: String,
    /// The signer's base58 public key.
    pub address: String,
    /// The human-readable statement.
    pub statement: Option<String>,
    /// `URI`, `Version`, `Chain ID`, `Nonce`, `Issued At`, `Expiration Time`, `Not Before`,
    /// `Request ID`, in [`TAGS`] order.
    pub fields: [Option<String>; 8],
    /// `Resources` entries.
    pub resources: Vec<String>,
}

impl SiwsMessage {
    fn field(&self, index: usize) -> Option<&str> {
        self.fields[index].as_deref()
    }
}

/// Parses the message text; `None` when it is not a SIWS message.
pub fn parse_siws(text: &str) -> Option<SiwsMessage> {
    let mut lines = text.split('\n');
    let domain = lines.next()?.strip_suffix(PREAMBLE)?;
    if domain.is_empty() || domain.contains(char::is_whitespace) {
        return None;
    }
    let mut message = SiwsMessage {
        domain: domain.to_string(),
        address: lines.next()?.to_string(),
        ..SiwsMessage::default()
    };
    let rest: Vec<&str> = lines.collect();
    let mut i = 0;
    let is_field = |line: &str| line == RESOURCES || TAGS.iter().any(|t| line.starts_with(t));
    if !rest.is_empty() {
        // A blank line, then the statement (one line) and another blank line, or the fields.
        if !rest[0].is_empty() || rest.len() < 2 {
            return None;
        }
        i = 1;
        if !is_field(rest[1]) {
            if rest[1].is_empty() {
                return None;
            }
            message.statement = Some(rest[1].to_string());
            i = 2;
            if i < rest.len() {
                if !rest[i].is_empty() || i + 1 >= rest.len() {
                    return None;
                }
                i += 1;
            }
        }
    }
    let mut next_tag = 0;
    while i < rest.len() {
        let line = rest[i];
        i += 1;
        if line == RESOURCES {
            for resource in &rest[i..] {
                message
                    .resources
                    .push(resource.strip_prefix("- ")?.to_string());
            }
            break;
        }
        let found = TAGS[next_tag..].iter().position(|t| line.starts_with(t))? + next_tag;
        let value = &line[TAGS[found].len()..];
        if value.is_empty() {
            return None;
        }
        message.fields[found] = Some(value.to_string());
        next_tag = found + 1;
    }
    Some(message)
}

/// A message whose checks passed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedSiws {
    /// The signer's base58 address.
    pub address: String,
    /// The nonce it carries (still to be used up).
    pub nonce: String,
}

/// Checks `message` for the site `origin` (host `domain`) at `now`, and its `signature` (64
/// bytes, base64 or base58) by the message's address.
pub fn check_siws(
    message: &str,
    signature: &str,
    origin: &str,
    domain: &str,
    now: i64,
) -> Result<CheckedSiws, AppError> {
    check_length(message)?;
    let malformed = || AppError::invalid_data("Invalid Sign-In With Solana message");
    let parsed = parse_siws(message).ok_or_else(malformed)?;
    let key = solana_address(&parsed.address).ok_or_else(malformed)?;
    let time = |index: usize| -> Result<Option<i64>, AppError> {
        parsed
            .field(index)
            .map(|t| parse_rfc3339(t).ok_or_else(malformed))
            .transpose()
    };
    if parsed.field(1) != Some("1") {
        return Err(malformed());
    }
    // The published vanilla client states `You are proving you own {address}.`: the same consent,
    // bound to the signer, so it stands for the fixed statement.
    let vanilla = format!("You are proving you own {}.", parsed.address);
    let statement = match parsed.statement.as_deref() {
        Some(s) if s == vanilla => Some(symbolon_protocol::constants::SIWE_STATEMENT),
        other => other,
    };
    let fields = CommonFields {
        domain: &parsed.domain,
        uri: parsed.field(0).ok_or_else(malformed)?,
        statement,
        issued_at: time(4)?.ok_or_else(malformed)?,
        expires_at: time(5)?,
        not_before: time(6)?,
    };
    let nonce = parsed.field(3).ok_or_else(malformed)?;
    check_common(&fields, origin, domain, now)?;
    let signature = decode_signature(signature)
        .ok_or_else(|| AppError::invalid_data("signature must be 64 bytes, base64 or base58"))?;
    let valid = VerifyingKey::from_bytes(&key)
        .is_ok_and(|key| key.verify_strict(message.as_bytes(), &signature).is_ok());
    if !valid {
        return Err(AppError::new(
            symbolon_protocol::ServerErrorCode::InvalidCredentials,
            "Invalid signature",
        ));
    }
    Ok(CheckedSiws {
        address: parsed.address.clone(),
        nonce: nonce.to_string(),
    })
}

/// A 64-byte signature in base64 (what Privy-style clients send) or base58 (Solana's usual text).
fn decode_signature(text: &str) -> Option<Signature> {
    let text = text.trim();
    let bytes = STANDARD
        .decode(text)
        .ok()
        .filter(|b| b.len() == 64)
        .or_else(|| bs58::decode(text).into_vec().ok())?;
    let bytes: [u8; 64] = bytes.try_into().ok()?;
    Some(Signature::from_bytes(&bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FULL: &str = "example.com wants you to sign in with your Solana account:\n\
        9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM\n\nSign in please\n\n\
        URI: https://example.com\nVersion: 1\nChain ID: mainnet\nNonce: abcdefgh\n\
        Issued At: 2026-01-01T00:00:00Z\nResources:\n- https://example.com/a";

    #[test]
    fn parses_the_standard_layout() {
        let parsed = parse_siws(FULL).expect("parsed");
        assert_eq!(parsed.domain, "example.com");
        assert_eq!(parsed.statement.as_deref(), Some("Sign in please"));
        assert_eq!(parsed.field(2), Some("mainnet"));
        assert_eq!(parsed.field(3), Some("abcdefgh"));
        assert_eq!(parsed.resources, vec!["https://example.com/a"]);
        // Without a statement, and with no fields at all.
        let bare =
            "a.com wants you to sign in with your Solana account:\nABC\n\nURI: https://a.com";
        assert_eq!(parse_siws(bare).map(|m| m.statement), Some(None));
        let minimal = "a.com wants you to sign in with your Solana account:\nABC";
        assert!(parse_siws(minimal).is_some());
    }

    #[test]
    fn refuses_what_is_out_of_place() {
        let refused = |text: &str| parse_siws(text).is_none();
        assert!(refused(&FULL.replace("Solana", "Ethereum")));
        assert!(refused(&FULL.replace(
            "Version: 1\nChain ID: mainnet",
            "Chain ID: mainnet\nVersion: 1"
        )));
        assert!(refused(
            &FULL.replace("Nonce: abcdefgh", "Nonce: abcdefgh\nNonce: again")
        ));
        assert!(refused(&FULL.replace("\n\nURI", "\nURI")));
        assert!(refused(&FULL.replace("- https", "* https")));
        assert!(refused(&FULL.replace("Version: 1", "Colour: blue")));
        assert!(refused(""));
    }
}
