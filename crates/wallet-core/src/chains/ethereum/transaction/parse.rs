//! JSON transaction request → [`Transaction`], with the consistency rules of each envelope.

use super::{AccessListItem, Transaction, TxKind};
use crate::chains::ethereum::uint::parse_int;
use crate::chains::ethereum::{Address, B256};
use crate::json::Json;
use crate::{Result, WalletError, decode_hex};

fn invalid(message: impl Into<String>) -> WalletError {
    WalletError::InvalidTransaction(message.into())
}

/// A present, non-null member.
fn get<'a>(object: &'a Json, key: &str) -> Option<&'a Json> {
    object.get(key).filter(|v| **v != Json::Null)
}

/// A member under either of two names; both present must agree.
fn get_either<'a>(object: &'a Json, a: &str, b: &str) -> Result<Option<&'a Json>> {
    match (get(object, a), get(object, b)) {
        (Some(x), Some(y)) if x != y => Err(invalid([a, " and ", b, " disagree"].concat())),
        (x, y) => Ok(x.or(y)),
    }
}

fn word(object: &Json, key: &str) -> Result<Option<B256>> {
    get(object, key)
        .map(|v| parse_int(v, key)?.to_uint_word(256, key))
        .transpose()
}

fn required<T>(value: Option<T>, key: &str) -> Result<T> {
    value.ok_or_else(|| invalid([key, " is required"].concat()))
}

fn kind(object: &Json) -> Result<TxKind> {
    if let Some(value) = get(object, "type") {
        let named = match value.as_str() {
            Some("legacy") => Some(TxKind::Legacy),
            Some("eip2930") => Some(TxKind::Eip2930),
            Some("eip1559") => Some(TxKind::Eip1559),
            _ => None,
        };
        if let Some(kind) = named {
            return Ok(kind);
        }
        return match parse_int(value, "type")?.to_u64("type")? {
            0 => Ok(TxKind::Legacy),
            1 => Ok(TxKind::Eip2930),
            2 => Ok(TxKind::Eip1559),
            other => Err(invalid(
                ["unsupported transaction type ", &other.to_string()].concat(),
            )),
        };
    }
    if get(object, "maxFeePerGas").is_some() || get(object, "maxPriorityFeePerGas").is_some() {
        Ok(TxKind::Eip1559)
    } else if get(object, "accessList").is_some() {
        Ok(TxKind::Eip2930)
    } else {
        Ok(TxKind::Legacy)
    }
}

fn access_list(value: Option<&Json>) -> Result<Vec<AccessListItem>> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    let Json::Array(entries) = value else {
        return Err(invalid("accessList must be an array"));
    };
    entries
        .iter()
        .map(|entry| {
            let address = match entry.get("address") {
                Some(Json::String(text)) => Address::parse(text)?,
                _ => return Err(invalid("accessList entries need an address")),
            };
            let keys = match entry.get("storageKeys") {
                Some(Json::Array(keys)) => keys,
                None => &Vec::new(),
                _ => return Err(invalid("storageKeys must be an array")),
            };
            let storage_keys = keys
                .iter()
                .map(|key| {
                    let bytes = key
                        .as_str()
                        .map(decode_hex)
                        .transpose()?
                        .unwrap_or_default();
                    bytes
                        .try_into()
                        .map_err(|_| invalid("storage keys must be 32-byte hex strings"))
                })
                .collect::<Result<Vec<B256>>>()?;
            Ok(AccessListItem {
                address,
                storage_keys,
            })
        })
        .collect()
}

fn optional_address(object: &Json, key: &str) -> Result<Option<Address>> {
    match get(object, key) {
        None => Ok(None),
        Some(Json::String(text)) if text.is_empty() || text == "0x" => Ok(None),
        Some(Json::String(text)) => Address::parse(text).map(Some),
        Some(_) => Err(invalid([key, " must be an address string"].concat())),
    }
}

/// Parses and validates a transaction request object.
pub(super) fn from_value(object: &Json) -> Result<Transaction> {
    let Json::Object(_) = object else {
        return Err(invalid("transaction must be a JSON object"));
    };
    let kind = kind(object)?;
    let quantity = |key: &str| -> Result<u64> {
        parse_int(required(get(object, key), key)?, key)?.to_u64(key)
    };
    let chain_id = quantity("chainId")?;
    if chain_id == 0 {
        return Err(invalid("chainId must be positive"));
    }
    let nonce = quantity("nonce")?;
    let gas = required(get_either(object, "gas", "gasLimit")?, "gas")?;
    let gas_limit = parse_int(gas, "gas")?.to_u64("gas")?;
    let gas_price = word(object, "gasPrice")?;
    let max_fee = word(object, "maxFeePerGas")?;
    let max_priority = word(object, "maxPriorityFeePerGas")?;
    let data = match get_either(object, "data", "input")? {
        None => Vec::new(),
        Some(Json::String(text)) => decode_hex(text)?,
        Some(_) => return Err(invalid("data must be a hex string")),
    };
    let list = access_list(get(object, "accessList"))?;

    let (gas_price, max_fee, max_priority) = match kind {
        TxKind::Legacy | TxKind::Eip2930 => {
            if max_fee.is_some() || max_priority.is_some() {
                return Err(invalid(
                    "maxFeePerGas/maxPriorityFeePerGas need an EIP-1559 transaction",
                ));
            }
            if kind == TxKind::Legacy && !list.is_empty() {
                return Err(invalid("a legacy transaction has no access list"));
            }
            (required(gas_price, "gasPrice")?, [0; 32], [0; 32])
        }
        TxKind::Eip1559 => {
            if gas_price.is_some() {
                return Err(invalid("gasPrice is not used by EIP-1559 transactions"));
            }
            let max_fee = required(max_fee, "maxFeePerGas")?;
            let max_priority = required(max_priority, "maxPriorityFeePerGas")?;
            // EIP-1559: the priority fee cannot exceed the fee cap.
            if max_priority > max_fee {
                return Err(invalid("maxPriorityFeePerGas exceeds maxFeePerGas"));
            }
            ([0; 32], max_fee, max_priority)
        }
    };

    Ok(Transaction {
        kind,
        chain_id,
        nonce,
        gas_limit,
        gas_price,
        max_fee_per_gas: max_fee,
        max_priority_fee_per_gas: max_priority,
        to: optional_address(object, "to")?,
        value: word(object, "value")?.unwrap_or([0; 32]),
        data,
        access_list: list,
        from: optional_address(object, "from")?,
    })
}
