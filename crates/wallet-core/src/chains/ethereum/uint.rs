//! Integers from JSON (numbers, decimal strings, `0x` hex strings) as 256-bit big-endian words.

use super::B256;
use crate::hex::strip_0x;
use crate::json::Json;
use crate::{Result, WalletError};

/// `NumberOutOfRange` naming the value and the width it missed (e.g. "x does not fit uint8").
fn out_of_range(what: &str, fit: &str, bits: u32) -> WalletError {
    WalletError::NumberOutOfRange([what, fit, &bits.to_string()].concat())
}

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
            return Err(out_of_range(what, " does not fit uint", bits));
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
            return Err(out_of_range(what, " does not fit int", bits));
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
            return Err(WalletError::NumberOutOfRange(
                [what, " does not fit 64 bits"].concat(),
            ));
        }
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&self.magnitude[24..]);
        Ok(u64::from_be_bytes(bytes))
    }
}

/// The largest integer a JavaScript number holds exactly (`Number.MAX_SAFE_INTEGER`).
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// Parses an integer from a number, a `BigInt` or a decimal / `0x` string. Rejects NaN,
/// ±Infinity (as numbers or strings), fractions, and numbers beyond 2^53 − 1, which a JSON
/// number cannot carry exactly (ethers v6 refuses them too): those must come as strings.
pub(crate) fn parse_int(value: &Json, what: &str) -> Result<Int> {
    match value {
        Json::Number(number) => parse_number(*number, what),
        Json::String(text) | Json::BigInt(text) => parse_int_str(text, what),
        Json::Null => Err(WalletError::InvalidNumber([what, " is null"].concat())),
        _ => Err(WalletError::InvalidNumber(
            [what, " must be a number or a string"].concat(),
        )),
    }
}

fn parse_number(number: f64, what: &str) -> Result<Int> {
    if !number.is_finite() {
        return Err(WalletError::NonFiniteNumber(what.to_owned()));
    }
    if number.fract() != 0.0 {
        return Err(WalletError::InvalidNumber(
            [what, " is not an integer"].concat(),
        ));
    }
    if number.abs() > MAX_SAFE_INTEGER {
        return Err(WalletError::InvalidNumber(
            [what, " exceeds 2^53 - 1; pass it as a decimal or 0x string"].concat(),
        ));
    }
    let mut magnitude = [0u8; 32];
    // Exact: an integral f64 of at most 53 bits.
    magnitude[24..].copy_from_slice(&(number.abs() as u64).to_be_bytes());
    Ok(Int {
        negative: number < 0.0,
        magnitude,
    })
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
    let bad = || WalletError::InvalidNumber([what, ": \"", text, "\" is not an integer"].concat());
    let mut int = if let Some(digits) = strip_0x(body) {
        if digits.is_empty() || digits.len() > 64 || !digits.bytes().all(|b| b.is_ascii_hexdigit())
        {
            return Err(bad());
        }
        // Left-pad to 64 digits so the value lands right-aligned in the word.
        let padded = ["0".repeat(64 - digits.len()).as_str(), digits].concat();
        let mut magnitude = [0u8; 32];
        ::hex::decode_to_slice(padded, &mut magnitude).map_err(|_| bad())?;
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
            return Err(WalletError::NumberOutOfRange(
                [what, " exceeds 256 bits"].concat(),
            ));
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
        parse_int(&crate::json::parse(&value.to_string())?, "x")
    }

    fn word(value: Value) -> Result<B256> {
        parse(&value)?.to_uint_word(256, "x")
    }

    fn code(value: Value) -> &'static str {
        word(value).map_or_else(|e| e.code(), |_| "ok")
    }

    #[test]
    fn parses_forms() {
        let one = word(json!(1)).unwrap();
        assert_eq!(one[31], 1);
        assert_eq!(word(json!("1")).unwrap(), one);
        assert_eq!(word(json!("0x01")).unwrap(), one);
        assert_eq!(word(json!(1.0)).unwrap(), one);
        assert_eq!(
            parse_int(&Json::BigInt("1".into()), "x").unwrap().magnitude,
            one
        );
        let max = "115792089237316195423570985008687907853269984665640564039457584007913129639935";
        assert_eq!(word(json!(max)).unwrap(), [0xff; 32]);
        assert_eq!(code(json!(format!("{max}0"))), "number_out_of_range");
        let safe = word(json!(9_007_199_254_740_991u64)).unwrap();
        assert_eq!(safe[24..], 9_007_199_254_740_991u64.to_be_bytes());
        assert!(parse(&json!(-25)).unwrap().negative);
        assert!(!parse(&json!(-0.0)).unwrap().negative);
        for bad in [
            json!("0x"),
            json!("1.5"),
            json!(1.5),
            json!(null),
            json!(true),
            json!(""),
            json!(" 1"),
        ] {
            assert_eq!(code(bad.clone()), "invalid_number", "{bad}");
        }
    }

    /// Numbers a JSON number cannot carry exactly are refused, not rounded.
    #[test]
    fn unsafe_numbers_must_be_strings() {
        for bad in [
            json!(9_007_199_254_740_992u64),
            json!(1e18),
            json!(1e300),
            json!(f64::MAX),
        ] {
            assert_eq!(code(bad.clone()), "invalid_number", "{bad}");
        }
        let error = word(json!(1e18)).unwrap_err().to_string();
        assert_eq!(
            error,
            "invalid number: x exceeds 2^53 - 1; pass it as a decimal or 0x string"
        );
        assert_eq!(code(json!("1000000000000000000")), "ok");
    }

    #[test]
    fn rejects_nan_and_infinity() {
        for text in ["NaN", "Infinity", "-Infinity", "inf"] {
            assert_eq!(code(json!(text)), "non_finite_number", "{text}");
        }
        // A posted object (not JSON text) can carry real NaN and ±Infinity numbers.
        for number in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(
                parse_int(&Json::Number(number), "x").map_err(|e| e.code()),
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
        assert_eq!(
            int(json!(128), 8).unwrap_err().to_string(),
            "number out of range: x does not fit int8"
        );
        let uint = |v: Value, bits| parse(&v).and_then(|i| i.to_uint_word(bits, "x"));
        assert!(uint(json!(255), 8).is_ok());
        assert_eq!(
            uint(json!(256), 8).unwrap_err().to_string(),
            "number out of range: x does not fit uint8"
        );
        assert!(uint(json!(-1), 8).is_err());
        assert_eq!(uint(json!("-0"), 8).unwrap(), [0; 32]);
        assert_eq!(
            parse(&json!("0x10000000000000000"))
                .unwrap()
                .to_u64("nonce")
                .unwrap_err()
                .to_string(),
            "number out of range: nonce does not fit 64 bits"
        );
        assert_eq!(trim_word(&[0; 32]), &[] as &[u8]);
    }
}
