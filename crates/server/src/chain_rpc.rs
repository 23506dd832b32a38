//! JSON-RPC calls to a chain node — Farcaster's ID registry and contract wallets' signature checks
//! `eth_call` it, the wallet API fills and broadcasts transactions with it — through the outbound
//! client (timeouts, no redirects), answers capped at 64 KiB.

use serde_json::{Value, json};
use symbolon_wallet_core::{decode_hex, encode_hex};

use crate::outbound_http::{OutboundHttpError, outbound_client, read_capped};

/// Why a call gave no result.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ChainRpcError {
    /// The endpoint was not reachable or timed out.
    #[error("chain RPC unreachable: {0}")]
    Transport(#[from] OutboundHttpError),
    /// The endpoint answered something that is not a JSON-RPC result.
    #[error("chain RPC answered: {0}")]
    Rpc(String),
    /// The node refused the call (a revert of an `eth_call`: code 3, or -32000 on some nodes; a
    /// transaction the node will not take): an answer, not an outage.
    #[error("the node refused: {0}")]
    Reverted(String),
}

/// One `eth_call` of `data` at the latest block; `to: None` runs creation code (a deployless call).
pub async fn eth_call(
    rpc_url: &str,
    to: Option<&str>,
    data: &[u8],
) -> Result<Vec<u8>, ChainRpcError> {
    let mut call = json!({ "data": encode_hex(data) });
    if let Some(to) = to {
        call["to"] = json!(to);
    }
    let result = request(rpc_url, "eth_call", json!([call, "latest"])).await?;
    let hex = result
        .as_str()
        .ok_or_else(|| ChainRpcError::Rpc(result.to_string()))?;
    decode_hex(hex).map_err(|e| ChainRpcError::Rpc(e.to_string()))
}

/// One JSON-RPC call: its `result`, or the node's error.
pub async fn request(rpc_url: &str, method: &str, params: Value) -> Result<Value, ChainRpcError> {
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
    let response = outbound_client()?
        .post(rpc_url)
        .json(&body)
        .send()
        .await
        .map_err(|e| OutboundHttpError::Transport(e.without_url().to_string()))?;
    let mut answer: Value = serde_json::from_slice(&read_capped(response, 64 * 1024).await?)
        .map_err(|e| ChainRpcError::Rpc(e.to_string()))?;
    match (answer.get_mut("result").map(Value::take), &answer["error"]) {
        (Some(result), error) if !error.is_object() => Ok(result),
        (_, error) if error.is_object() => Err(ChainRpcError::Reverted(error.to_string())),
        _ => Err(ChainRpcError::Rpc(answer.to_string())),
    }
}
