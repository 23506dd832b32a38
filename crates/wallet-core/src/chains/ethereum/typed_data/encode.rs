//! EIP-712 `encodeType`, `encodeData` and `hashStruct` over JSON values.

use super::{Field, lookup};
use crate::chains::ethereum::keccak::{keccak256, keccak256_parts};
use crate::chains::ethereum::uint::parse_int;
use crate::chains::ethereum::{Address, B256};
use crate::json::Json;
use crate::{Result, WalletError, decode_hex};

/// Deepest struct/array nesting accepted in a message (guards the stack on hostile input).
const MAX_DEPTH: usize = 64;

type Types = [(String, Vec<Field>)];

fn invalid(message: impl Into<String>) -> WalletError {
    WalletError::InvalidTypedData(message.into())
}

/// An atomic type of the ABI subset EIP-712 allows.
enum Atomic {
    Uint(u32),
    Int(u32),
    FixedBytes(usize),
    Address,
    Bool,
    Bytes,
    String,
}

fn parse_bits(digits: &str) -> Option<u32> {
    let bits: u32 = digits.parse().ok()?;
    (digits.len() <= 3
        && !digits.starts_with('0')
        && bits.is_multiple_of(8)
        && (8..=256).contains(&bits))
    .then_some(bits)
}

fn atomic(ty: &str) -> Option<Atomic> {
    Some(match ty {
        "address" => Atomic::Address,
        "bool" => Atomic::Bool,
        "bytes" => Atomic::Bytes,
        "string" => Atomic::String,
        _ => {
            if let Some(bits) = ty.strip_prefix("uint") {
                Atomic::Uint(parse_bits(bits)?)
            } else if let Some(bits) = ty.strip_prefix("int") {
                Atomic::Int(parse_bits(bits)?)
            } else if let Some(size) = ty.strip_prefix("bytes") {
                let n: usize = size.parse().ok()?;
                if size.starts_with('0') || !(1..=32).contains(&n) {
                    return None;
                }
                Atomic::FixedBytes(n)
            } else {
                return None;
            }
        }
    })
}

/// Splits `T[]` / `T[n]` into (`T`, `Some(None)` / `Some(Some(n))`); `None` for non-arrays.
fn split_array(ty: &str) -> Result<Option<(&str, Option<usize>)>> {
    let Some(inner) = ty.strip_suffix(']') else {
        return Ok(None);
    };
    let (element, size) = inner
        .rsplit_once('[')
        .ok_or_else(|| invalid(["unbalanced brackets in \"", ty, "\""].concat()))?;
    if size.is_empty() {
        return Ok(Some((element, None)));
    }
    let n = size
        .parse::<usize>()
        .map_err(|_| invalid(["bad array length in \"", ty, "\""].concat()))?;
    Ok(Some((element, Some(n))))
}

/// Checks that `ty` is an atomic type, a declared struct, or an array of those.
pub(super) fn check_type(types: &Types, ty: &str) -> Result<()> {
    if let Some((element, _)) = split_array(ty)? {
        return check_type(types, element);
    }
    if atomic(ty).is_some() || lookup(types, ty).is_some() {
        return Ok(());
    }
    Err(unknown_type(ty))
}

fn unknown_type(ty: &str) -> WalletError {
    invalid(["unknown type \"", ty, "\""].concat())
}

fn base_struct<'a>(types: &Types, ty: &'a str) -> Option<&'a str> {
    let base = ty.split_once('[').map_or(ty, |(base, _)| base);
    lookup(types, base).is_some().then_some(base)
}

fn collect_dependencies<'a>(types: &'a Types, ty: &str, found: &mut Vec<&'a str>) {
    let Some((name, fields)) = types.iter().find(|(name, _)| name == ty) else {
        return;
    };
    if found.contains(&name.as_str()) {
        return;
    }
    found.push(name.as_str());
    for field in fields {
        if let Some(base) = base_struct(types, &field.ty) {
            collect_dependencies(types, base, found);
        }
    }
}

/// `encodeType`: the primary type followed by its referenced struct types sorted by name.
pub(super) fn encode_type(types: &Types, primary: &str) -> String {
    let mut found = Vec::new();
    collect_dependencies(types, primary, &mut found);
    found.retain(|name| *name != primary);
    // Dependencies in name order, picked smallest-first (few types; avoids linking a sort).
    let mut ordered = vec![primary];
    while let Some((i, _)) = found.iter().enumerate().min_by(|a, b| a.1.cmp(b.1)) {
        ordered.push(found.swap_remove(i));
    }
    let mut out = String::new();
    for name in ordered {
        out.push_str(name);
        out.push('(');
        for (i, field) in lookup(types, name).unwrap_or_default().iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&field.ty);
            out.push(' ');
            out.push_str(&field.name);
        }
        out.push(')');
    }
    out
}

/// `hashStruct(s) = keccak256(typeHash || encodeData(s))`.
pub(super) fn hash_struct(types: &Types, ty: &str, value: &Json, depth: usize) -> Result<B256> {
    let fields = lookup(types, ty).ok_or_else(|| unknown_type(ty))?;
    if !matches!(value, Json::Object(_)) {
        return Err(invalid(
            ["value of type ", ty, " must be an object"].concat(),
        ));
    }
    let mut encoded = Vec::with_capacity(32 * (fields.len() + 1));
    encoded.extend_from_slice(&keccak256(encode_type(types, ty).as_bytes()));
    for field in fields {
        let path = [ty, ".", &field.name].concat();
        let member = value
            .get(&field.name)
            .ok_or_else(|| invalid([&path, " is missing"].concat()))?;
        encoded.extend_from_slice(&encode_field(types, &field.ty, member, &path, depth + 1)?);
    }
    Ok(keccak256(&encoded))
}

/// The 32-byte `encodeData` word of one member.
fn encode_field(types: &Types, ty: &str, value: &Json, path: &str, depth: usize) -> Result<B256> {
    if depth > MAX_DEPTH {
        return Err(invalid("typed data nests too deeply"));
    }
    if let Some((element, length)) = split_array(ty)? {
        let Json::Array(items) = value else {
            return Err(invalid([path, " must be an array"].concat()));
        };
        if let Some(length) = length
            && items.len() != length
        {
            return Err(invalid(
                [
                    path,
                    " must have ",
                    &length.to_string(),
                    " items, has ",
                    &items.len().to_string(),
                ]
                .concat(),
            ));
        }
        let mut words = Vec::with_capacity(32 * items.len());
        for (i, item) in items.iter().enumerate() {
            words.extend_from_slice(&encode_field(
                types,
                element,
                item,
                &[path, "[", &i.to_string(), "]"].concat(),
                depth + 1,
            )?);
        }
        return Ok(keccak256(&words));
    }
    if lookup(types, ty).is_some() {
        return hash_struct(types, ty, value, depth);
    }
    let kind = atomic(ty).ok_or_else(|| unknown_type(ty))?;
    encode_atomic(kind, value, path)
}

fn hex_bytes(value: &Json, path: &str) -> Result<Vec<u8>> {
    let Json::String(text) = value else {
        return Err(invalid(
            [path, " must be a 0x-prefixed hex string"].concat(),
        ));
    };
    decode_hex(text).map_err(|e| invalid([path, ": ", &e.to_string()].concat()))
}

fn encode_atomic(kind: Atomic, value: &Json, path: &str) -> Result<B256> {
    let mut word = [0u8; 32];
    match kind {
        Atomic::Uint(bits) => return parse_int(value, path)?.to_uint_word(bits, path),
        Atomic::Int(bits) => return parse_int(value, path)?.to_int_word(bits, path),
        Atomic::Bool => match value {
            Json::Bool(flag) => word[31] = u8::from(*flag),
            _ => return Err(invalid([path, " must be true or false"].concat())),
        },
        Atomic::Address => match value {
            Json::String(text) => word[12..].copy_from_slice(&Address::parse(text)?.0),
            _ => return Err(invalid([path, " must be an address string"].concat())),
        },
        Atomic::FixedBytes(n) => {
            let bytes = hex_bytes(value, path)?;
            if bytes.len() != n {
                return Err(invalid(
                    [
                        path,
                        " must be ",
                        &n.to_string(),
                        " bytes, is ",
                        &bytes.len().to_string(),
                    ]
                    .concat(),
                ));
            }
            word[..n].copy_from_slice(&bytes);
        }
        Atomic::Bytes => return Ok(keccak256(&hex_bytes(value, path)?)),
        Atomic::String => match value {
            Json::String(text) => return Ok(keccak256_parts(&[text.as_bytes()])),
            _ => return Err(invalid([path, " must be a string"].concat())),
        },
    }
    Ok(word)
}
