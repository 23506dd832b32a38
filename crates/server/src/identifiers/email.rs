//! Email address normalisation and validation for code login.

use email_address::{EmailAddress, Options};
use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};

use crate::error::AppError;

/// Trims and lower-cases `raw`, writes its domain in ASCII (IDNA, UTS 46: `bücher.de` and
/// `xn--bcher-kva.de` are one mailbox), then checks it is a plain `local@domain.tld` address that
/// the mailer can also send to (its parser refuses some RFC 5322 forms, such as quoted local parts,
/// that the first check allows): a code is never stored for an address no mail can reach.
///
/// A local part with characters outside ASCII is refused (`invalid_data`): delivering to it needs
/// SMTPUTF8 end to end, which we do not support.
pub fn normalize_email(raw: &str) -> Result<String, AppError> {
    let trimmed = raw.trim();
    let (local, domain) = trimmed.rsplit_once('@').unwrap_or((trimmed, ""));
    if !local.is_ascii() {
        return Err(AppError::invalid_data(NON_ASCII_LOCAL_PART));
    }
    let invalid = || AppError::invalid_data("Invalid email address");
    let domain = if domain.is_ascii() {
        domain.to_ascii_lowercase()
    } else {
        Uts46::new()
            .to_ascii(
                domain.as_bytes(),
                AsciiDenyList::STD3,
                Hyphens::Check,
                DnsLength::Verify,
            )
            .map_err(|_| invalid())?
            .into_owned()
    };
    let email = format!("{}@{domain}", local.to_ascii_lowercase());
    let options = Options::default()
        .with_required_tld()
        .without_display_text()
        .without_domain_literal();
    if !trimmed.contains('@')
        || email.len() > 254
        || EmailAddress::parse_with_options(&email, options).is_err()
        || !mailer_accepts(&email)
    {
        return Err(invalid());
    }
    Ok(email)
}

/// The refusal of an address whose local part is not ASCII.
pub const NON_ASCII_LOCAL_PART: &str =
    "Email addresses with characters other than ASCII before the @ are not supported";

/// Whether the mailer parses `email` as this very address (it reads the recipient as a mailbox,
/// where `"a b"@example.com` is not an address).
fn mailer_accepts(email: &str) -> bool {
    email
        .parse::<lettre::message::Mailbox>()
        .is_ok_and(|mailbox| {
            mailbox.name.is_none() && AsRef::<str>::as_ref(&mailbox.email) == email
        })
}

/// Whether the local part carries a `+tag`.
pub fn is_plus_address(email: &str) -> bool {
    email
        .split_once('@')
        .is_some_and(|(local, _)| local.contains('+'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_and_validates() {
        assert_eq!(
            normalize_email("  Ada@Example.COM ").ok().as_deref(),
            Some("ada@example.com")
        );
        for bad in [
            "",
            "ada",
            "ada@",
            "@example.com",
            "ada@example",
            "Ada <ada@example.com>",
            "a b@example.com",
            "\"a b\"@example.com",
            "\"ada\"@example.com",
            "ada@bü cher.de",
        ] {
            assert!(normalize_email(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn idn_domains_are_written_in_ascii() {
        for form in [
            "ada@bücher.de",
            "Ada@BÜCHER.de",
            "ada@xn--bcher-kva.de",
            "ada@XN--BCHER-KVA.DE",
        ] {
            assert_eq!(
                normalize_email(form).ok().as_deref(),
                Some("ada@xn--bcher-kva.de"),
                "{form}"
            );
        }
        let refused = normalize_email("jörg@example.com").expect_err("refused");
        assert_eq!(refused.message, NON_ASCII_LOCAL_PART);
    }

    #[test]
    fn detects_plus_addresses() {
        assert!(is_plus_address("ada+news@example.com"));
        assert!(!is_plus_address("ada@ex+ample.com"));
    }
}
