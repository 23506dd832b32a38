//! A small strict JSON reader (RFC 8259) for typed data and transaction requests.
//!
//! Written for the wasm size budget: `serde_json`'s `Value` and its B-tree maps cost more
//! than the whole parser. Numbers keep their source text, so integers of any size stay exact
//! and no float parsing is linked. Duplicate object keys are rejected.

use crate::{Result, WalletError};

/// Deepest nesting accepted (guards the stack on hostile input).
const MAX_DEPTH: usize = 128;

/// A parsed JSON value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    /// A number, as its (validated) source text.
    Number(String),
    String(String),
    Array(Vec<Json>),
    /// Members in source order; keys are unique.
    Object(Vec<(String, Json)>),
}

impl Json {
    /// Parses a complete JSON text.
    pub fn parse(text: &str) -> Result<Self> {
        let mut reader = Reader {
            bytes: text.as_bytes(),
            pos: 0,
        };
        let value = reader.value(0)?;
        reader.skip_whitespace();
        if reader.pos != reader.bytes.len() {
            return Err(reader.error("trailing characters"));
        }
        Ok(value)
    }

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

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn error(&self, what: &str) -> WalletError {
        WalletError::InvalidJson(format!("{what} at byte {}", self.pos))
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.bytes.get(self.pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, literal: &[u8]) -> bool {
        if self.bytes[self.pos..].starts_with(literal) {
            self.pos += literal.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json> {
        if depth > MAX_DEPTH {
            return Err(self.error("nesting too deep"));
        }
        self.skip_whitespace();
        match self.bytes.get(self.pos) {
            None => Err(self.error("unexpected end")),
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => self.string().map(Json::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ if self.eat(b"true") => Ok(Json::Bool(true)),
            _ if self.eat(b"false") => Ok(Json::Bool(false)),
            _ if self.eat(b"null") => Ok(Json::Null),
            _ if self.eat(b"NaN") || self.eat(b"Infinity") => Err(WalletError::NonFiniteNumber(
                "NaN and Infinity are not JSON numbers".into(),
            )),
            _ => Err(self.error("unexpected character")),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json> {
        self.pos += 1;
        let mut members: Vec<(String, Json)> = Vec::new();
        self.skip_whitespace();
        if self.eat(b"}") {
            return Ok(Json::Object(members));
        }
        loop {
            self.skip_whitespace();
            if self.bytes.get(self.pos) != Some(&b'"') {
                return Err(self.error("expected a string key"));
            }
            let key = self.string()?;
            if members.iter().any(|(k, _)| *k == key) {
                return Err(self.error("duplicate key"));
            }
            self.skip_whitespace();
            if !self.eat(b":") {
                return Err(self.error("expected ':'"));
            }
            let value = self.value(depth + 1)?;
            members.push((key, value));
            self.skip_whitespace();
            if self.eat(b"}") {
                return Ok(Json::Object(members));
            }
            if !self.eat(b",") {
                return Err(self.error("expected ',' or '}'"));
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Json> {
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_whitespace();
        if self.eat(b"]") {
            return Ok(Json::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            self.skip_whitespace();
            if self.eat(b"]") {
                return Ok(Json::Array(items));
            }
            if !self.eat(b",") {
                return Err(self.error("expected ',' or ']'"));
            }
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while matches!(self.bytes.get(self.pos), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        self.pos - start
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    fn number(&mut self) -> Result<Json> {
        let start = self.pos;
        self.eat(b"-");
        if self.eat(b"Infinity") {
            return Err(WalletError::NonFiniteNumber(
                "NaN and Infinity are not JSON numbers".into(),
            ));
        }
        let leading_zero = self.bytes.get(self.pos) == Some(&b'0');
        let int_digits = self.digits();
        if int_digits == 0 || (leading_zero && int_digits > 1) {
            return Err(self.error("malformed number"));
        }
        if self.eat(b".") && self.digits() == 0 {
            return Err(self.error("malformed number"));
        }
        if self.eat(b"e") || self.eat(b"E") {
            let _ = self.eat(b"+") || self.eat(b"-");
            if self.digits() == 0 {
                return Err(self.error("malformed number"));
            }
        }
        let text = core::str::from_utf8(&self.bytes[start..self.pos])
            .map_err(|_| self.error("bad number"))?;
        Ok(Json::Number(text.to_owned()))
    }

    fn hex4(&mut self) -> Result<u32> {
        let digits = self
            .bytes
            .get(self.pos..self.pos + 4)
            .ok_or_else(|| self.error("short \\u escape"))?;
        let text = core::str::from_utf8(digits).map_err(|_| self.error("bad \\u escape"))?;
        let value = u32::from_str_radix(text, 16).map_err(|_| self.error("bad \\u escape"))?;
        self.pos += 4;
        Ok(value)
    }

    fn string(&mut self) -> Result<String> {
        self.pos += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let byte = *self
                .bytes
                .get(self.pos)
                .ok_or_else(|| self.error("unterminated string"))?;
            self.pos += 1;
            match byte {
                b'"' => break,
                b'\\' => {
                    let escape = *self
                        .bytes
                        .get(self.pos)
                        .ok_or_else(|| self.error("bad escape"))?;
                    self.pos += 1;
                    let c = match escape {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let mut code = self.hex4()?;
                            if (0xd800..0xdc00).contains(&code) {
                                if !self.eat(b"\\u") {
                                    return Err(self.error("lone surrogate"));
                                }
                                let low = self.hex4()?;
                                if !(0xdc00..0xe000).contains(&low) {
                                    return Err(self.error("lone surrogate"));
                                }
                                code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
                            }
                            char::from_u32(code).ok_or_else(|| self.error("lone surrogate"))?
                        }
                        _ => return Err(self.error("bad escape")),
                    };
                    let mut buffer = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
                }
                0..=0x1f => return Err(self.error("control character in string")),
                _ => out.push(byte),
            }
        }
        // The input is a &str and escapes produce valid UTF-8, so this cannot fail.
        String::from_utf8(out).map_err(|_| self.error("invalid UTF-8"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_documents() {
        let value =
            Json::parse(r#" {"a": [1, -0.5e+3, true, null], "b": "x\"\u00e9\ud83d\ude00\n"} "#)
                .unwrap();
        assert_eq!(value.get("b").and_then(Json::as_str), Some("x\"é😀\n"));
        assert_eq!(
            value.get("a"),
            Some(&Json::Array(vec![
                Json::Number("1".into()),
                Json::Number("-0.5e+3".into()),
                Json::Bool(true),
                Json::Null
            ]))
        );
        assert_eq!(Json::parse("\"\"").unwrap(), Json::String(String::new()));
    }

    #[test]
    fn rejects_malformed() {
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\":1,}",
            "01",
            "1.",
            "-",
            "1e",
            "+1",
            "'a'",
            "{\"a\" 1}",
            "[1] 2",
            "\"\\x\"",
            "\"\\ud800\"",
            "\"a\nb\"",
            "{\"a\":1,\"a\":2}",
            "tru",
        ] {
            assert!(
                matches!(Json::parse(bad), Err(WalletError::InvalidJson(_))),
                "{bad}"
            );
        }
        for bad in ["NaN", "Infinity", "-Infinity", "[1, NaN]"] {
            assert!(
                matches!(Json::parse(bad), Err(WalletError::NonFiniteNumber(_))),
                "{bad}"
            );
        }
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert!(Json::parse(&deep).is_err());
    }
}
