//! The fid's custody address, read from Farcaster's ID registry (`IdRegistry.custodyOf(uint256)`
//! on Optimism) with one `eth_call` over the configured JSON-RPC endpoint. Dev and tests point
//! it at the local chain, where `tools/stack/src/farcasterRelay.mjs` places a stand-in.

use serde_json::{Value, json};
use symbolon_wallet_core::{Address, decode_hex, encode_hex, keccak256};

use crate::outbound_http::{OutboundHttpError, outbound_client, read_capped};

/// Why the registry could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RegistryError {
    /// The RPC endpoint was not reachable or timed out.
    #[error("chain RPC unreachable: {0}")]
    Transport(#[from] OutboundHttpError),
    /// The endpoint answered an error or something that is not an ABI-encoded address.
    #[error("chain RPC answered: {0}")]
    Rpc(String),
}

/// The custody address of `fid`; `None` when the fid is not registered (address zero).
pub async fn custody_of(
    rpc_url: &str,
    registry: &str,
    fid: u64,
) -> Result<Option<Address>, RegistryError> {
    // ABI: the 4-byte selector of `custodyOf(uint256)`, then the fid as a 32-byte word.
    let mut data = keccak256(b"custodyOf(uint256)")[..4].to_vec();
    data.extend_from_slice(&[0; 24]);
    data.extend_from_slice(&fid.to_be_bytes());
    let body = json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "eth_call",
        "params": [{"to": registry, "data": encode_hex(&data)}, "latest"],
    });
    let response = outbound_client()?
        .post(rpc_url)
        .json(&body)
        .send()
        .await
        .map_err(|e| OutboundHttpError::Transport(e.without_url().to_string()))?;
    let answer: Value = serde_json::from_slice(&read_capped(response, 64 * 1024).await?)
        .map_err(|e| RegistryError::Rpc(e.to_string()))?;
    let result = answer["result"]
        .as_str()
        .ok_or_else(|| RegistryError::Rpc(answer["error"].to_string()))?;
    let word = decode_hex(result).map_err(|e| RegistryError::Rpc(e.to_string()))?;
    if word.len() != 32 || word[..12].iter().any(|b| *b != 0) {
        return Err(RegistryError::Rpc("not an address".into()));
    }
    let mut address = [0u8; 20];
    address.copy_from_slice(&word[12..]);
    Ok((address != [0; 20]).then_some(Address(address)))
}
