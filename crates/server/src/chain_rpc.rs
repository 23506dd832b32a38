//! `eth_call` over a chain node's JSON-RPC endpoint — Farcaster's ID registry and contract wallets'
//! signature checks ask the chain this way — through the outbound client (timeouts, no redirects),
//! answers capped at 64 KiB.

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
    /// The call reverted (JSON-RPC error code 3, or -32000 on some nodes): an answer, not an outage.
    #[error("execution reverted: {0}")]
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
    let body =
        json!({ "jsonrpc": "2.0", "id": 1, "method": "eth_call", "params": [call, "latest"] });
    let response = outbound_client()?
        .post(rpc_url)
        .json(&body)
        .send()
        .await
        .map_err(|e| OutboundHttpError::Transport(e.without_url().to_string()))?;
    let answer: Value = serde_json::from_slice(&read_capped(response, 64 * 1024).await?)
        .map_err(|e| ChainRpcError::Rpc(e.to_string()))?;
    match (answer["result"].as_str(), &answer["error"]) {
        (Some(result), _) => decode_hex(result).map_err(|e| ChainRpcError::Rpc(e.to_string())),
        (None, error) if error.is_object() => Err(ChainRpcError::Reverted(error.to_string())),
        (None, _) => Err(ChainRpcError::Rpc(answer.to_string())),
    }
}
