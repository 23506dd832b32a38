//! Email address normalisation and validation for code login.

use email_address::{EmailAddress, Options};

use crate::http::error::AppError;

/// Trims and lower-cases `raw`, then checks it is a plain `local@domain.tld` address that the
/// mailer can also send to (its parser refuses some RFC 5322 forms, such as quoted local parts,
/// that the first check allows): a code is never stored for an address no mail can reach.
pub fn normalize_email(raw: &str) -> Result<String, AppError> {
    let email = raw.trim().to_lowercase();
    let options = Options::default()
        .with_required_tld()
        .without_display_text()
        .without_domain_literal();
    if email.len() > 254
        || EmailAddress::parse_with_options(&email, options).is_err()
        || !mailer_accepts(&email)
    {
        return Err(AppError::invalid_data("Invalid email address"));
    }
    Ok(email)
}

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
        ] {
            assert!(normalize_email(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn detects_plus_addresses() {
        assert!(is_plus_address("ada+news@example.com"));
        assert!(!is_plus_address("ada@ex+ample.com"));
    }
}
