//! `ethereum_calldata` conditions: an argument of the contract call a transaction's `data` makes,
//! read with the condition's JSON ABI (`ethabi`). The field is `{function name}.{parameter name}`;
//! the call is that function only when `data` starts with the function's 4-byte selector
//! (computed from the ABI, so overloads are told apart) and the rest decodes under its inputs.
//! Anything else (another function, too short, not decodable) has no such argument, so the
//! condition does not hold.
//!
//! Only arguments of static, comparable types are read: `address`, `bool`, `uintN`, `intN`,
//! `bytesN`, `string` and `bytes`; the server's check refuses a condition on any other. A `uintN`
//! or `intN` word is cleaned up to its N bits as Solidity does (masked, sign-extended), so the
//! value judged is the value the contract uses.

use ethabi::{Contract, Function, ParamType, Token};
use ruint::aliases::U256;
use serde_json::Value;

/// How an argument compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgumentKind {
    /// `uintN`: an unsigned number.
    Unsigned,
    /// `intN`: a signed number (a value may start with `-`).
    Signed,
    /// `address`, `bool`, `bytesN`, `string`, `bytes`: text (addresses in any case, bytes as `0x`
    /// lower-case hex, `true` / `false`).
    Text,
}

/// An argument's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Argument {
    /// `uintN`.
    Unsigned(U256),
    /// `intN`, in two's complement (see [`signed_order`]).
    Signed(U256),
    /// The rest, as text.
    Text(String),
}

/// The condition's ABI (the vendor's `AbiSchema`: a JSON array of items; a parameter's `name`, an
/// item's `inputs` and `outputs` and an event's `anonymous` may be left out, as there).
pub fn parse_abi(abi: &Value) -> Result<Contract, String> {
    let Value::Array(items) = abi else {
        return Err("abi must be a JSON ABI (a list of items)".into());
    };
    let mut items = items.clone();
    for item in &mut items {
        let Value::Object(item) = item else { continue };
        let kind = item
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("function");
        let mut defaults = vec![("inputs", Value::Array(Vec::new()))];
        match kind {
            "function" => defaults.push(("outputs", Value::Array(Vec::new()))),
            "event" => defaults.push(("anonymous", Value::Bool(false))),
            _ => {}
        }
        for (key, value) in defaults {
            item.entry(key).or_insert(value);
        }
        for list in ["inputs", "outputs"] {
            if let Some(Value::Array(params)) = item.get_mut(list) {
                params.iter_mut().for_each(name_params);
            }
        }
    }
    serde_json::from_value(Value::Array(items)).map_err(|e| format!("abi does not parse: {e}"))
}

/// Gives `param` (and its tuple components) an empty `name` where it has none.
fn name_params(param: &mut Value) {
    if let Value::Object(map) = param {
        map.entry("name")
            .or_insert_with(|| Value::String(String::new()));
        if let Some(Value::Array(components)) = map.get_mut("components") {
            components.iter_mut().for_each(name_params);
        }
    }
}

/// `transfer.to` → (`transfer`, `to`).
fn split_field(field: &str) -> Option<(&str, &str)> {
    let (function, parameter) = field.split_once('.')?;
    (!function.is_empty() && !parameter.is_empty() && !parameter.contains('.'))
        .then_some((function, parameter))
}

fn kind_of(ty: &ParamType) -> Option<ArgumentKind> {
    match *ty {
        ParamType::Uint(bits) if valid_bits(bits) => Some(ArgumentKind::Unsigned),
        ParamType::Int(bits) if valid_bits(bits) => Some(ArgumentKind::Signed),
        ParamType::FixedBytes(size) if (1..=32).contains(&size) => Some(ArgumentKind::Text),
        ParamType::Address | ParamType::Bool | ParamType::String | ParamType::Bytes => {
            Some(ArgumentKind::Text)
        }
        _ => None,
    }
}

fn valid_bits(bits: usize) -> bool {
    bits.is_multiple_of(8) && (8..=256).contains(&bits)
}

/// Whether `field` (`{function}.{parameter}`) names an input of a function of `abi` whose type a
/// condition can compare; how it compares, or why not.
pub fn argument_kind(abi: &Value, field: &str) -> Result<ArgumentKind, String> {
    let abi = parse_abi(abi)?;
    let (function, parameter) = split_field(field).ok_or_else(|| {
        format!("ethereum_calldata field {field:?} must be {{function name}}.{{parameter name}}")
    })?;
    let functions = abi
        .functions_by_name(function)
        .map_err(|_| format!("the abi has no function {function:?} (field {field:?})"))?;
    let mut kinds = functions.iter().filter_map(|f| {
        let input = f.inputs.iter().find(|p| p.name == parameter)?;
        Some(kind_of(&input.kind).ok_or_else(|| {
            format!(
                "{function}.{parameter} is of type {}; conditions compare address, bool, uintN, intN, bytesN, string and bytes",
                input.kind
            )
        }))
    });
    let kind = kinds.next().ok_or_else(|| {
        format!("function {function:?} of the abi has no input named {parameter:?}")
    })??;
    // Overloads naming the parameter alike must compare alike.
    if kinds.any(|other| other != Ok(kind)) {
        return Err(format!(
            "the overloads of {function:?} give {parameter:?} different types"
        ));
    }
    Ok(kind)
}

/// The argument `field` of the call `data` makes, when `data` calls that function of `abi` and
/// decodes under its inputs.
pub fn argument(abi: &Value, field: &str, data: &[u8]) -> Option<Argument> {
    let abi = parse_abi(abi).ok()?;
    let (function, parameter) = split_field(field)?;
    let (selector, arguments) = (data.get(..4)?, data.get(4..)?);
    let called: &Function = abi
        .functions_by_name(function)
        .ok()?
        .iter()
        .find(|f| f.short_signature() == selector)?;
    let index = called.inputs.iter().position(|p| p.name == parameter)?;
    kind_of(&called.inputs.get(index)?.kind)?;
    let tokens = called.decode_input(arguments).ok()?;
    match (
        tokens.into_iter().nth(index)?,
        &called.inputs.get(index)?.kind,
    ) {
        (Token::Uint(word), ParamType::Uint(bits)) => {
            Some(Argument::Unsigned(clean_unsigned(word_of(word), *bits)))
        }
        (Token::Int(word), ParamType::Int(bits)) => {
            Some(Argument::Signed(clean_signed(word_of(word), *bits)))
        }
        (Token::Address(address), _) => Some(Argument::Text(hex(address.as_bytes()))),
        (Token::Bool(flag), _) => Some(Argument::Text(flag.to_string())),
        (Token::FixedBytes(bytes) | Token::Bytes(bytes), _) => Some(Argument::Text(hex(&bytes))),
        (Token::String(text), _) => Some(Argument::Text(text)),
        _ => None,
    }
}

fn word_of(number: ethabi::Uint) -> U256 {
    let mut word = [0u8; 32];
    number.to_big_endian(&mut word);
    U256::from_be_bytes(word)
}

/// A `uintN` word masked to its N bits.
fn clean_unsigned(word: U256, bits: usize) -> U256 {
    if bits >= 256 {
        return word;
    }
    word & ((U256::from(1u8) << bits) - U256::from(1u8))
}

/// An `intN` word sign-extended from its N bits (two's complement in 256 bits).
fn clean_signed(word: U256, bits: usize) -> U256 {
    if bits >= 256 || bits == 0 {
        return word;
    }
    let mask = (U256::from(1u8) << bits) - U256::from(1u8);
    let low = word & mask;
    if low.bit(bits - 1) { low | !mask } else { low }
}

fn hex(bytes: &[u8]) -> String {
    symbolon_wallet_core::encode_hex(bytes)
}

/// The bit that makes a 256-bit two's complement number negative.
fn sign_bit() -> U256 {
    U256::from(1u8) << 255
}

/// A signed number as conditions write it: decimal with an optional `-`, or `0x` hex (not
/// negative); as two's complement in 256 bits, within the range of `int256`.
pub fn parse_signed(text: &str) -> Option<U256> {
    let text = text.trim();
    let (negative, digits) = match text.strip_prefix('-') {
        Some(digits) if !digits.starts_with("0x") => (true, digits),
        Some(_) => return None,
        None => (false, text),
    };
    let magnitude = super::parse_number(digits)?;
    if negative {
        (magnitude <= sign_bit()).then(|| magnitude.wrapping_neg())
    } else {
        (magnitude < sign_bit()).then_some(magnitude)
    }
}

/// A key that orders two's complement numbers as signed numbers (the sign bit flipped).
pub fn signed_order(number: U256) -> U256 {
    number ^ sign_bit()
}

#[cfg(test)]
pub(crate) mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    pub(crate) fn erc20() -> Value {
        json!([
            { "type": "function", "name": "transfer", "stateMutability": "nonpayable",
              "inputs": [{ "name": "to", "type": "address" }, { "name": "amount", "type": "uint256" }],
              "outputs": [{ "type": "bool" }] },
            { "type": "function", "name": "approve", "stateMutability": "nonpayable",
              "inputs": [{ "name": "spender", "type": "address" }, { "name": "amount", "type": "uint256" }],
              "outputs": [{ "name": "", "type": "bool" }] },
            { "type": "event", "name": "Transfer", "anonymous": false,
              "inputs": [{ "name": "from", "type": "address", "indexed": true }] },
        ])
    }

    #[test]
    fn fields_name_a_comparable_input_of_a_function_of_the_abi() {
        assert_eq!(
            argument_kind(&erc20(), "transfer.to"),
            Ok(ArgumentKind::Text)
        );
        assert_eq!(
            argument_kind(&erc20(), "transfer.amount"),
            Ok(ArgumentKind::Unsigned)
        );
        let signed = json!([{ "type": "function", "name": "f", "inputs": [
            { "name": "delta", "type": "int128" }, { "name": "ids", "type": "uint256[]" },
            { "name": "odd", "type": "uint7" }] }]);
        assert_eq!(argument_kind(&signed, "f.delta"), Ok(ArgumentKind::Signed));
        for (abi, field, why) in [
            (erc20(), "transfer.from", "has no input named \"from\""),
            (erc20(), "mint.to", "the abi has no function \"mint\""),
            (
                erc20(),
                "transfer",
                "must be {function name}.{parameter name}",
            ),
            (
                erc20(),
                "transfer.to.x",
                "must be {function name}.{parameter name}",
            ),
            (signed.clone(), "f.ids", "is of type uint256[]"),
            (signed.clone(), "f.odd", "is of type uint7"),
            (json!({ "inputs": [] }), "f.x", "a list of items"),
            (
                json!([{ "type": "function", "name": "f", "inputs": 7 }]),
                "f.x",
                "abi does not parse",
            ),
        ] {
            let refused = argument_kind(&abi, field).unwrap_err();
            assert!(refused.contains(why), "{field}: {refused}");
        }
    }

    #[test]
    fn small_words_are_cleaned_up_as_solidity_does() {
        let word = U256::from(0x1_05u32);
        assert_eq!(clean_unsigned(word, 8), U256::from(5));
        assert_eq!(clean_unsigned(word, 256), word);
        // int8 0xfb is -5, whatever the higher bits say.
        assert_eq!(
            clean_signed(U256::from(0xfbu32), 8),
            parse_signed("-5").unwrap()
        );
        assert_eq!(clean_signed(U256::from(0x1_05u32), 8), U256::from(5));
    }

    #[test]
    fn signed_numbers_are_decimal_with_a_sign_or_hex_and_order_as_signed() {
        assert_eq!(parse_signed("-5"), Some(U256::from(5).wrapping_neg()));
        assert_eq!(parse_signed("0x10"), Some(U256::from(16)));
        let min = format!("-{}", sign_bit());
        assert_eq!(parse_signed(&min), Some(sign_bit()), "int256's least");
        for bad in [
            "",
            "-",
            "--1",
            "+1",
            "0x",
            "1.5",
            "-0x1",
            &sign_bit().to_string(),
        ] {
            assert_eq!(parse_signed(bad), None, "{bad}");
        }
        let order = |text: &str| signed_order(parse_signed(text).unwrap());
        assert!(order("-6") < order("-5"));
        assert!(order("-1") < order("0"));
        assert!(order("0") < order("7"));
        assert!(order(&min) < order("-1"));
    }
}
