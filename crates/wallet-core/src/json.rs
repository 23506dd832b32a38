//! The JSON-like values typed data and transaction requests are read from.
//!
//! No JSON text is parsed here: the wallet frame hands over what the browser's `JSON.parse`
//! made (or the object it was posted), natively `serde_json` reads the text. Both are turned
//! into this small tree, so EIP-712 and transaction rules have one implementation.

use crate::WalletError;

/// Deepest nesting accepted (guards the stack on hostile input).
pub(crate) const MAX_DEPTH: usize = 128;

/// A JSON (or structured-clone) value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    /// A number as JavaScript and `serde_json` hold it (exact for safe integers).
    Number(f64),
    /// A JavaScript `BigInt` (exact decimal digits), only from a posted object.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    BigInt(String),
    String(String),
    Array(Vec<Json>),
    /// Members in source order.
    Object(Vec<(String, Json)>),
}

impl Json {
    /// The member `key` of an object (`None` for other values or a missing key).
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Self::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Self::String(text) => Some(text),
            _ => None,
        }
    }
}

pub(crate) fn too_deep() -> WalletError {
    WalletError::InvalidJson("nesting too deep".into())
}

/// Native: `serde_json` reads the text (it rejects `NaN`/`Infinity` tokens, as `JSON.parse` does).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn parse(text: &str) -> crate::Result<Json> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| WalletError::InvalidJson(e.to_string()))?;
    from_serde(value, 0)
}

#[cfg(not(target_arch = "wasm32"))]
fn from_serde(value: serde_json::Value, depth: usize) -> crate::Result<Json> {
    use serde_json::Value;
    if depth > MAX_DEPTH {
        return Err(too_deep());
    }
    Ok(match value {
        Value::Null => Json::Null,
        Value::Bool(flag) => Json::Bool(flag),
        // Integers beyond 2^53 round here exactly as in `JSON.parse`; `parse_int` rejects them.
        Value::Number(number) => Json::Number(number.as_f64().unwrap_or(f64::NAN)),
        Value::String(text) => Json::String(text),
        Value::Array(items) => Json::Array(
            items
                .into_iter()
                .map(|item| from_serde(item, depth + 1))
                .collect::<crate::Result<_>>()?,
        ),
        Value::Object(members) => Json::Object(
            members
                .into_iter()
                .map(|(key, value)| Ok((key, from_serde(value, depth + 1)?)))
                .collect::<crate::Result<_>>()?,
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_documents() {
        let value =
            parse(r#" {"a": [1, -0.5e+3, true, null], "b": "x\"\u00e9\ud83d\ude00\n"} "#).unwrap();
        assert_eq!(value.get("b").and_then(Json::as_str), Some("x\"é😀\n"));
        assert_eq!(
            value.get("a"),
            Some(&Json::Array(vec![
                Json::Number(1.0),
                Json::Number(-500.0),
                Json::Bool(true),
                Json::Null
            ]))
        );
        assert_eq!(value.get("missing"), None);
        assert_eq!(Json::Null.get("a"), None);
    }

    #[test]
    fn rejects_malformed_and_non_finite_tokens() {
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\":1,}",
            "01",
            "'a'",
            "[1] 2",
            "NaN",
            "[1, Infinity]",
        ] {
            assert_eq!(
                parse(bad).map_err(|e| e.code()),
                Err("invalid_json"),
                "{bad}"
            );
        }
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert_eq!(parse(&deep).map_err(|e| e.code()), Err("invalid_json"));
    }
}
