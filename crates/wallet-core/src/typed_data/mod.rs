//! EIP-712 typed structured data, as `eth_signTypedData_v4` receives it.

mod encode;

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::keccak::keccak256_parts;
use crate::{B256, PrivateKey, Result, Signature, WalletError};

/// One member of a struct type: `{ "name": …, "type": … }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Field {
    pub name: String,
    pub ty: String,
}

/// Parsed and validated EIP-712 typed data.
#[derive(Clone, Debug, PartialEq)]
pub struct TypedData {
    types: BTreeMap<String, Vec<Field>>,
    primary_type: String,
    domain: Map<String, Value>,
    message: Value,
}

const DOMAIN: &str = "EIP712Domain";

/// The domain fields in EIP-712's order, used when `types` omits `EIP712Domain`.
const DOMAIN_FIELDS: [(&str, &str); 5] = [
    ("name", "string"),
    ("version", "string"),
    ("chainId", "uint256"),
    ("verifyingContract", "address"),
    ("salt", "bytes32"),
];

fn invalid(message: impl Into<String>) -> WalletError {
    WalletError::InvalidTypedData(message.into())
}

impl TypedData {
    /// Parses the JSON text of typed data (`domain`, `types`, `primaryType`, `message`).
    pub fn from_json(json: &str) -> Result<Self> {
        let value: Value =
            serde_json::from_str(json).map_err(|e| WalletError::InvalidJson(e.to_string()))?;
        Self::from_value(value)
    }

    /// Builds typed data from an already parsed JSON value.
    pub fn from_value(value: Value) -> Result<Self> {
        let Value::Object(mut root) = value else {
            return Err(invalid("typed data must be a JSON object"));
        };
        let primary_type = match root.remove("primaryType") {
            Some(Value::String(name)) => name,
            _ => return Err(invalid("primaryType must be a string")),
        };
        let domain = match root.remove("domain") {
            Some(Value::Object(domain)) => domain,
            _ => return Err(invalid("domain must be an object")),
        };
        let message = root.remove("message").ok_or_else(|| invalid("message is missing"))?;
        let Some(Value::Object(raw_types)) = root.remove("types") else {
            return Err(invalid("types must be an object"));
        };
        let mut types = BTreeMap::new();
        for (name, fields) in raw_types {
            types.insert(name.clone(), parse_fields(&name, fields)?);
        }
        if !types.contains_key(DOMAIN) {
            let inferred = DOMAIN_FIELDS
                .iter()
                .filter(|(name, _)| domain.contains_key(*name))
                .map(|(name, ty)| Field { name: (*name).to_owned(), ty: (*ty).to_owned() })
                .collect();
            types.insert(DOMAIN.to_owned(), inferred);
        }
        if !types.contains_key(&primary_type) {
            return Err(invalid(format!("primaryType {primary_type:?} is not in types")));
        }
        for (name, fields) in &types {
            for field in fields {
                encode::check_type(&types, &field.ty)
                    .map_err(|e| invalid(format!("{name}.{}: {e}", field.name)))?;
            }
        }
        Ok(Self { types, primary_type, domain, message })
    }

    /// `hashStruct(EIP712Domain, domain)`.
    pub fn domain_separator(&self) -> Result<B256> {
        encode::hash_struct(&self.types, DOMAIN, &Value::Object(self.domain.clone()), 0)
    }

    /// `hashStruct(primaryType, message)`.
    pub fn struct_hash(&self) -> Result<B256> {
        encode::hash_struct(&self.types, &self.primary_type, &self.message, 0)
    }

    /// `keccak256(0x19 0x01 || domainSeparator || hashStruct(message))`; when the primary type
    /// is `EIP712Domain` itself the message hash is omitted (as `eth_signTypedData_v4` does).
    pub fn signing_hash(&self) -> Result<B256> {
        let domain = self.domain_separator()?;
        if self.primary_type == DOMAIN {
            return Ok(keccak256_parts(&[&[0x19, 0x01], &domain]));
        }
        Ok(keccak256_parts(&[&[0x19, 0x01], &domain, &self.struct_hash()?]))
    }
}

fn parse_fields(type_name: &str, fields: Value) -> Result<Vec<Field>> {
    if type_name.is_empty() || !type_name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$') {
        return Err(invalid(format!("type name {type_name:?} is not an identifier")));
    }
    let Value::Array(fields) = fields else {
        return Err(invalid(format!("types.{type_name} must be an array")));
    };
    let mut out: Vec<Field> = Vec::with_capacity(fields.len());
    for field in fields {
        let (Some(Value::String(name)), Some(Value::String(ty))) = (field.get("name"), field.get("type")) else {
            return Err(invalid(format!("types.{type_name} members need string name and type")));
        };
        if out.iter().any(|f| f.name == *name) {
            return Err(invalid(format!("types.{type_name} has member {name:?} twice")));
        }
        out.push(Field { name: name.clone(), ty: ty.clone() });
    }
    Ok(out)
}

/// Signs typed data as `eth_signTypedData_v4` does.
pub fn sign_typed_data(key: &PrivateKey, typed_data: &TypedData) -> Result<Signature> {
    key.sign_hash(&typed_data.signing_hash()?)
}

#[cfg(test)]
mod tests;
