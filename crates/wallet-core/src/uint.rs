//! Integers from JSON (numbers, decimal strings, `0x` hex strings) as 256-bit big-endian words.

use crate::hex::strip_0x;
use crate::json::Json;
use crate::{B256, Result, WalletError};

/// A parsed integer: sign and 256-bit magnitude.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Int {
    pub negative: bool,
    pub magnitude: B256,
}

impl Int {
    /// Number of significant bits of the magnitude.
    fn bit_len(&self) -> u32 {
        for (i, byte) in self.magnitude.iter().enumerate() {
            if *byte != 0 {
                return (32 - i as u32) * 8 - byte.leading_zeros();
            }
        }
        0
    }

    /// Whether the magnitude is exactly 2^(bits).
    fn is_power_of_two(&self, bits: u32) -> bool {
        self.bit_len() == bits + 1
            && self.magnitude.iter().map(|b| b.count_ones()).sum::<u32>() == 1
    }

    /// ABI encoding as `uint{bits}`: must be non-negative and below 2^bits.
    pub fn to_uint_word(self, bits: u32, what: &str) -> Result<B256> {
        if self.negative || self.bit_len() > bits {
            return Err(WalletError::NumberOutOfRange(format!(
                "{what} does not fit uint{bits}"
            )));
        }
        Ok(self.magnitude)
    }

    /// ABI encoding as `int{bits}` (two's complement, sign-extended to 256 bits).
    pub fn to_int_word(self, bits: u32, what: &str) -> Result<B256> {
        let limit = bits - 1;
        let fits = if self.negative {
            self.bit_len() <= limit || self.is_power_of_two(limit)
        } else {
            self.bit_len() <= limit
        };
        if !fits {
            return Err(WalletError::NumberOutOfRange(format!(
                "{what} does not fit int{bits}"
            )));
        }
        if !self.negative {
            return Ok(self.magnitude);
        }
        // Two's complement: invert and add one.
        let mut word = self.magnitude.map(|b| !b);
        for byte in word.iter_mut().rev() {
            let (sum, carry) = byte.overflowing_add(1);
            *byte = sum;
            if !carry {
                break;
            }
        }
        Ok(word)
    }

    /// The value as `u64`, for nonces, gas limits and chain ids.
    pub fn to_u64(self, what: &str) -> Result<u64> {
        if self.negative || self.bit_len() > 64 {
            return Err(WalletError::NumberOutOfRange(format!(
                "{what} does not fit 64 bits"
            )));
        }
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&self.magnitude[24..]);
        Ok(u64::from_be_bytes(bytes))
    }
}

/// Parses an integer from a JSON number or string. Rejects NaN, ±Infinity, fractions and
/// anything else with an error naming `what`. JSON numbers are read exactly from their text
/// (`1e18` and `1.0` are integers; `1.5` is not).
pub(crate) fn parse_int(value: &Json, what: &str) -> Result<Int> {
    match value {
        Json::Number(text) => parse_number_text(text, what),
        Json::String(text) => parse_int_str(text, what),
        Json::Null => Err(WalletError::InvalidNumber(format!("{what} is null"))),
        _ => Err(WalletError::InvalidNumber(format!(
            "{what} must be a number or a string"
        ))),
    }
}

/// An already grammar-checked JSON number text → exact integer.
fn parse_number_text(text: &str, what: &str) -> Result<Int> {
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], &unsigned[at + 1..]),
        None => (unsigned, "0"),
    };
    let exponent: i32 = exponent
        .trim_start_matches('+')
        .parse()
        .ok()
        .filter(|e: &i32| e.abs() <= 100)
        .ok_or_else(|| WalletError::NumberOutOfRange(format!("{what} exponent out of range")))?;
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{int_part}{frac_part}");
    // Position of the decimal point within `digits` after applying the exponent.
    let point = int_part.len() as i64 + i64::from(exponent);
    let split = point.clamp(0, digits.len() as i64) as usize;
    if digits[split..].bytes().any(|d| d != b'0') {
        return Err(WalletError::InvalidNumber(format!(
            "{what} is not an integer"
        )));
    }
    let zeros = (point - split as i64).max(0) as usize;
    let integer = format!("{}{}", &digits[..split], "0".repeat(zeros));
    let mut int = parse_decimal(if integer.is_empty() { "0" } else { &integer }, what)?;
    int.negative = negative && int.magnitude.iter().any(|b| *b != 0);
    Ok(int)
}

/// Parses `[-]digits` or `[-]0x hex`.
pub(crate) fn parse_int_str(text: &str, what: &str) -> Result<Int> {
    let lowered = text.trim_start_matches(['+', '-']).to_ascii_lowercase();
    if lowered == "nan" || lowered == "infinity" || lowered == "inf" {
        return Err(WalletError::NonFiniteNumber(what.to_owned()));
    }
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let bad = || WalletError::InvalidNumber(format!("{what}: \"{text}\" is not an integer"));
    let mut int = if let Some(digits) = strip_0x(body) {
        if digits.is_empty() || digits.len() > 64 || !digits.bytes().all(|b| b.is_ascii_hexdigit())
        {
            return Err(bad());
        }
        let mut magnitude = [0u8; 32];
        ::hex::decode_to_slice(format!("{digits:0>64}"), &mut magnitude).map_err(|_| bad())?;
        Int {
            negative: false,
            magnitude,
        }
    } else {
        if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        parse_decimal(body, what)?
    };
    int.negative = negative && int.magnitude.iter().any(|b| *b != 0);
    Ok(int)
}

/// ASCII decimal digits → 256-bit magnitude, failing on overflow.
fn parse_decimal(digits: &str, what: &str) -> Result<Int> {
    let mut magnitude = [0u8; 32];
    for digit in digits.bytes() {
        // magnitude = magnitude * 10 + digit
        let mut carry = u32::from(digit - b'0');
        for byte in magnitude.iter_mut().rev() {
            let v = u32::from(*byte) * 10 + carry;
            *byte = (v & 0xff) as u8;
            carry = v >> 8;
        }
        if carry != 0 {
            return Err(WalletError::NumberOutOfRange(format!(
                "{what} exceeds 256 bits"
            )));
        }
    }
    Ok(Int {
        negative: false,
        magnitude,
    })
}

/// The minimal big-endian bytes of a word (empty for zero), the RLP integer form.
pub(crate) fn trim_word(word: &B256) -> &[u8] {
    let first = word.iter().position(|b| *b != 0).unwrap_or(word.len());
    &word[first..]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn parse(value: &Value) -> Result<Int> {
        parse_int(&Json::parse(&value.to_string())?, "x")
    }

    fn word(value: Value) -> Result<B256> {
        parse(&value)?.to_uint_word(256, "x")
    }

    #[test]
    fn parses_forms() {
        let one = word(json!(1)).unwrap();
        assert_eq!(one[31], 1);
        assert_eq!(word(json!("1")).unwrap(), one);
        assert_eq!(word(json!("0x01")).unwrap(), one);
        assert_eq!(word(json!(1.0)).unwrap(), one);
        let max = "115792089237316195423570985008687907853269984665640564039457584007913129639935";
        assert_eq!(word(json!(max)).unwrap(), [0xff; 32]);
        assert!(word(json!(format!("{max}0"))).is_err());
        assert!(word(json!("0x")).is_err());
        assert!(word(json!("1.5")).is_err());
        assert!(word(json!(1.5)).is_err());
        assert_eq!(
            word(json!(1e300)).map_err(|e| e.code()),
            Err("number_out_of_range")
        );
        assert_eq!(
            word(json!(f64::MAX)).map_err(|e| e.code()),
            Err("number_out_of_range")
        );
        let exact = |text: &str| {
            parse_number_text(text, "x").map(|i| (i.negative, i.magnitude[24..].to_vec()))
        };
        assert_eq!(
            exact("1e18"),
            Ok((false, 1_000_000_000_000_000_000u64.to_be_bytes().to_vec()))
        );
        assert_eq!(exact("-2.5e1"), Ok((true, 25u64.to_be_bytes().to_vec())));
        assert_eq!(
            exact("1234e-2").map_err(|e| e.code()),
            Err("invalid_number")
        );
        assert_eq!(exact("1200e-2"), Ok((false, 12u64.to_be_bytes().to_vec())));
        assert_eq!(exact("0.0e-5"), Ok((false, vec![0; 8])));
        assert_eq!(exact("-0"), Ok((false, vec![0; 8])));
        assert!(word(json!(null)).is_err());
        assert!(word(json!(true)).is_err());
        assert!(word(json!("")).is_err());
        assert!(word(json!(" 1")).is_err());
        for text in ["NaN", "Infinity", "-Infinity"] {
            assert_eq!(
                word(json!(text)).map_err(|e| e.code()),
                Err("non_finite_number")
            );
        }
    }

    #[test]
    fn ranges_and_twos_complement() {
        let int = |v: Value, bits| parse(&v).and_then(|i| i.to_int_word(bits, "x"));
        assert_eq!(int(json!(-1), 8).unwrap(), [0xff; 32]);
        assert!(int(json!(-128), 8).is_ok());
        assert!(int(json!(-129), 8).is_err());
        assert!(int(json!(127), 8).is_ok());
        assert!(int(json!(128), 8).is_err());
        let uint = |v: Value, bits| parse(&v).and_then(|i| i.to_uint_word(bits, "x"));
        assert!(uint(json!(255), 8).is_ok());
        assert!(uint(json!(256), 8).is_err());
        assert!(uint(json!(-1), 8).is_err());
        assert_eq!(uint(json!("-0"), 8).unwrap(), [0; 32]);
        assert_eq!(trim_word(&[0; 32]), &[] as &[u8]);
    }
}
