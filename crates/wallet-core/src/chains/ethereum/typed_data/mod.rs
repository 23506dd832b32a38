//! EIP-712 typed structured data, as `eth_signTypedData_v4` receives it.

mod encode;

use crate::chains::ethereum::keccak::keccak256_parts;
use crate::chains::ethereum::{B256, PrivateKey, Signature};
use crate::json::Json;
use crate::{Result, WalletError};

/// One member of a struct type: `{ "name": …, "type": … }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Field {
    pub name: String,
    pub ty: String,
}

/// Parsed and validated EIP-712 typed data.
#[derive(Clone, Debug, PartialEq)]
pub struct TypedData {
    /// Struct types in declaration order (names are unique: JSON keys are).
    types: Types,
    primary_type: String,
    domain: Json,
    message: Json,
}

/// Struct types and their members.
pub(crate) type Types = Vec<(String, Vec<Field>)>;

/// The members of struct type `name` (a linear scan: type lists are short, and no map or sort
/// code is linked into the wasm).
pub(crate) fn lookup<'a>(types: &'a [(String, Vec<Field>)], name: &str) -> Option<&'a [Field]> {
    types
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, fields)| fields.as_slice())
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
    /// Native only: in the wallet frame the browser's `JSON.parse` reads the text.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn from_json(json: &str) -> Result<Self> {
        Self::from_value(crate::json::parse(json)?)
    }

    /// Validates an already parsed typed-data value.
    pub(crate) fn from_value(value: Json) -> Result<Self> {
        let Json::Object(root) = value else {
            return Err(invalid("typed data must be a JSON object"));
        };
        let (mut primary_type, mut domain, mut message, mut raw_types) = (None, None, None, None);
        for (key, value) in root {
            match key.as_str() {
                "primaryType" => primary_type = Some(value),
                "domain" => domain = Some(value),
                "message" => message = Some(value),
                "types" => raw_types = Some(value),
                _ => {}
            }
        }
        let Some(Json::String(primary_type)) = primary_type else {
            return Err(invalid("primaryType must be a string"));
        };
        let domain = match domain {
            Some(domain @ Json::Object(_)) => domain,
            _ => return Err(invalid("domain must be an object")),
        };
        let message = message.ok_or_else(|| invalid("message is missing"))?;
        let Some(Json::Object(raw_types)) = raw_types else {
            return Err(invalid("types must be an object"));
        };
        let mut types: Types = Vec::with_capacity(raw_types.len() + 1);
        for (name, fields) in raw_types {
            let fields = parse_fields(&name, fields)?;
            types.push((name, fields));
        }
        if !types.iter().any(|(name, _)| name == DOMAIN) {
            let inferred = DOMAIN_FIELDS
                .iter()
                .filter(|(name, _)| domain.get(name).is_some())
                .map(|(name, ty)| Field {
                    name: (*name).to_owned(),
                    ty: (*ty).to_owned(),
                })
                .collect();
            types.push((DOMAIN.to_owned(), inferred));
        }
        if lookup(&types, &primary_type).is_none() {
            return Err(invalid(
                ["primaryType \"", &primary_type, "\" is not in types"].concat(),
            ));
        }
        for (name, fields) in &types {
            for field in fields {
                encode::check_type(&types, &field.ty).map_err(|e| {
                    let detail = match e {
                        WalletError::InvalidTypedData(detail) => detail,
                        other => other.to_string(),
                    };
                    invalid([name, ".", &field.name, ": ", &detail].concat())
                })?;
            }
        }
        Ok(Self {
            types,
            primary_type,
            domain,
            message,
        })
    }

    /// `hashStruct(EIP712Domain, domain)`.
    pub fn domain_separator(&self) -> Result<B256> {
        encode::hash_struct(&self.types, DOMAIN, &self.domain, 0)
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
        Ok(keccak256_parts(&[
            &[0x19, 0x01],
            &domain,
            &self.struct_hash()?,
        ]))
    }
}

fn parse_fields(type_name: &str, fields: Json) -> Result<Vec<Field>> {
    let identifier = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    if type_name.is_empty() || !type_name.bytes().all(identifier) {
        return Err(invalid(
            ["type name \"", type_name, "\" is not an identifier"].concat(),
        ));
    }
    let Json::Array(fields) = fields else {
        return Err(invalid(["types.", type_name, " must be an array"].concat()));
    };
    let mut out: Vec<Field> = Vec::with_capacity(fields.len());
    for field in fields {
        let (Some(Json::String(name)), Some(Json::String(ty))) =
            (field.get("name"), field.get("type"))
        else {
            return Err(invalid(
                ["types.", type_name, " members need string name and type"].concat(),
            ));
        };
        if out.iter().any(|f| f.name == *name) {
            return Err(invalid(
                ["types.", type_name, " has member \"", name, "\" twice"].concat(),
            ));
        }
        out.push(Field {
            name: name.clone(),
            ty: ty.clone(),
        });
    }
    Ok(out)
}

/// Signs typed data as `eth_signTypedData_v4` does.
pub fn sign_typed_data(key: &PrivateKey, typed_data: &TypedData) -> Result<Signature> {
    key.sign_hash(&typed_data.signing_hash()?)
}

#[cfg(test)]
mod tests;
