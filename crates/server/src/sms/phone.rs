//! Phone numbers in, E.164 out: what an SMS login stores and sends to.

use phonenumber::Mode;

/// Why a phone number was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PhoneError {
    /// Not a valid number with its `+` country code (libphonenumber's rules, which also refuse
    /// fictional ranges such as +1 555 01xx).
    #[error("not a valid phone number")]
    Invalid,
    /// A valid number in a region the app does not allow.
    #[error("phone numbers from this region are not allowed")]
    RegionNotAllowed,
}

/// Longest input looked at; E.164 numbers have at most 15 digits, so this leaves room for
/// spaces, dashes and brackets.
const MAX_INPUT: usize = 64;

/// Parses `raw` — with its `+` country code, in E.164 (`+12015550123`) or as the client
/// displays it (`+1 201 555 0123`, `+1 (201) 555-0123`) — and returns it in E.164.
///
/// `allowed_regions` holds ISO 3166 alpha-2 codes (`"US"`, `"GB"`); empty allows every region.
/// Numbers without a country code, with an extension, or invalid by libphonenumber's metadata
/// are [`PhoneError::Invalid`].
pub fn normalize_phone(raw: &str, allowed_regions: &[String]) -> Result<String, PhoneError> {
    let raw = raw.trim();
    // Digits and the usual separators only: libphonenumber would read letters as a keypad
    // ("1-800-FLOWERS"), which turns a typo into someone else's number.
    let plain = raw
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '+' | ' ' | '-' | '(' | ')' | '.'));
    if raw.len() > MAX_INPUT || !raw.starts_with('+') || !plain {
        return Err(PhoneError::Invalid);
    }
    let number = phonenumber::parse(None, raw).map_err(|_| PhoneError::Invalid)?;
    if number.extension().is_some() || !number.is_valid() {
        return Err(PhoneError::Invalid);
    }
    if !allowed_regions.is_empty() {
        let region = number.country().id().ok_or(PhoneError::RegionNotAllowed)?;
        let region: &str = region.as_ref();
        if !allowed_regions
            .iter()
            .any(|allowed| allowed.trim().eq_ignore_ascii_case(region))
        {
            return Err(PhoneError::RegionNotAllowed);
        }
    }
    Ok(number.format().mode(Mode::E164).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Numbers libphonenumber accepts, safe for tests and the local stack (docs/server.md,
    /// "SMS gateway").
    const VALID: &[(&str, &str)] = &[
        ("+12015550123", "+12015550123"),
        ("+1 201 555 0123", "+12015550123"),
        ("+1 (201) 555-0123", "+12015550123"),
        ("+44 7400 123456", "+447400123456"),
        ("+1 650 555 0100", "+16505550100"),
        ("+1 415 555 0123", "+14155550123"),
        ("+1 201 555 0100", "+12015550100"),
        ("+49 151 23456789", "+4915123456789"),
        ("+1 201 987 6543", "+12019876543"),
        ("+33 6 12 34 56 78", "+33612345678"),
        ("  +4915123456789 ", "+4915123456789"),
    ];

    #[test]
    fn valid_numbers_come_out_in_e164() {
        for (raw, e164) in VALID {
            assert_eq!(normalize_phone(raw, &[]).as_deref(), Ok(*e164), "{raw}");
        }
    }

    #[test]
    fn invalid_numbers_are_refused() {
        for raw in [
            "",
            "2015550123",
            "+",
            "+1",
            "+1 555 555 0100",
            "+44 7700 900123",
            "+1 201 555 0123 ext. 7",
            "+999 123 456",
            "+1 201 555 0123 4567 8901",
            "not a number",
            "+12015550123+12015550123+12015550123+12015550123+12015550123",
        ] {
            assert_eq!(normalize_phone(raw, &[]), Err(PhoneError::Invalid), "{raw}");
        }
    }

    #[test]
    fn regions_can_be_restricted() {
        let us = vec!["US".to_string()];
        assert_eq!(
            normalize_phone("+1 201 555 0123", &us).as_deref(),
            Ok("+12015550123")
        );
        assert_eq!(
            normalize_phone("+44 7400 123456", &us),
            Err(PhoneError::RegionNotAllowed)
        );
        let lower = vec!["gb".to_string(), "fr".to_string()];
        assert!(normalize_phone("+44 7400 123456", &lower).is_ok());
        assert!(normalize_phone("+33 6 12 34 56 78", &lower).is_ok());
    }
}
