//! EIP-4361 (Sign-In With Ethereum) messages, parsed by the `siwe` crate and checked against
//! the request: domain and URI of the calling site, the fixed statement, chain id, times. The
//! nonce and signature are checked by the caller.

use siwe::Message;
use symbolon_wallet_core::chains::ethereum::Address;

use crate::error::AppError;
use crate::methods::wallet::{CommonFields, check_common, check_length};

/// A message whose offline checks passed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedSiwe {
    /// The address that claims to have signed it.
    pub address: Address,
    /// Its EIP-155 chain id (contract wallets are resolved on this chain).
    pub chain_id: u64,
    /// The nonce it carries (still to be used up).
    pub nonce: String,
}

/// Parses a request's `chainId`: `eip155:<id>` (CAIP-2) or the bare decimal id.
pub fn parse_chain_id(text: &str) -> Option<u64> {
    let text = text.trim();
    text.strip_prefix("eip155:").unwrap_or(text).parse().ok()
}

/// Checks `message` for the site `origin` (host `domain`) at `now`; `chain_id` is the request's
/// `chainId`, which must be the message's when given.
pub fn check_siwe(
    message: &str,
    origin: &str,
    domain: &str,
    chain_id: Option<&str>,
    now: i64,
) -> Result<CheckedSiwe, AppError> {
    check_length(message)?;
    let parsed: Message = message
        .parse()
        .map_err(|_| AppError::invalid_data("Invalid Sign-In With Ethereum message"))?;
    let unix = |t: &time::OffsetDateTime| t.unix_timestamp();
    let fields = CommonFields {
        domain: parsed.domain.as_str(),
        uri: parsed.uri.as_str(),
        statement: parsed.statement.as_deref(),
        issued_at: unix(parsed.issued_at.as_ref()),
        expires_at: parsed.expiration_time.as_ref().map(|t| unix(t.as_ref())),
        not_before: parsed.not_before.as_ref().map(|t| unix(t.as_ref())),
    };
    check_common(&fields, origin, domain, now)?;
    if let Some(requested) = chain_id {
        let requested = parse_chain_id(requested)
            .ok_or_else(|| AppError::invalid_data("chainId must be eip155:<id>"))?;
        if requested != parsed.chain_id {
            return Err(AppError::invalid_data(
                "The message is for another chain than chainId",
            ));
        }
    }
    Ok(CheckedSiwe {
        address: Address(parsed.address),
        chain_id: parsed.chain_id,
        nonce: parsed.nonce,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use symbolon_protocol::constants::SIWE_STATEMENT;

    const ORIGIN: &str = "https://example.com";
    // 2026-01-01T00:00:00Z
    const NOW: i64 = 1_767_225_600;

    fn message(domain: &str, statement: &str, chain: u64, issued: &str) -> String {
        format!(
            "{domain} wants you to sign in with your Ethereum account:\n\
             0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\n\n{statement}\n\n\
             URI: https://example.com\nVersion: 1\nChain ID: {chain}\nNonce: abcdefgh1234\n\
             Issued At: {issued}"
        )
    }

    #[test]
    fn accepts_a_message_for_this_site_and_chain() {
        let text = message("example.com", SIWE_STATEMENT, 1, "2025-12-31T23:59:00Z");
        let checked = check_siwe(&text, ORIGIN, "example.com", Some("eip155:1"), NOW);
        assert_eq!(
            checked.map(|c| (c.chain_id, c.nonce)).ok(),
            Some((1, "abcdefgh1234".into()))
        );
    }

    #[test]
    fn refuses_domain_statement_chain_time_and_garbage() {
        let ok = "2025-12-31T23:59:00Z";
        let refused = |text: &str, chain: Option<&str>| {
            check_siwe(text, ORIGIN, "example.com", chain, NOW).is_err()
        };
        assert!(refused(&message("evil.com", SIWE_STATEMENT, 1, ok), None));
        assert!(refused(
            &message("example.com", "Sign in please", 1, ok),
            None
        ));
        assert!(refused(
            &message("example.com", SIWE_STATEMENT, 1, ok),
            Some("eip155:5")
        ));
        assert!(refused(
            &message("example.com", SIWE_STATEMENT, 1, ok),
            Some("five")
        ));
        assert!(refused(
            &message("example.com", SIWE_STATEMENT, 1, "2026-01-01T01:00:00Z"),
            None
        ));
        assert!(refused(
            &message("example.com", SIWE_STATEMENT, 1, "2025-01-01T00:00:00Z"),
            None
        ));
        assert!(refused("hello", None));
        assert!(!refused(
            &message("example.com", SIWE_STATEMENT, 1, ok),
            Some("1")
        ));
    }
}
