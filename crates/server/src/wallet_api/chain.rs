//! The chain side of a transaction: the fields the app left out (nonce, gas, fees) read from the
//! app's chain RPC before signing, and the signed transaction broadcast after.

use serde_json::{Map, Value, json};
use symbolon_protocol::ServerErrorCode;
use symbolon_signer::wire::TransactionCompletion;

use crate::chain_rpc::{ChainRpcError, request};
use crate::error::AppError;

/// The refusal when the app has no RPC endpoint for the chain.
pub fn no_rpc(chain_id: u64) -> AppError {
    AppError::invalid_data(format!(
        "This app has no RPC endpoint for chain {chain_id} (its settings' wallets.rpc_urls)"
    ))
}

fn unreachable(error: &ChainRpcError) -> AppError {
    tracing::warn!(%error, "chain RPC failed");
    AppError::new(
        ServerErrorCode::TransactionBroadcastFailure,
        "The chain's RPC endpoint did not answer; try again",
    )
}

fn quantity(value: &Value) -> Option<u128> {
    u128::from_str_radix(value.as_str()?.strip_prefix("0x")?, 16).ok()
}

/// The fields `transaction` lacks, from the chain: `nonce` (pending), `gas_limit` (estimated,
/// +20 %), and fees (`gas_price` for a legacy request, else EIP-1559 `max_fee_per_gas` = 2 × the
/// node's gas price and `max_priority_fee_per_gas`).
pub async fn complete(
    rpc_url: &str,
    from: &str,
    transaction: &Map<String, Value>,
) -> Result<TransactionCompletion, AppError> {
    let mut fields = Map::new();
    let has = |name: &str| transaction.get(name).is_some_and(|v| !v.is_null());
    if !has("nonce") {
        let nonce = request(rpc_url, "eth_getTransactionCount", json!([from, "pending"]))
            .await
            .map_err(|e| unreachable(&e))?;
        fields.insert("nonce".into(), nonce);
    }
    if !has("gas_limit") {
        let mut call = json!({ "from": from });
        for (ours, theirs) in [("to", "to"), ("value", "value"), ("data", "data")] {
            if let Some(value) = transaction.get(ours).filter(|v| !v.is_null()) {
                call[theirs] = value.clone();
            }
        }
        let estimate = match request(rpc_url, "eth_estimateGas", json!([call])).await {
            Ok(estimate) => estimate,
            Err(ChainRpcError::Reverted(message)) => return Err(refused_by_node(&message)),
            Err(e) => return Err(unreachable(&e)),
        };
        let gas = quantity(&estimate)
            .ok_or_else(|| unreachable(&ChainRpcError::Rpc(estimate.to_string())))?;
        fields.insert("gas_limit".into(), json!(format!("0x{:x}", gas + gas / 5)));
    }
    let legacy = has("gas_price")
        || matches!(transaction.get("type"), Some(t) if t == &json!(0) || t == &json!("0x0") || t == &json!(1) || t == &json!("0x1"));
    if !legacy && !has("max_fee_per_gas") {
        let price = request(rpc_url, "eth_gasPrice", json!([]))
            .await
            .map_err(|e| unreachable(&e))?;
        let price = quantity(&price).unwrap_or(1_000_000_000);
        let tip = match request(rpc_url, "eth_maxPriorityFeePerGas", json!([])).await {
            Ok(tip) => quantity(&tip).unwrap_or(0),
            Err(_) => 0,
        };
        fields.insert(
            "max_fee_per_gas".into(),
            json!(format!("0x{:x}", price * 2 + tip)),
        );
        if !has("max_priority_fee_per_gas") {
            fields.insert(
                "max_priority_fee_per_gas".into(),
                json!(format!("0x{tip:x}")),
            );
        }
    } else if legacy && !has("gas_price") {
        let price = request(rpc_url, "eth_gasPrice", json!([]))
            .await
            .map_err(|e| unreachable(&e))?;
        fields.insert("gas_price".into(), price);
    }
    Ok(TransactionCompletion { fields })
}

/// What the node's refusal of a transaction means for the caller.
fn refused_by_node(message: &str) -> AppError {
    let lower = message.to_ascii_lowercase();
    if lower.contains("insufficient funds") || lower.contains("insufficient balance") {
        AppError::new(
            ServerErrorCode::InsufficientFunds,
            "The wallet's balance does not cover the value and the gas",
        )
    } else {
        AppError::new(
            ServerErrorCode::TransactionBroadcastFailure,
            format!("The chain refused the transaction: {message}"),
        )
    }
}

/// Broadcasts `signed` (0x hex); its hash as the node reports it.
pub async fn broadcast(rpc_url: &str, signed: &str) -> Result<String, AppError> {
    match request(rpc_url, "eth_sendRawTransaction", json!([signed])).await {
        Ok(Value::String(hash)) => Ok(hash),
        Ok(other) => Err(unreachable(&ChainRpcError::Rpc(other.to_string()))),
        Err(ChainRpcError::Reverted(message)) => Err(refused_by_node(&message)),
        Err(e) => Err(unreachable(&e)),
    }
}
