//! The fid's custody address, read from Farcaster's ID registry (`IdRegistry.custodyOf(uint256)`
//! on Optimism) with one `eth_call` over the configured JSON-RPC endpoint. Dev and tests point
//! it at the local chain, where `tools/stack/src/farcasterRelay.mjs` places a stand-in.

use symbolon_wallet_core::chains::ethereum::{Address, keccak256};

use crate::chain_rpc::{ChainRpcError, eth_call};

/// The custody address of `fid`; `None` when the fid is not registered (address zero).
pub async fn custody_of(
    rpc_url: &str,
    registry: &str,
    fid: u64,
) -> Result<Option<Address>, ChainRpcError> {
    // ABI: the 4-byte selector of `custodyOf(uint256)`, then the fid as a 32-byte word.
    let mut data = keccak256(b"custodyOf(uint256)")[..4].to_vec();
    data.extend_from_slice(&[0; 24]);
    data.extend_from_slice(&fid.to_be_bytes());
    let word = eth_call(rpc_url, Some(registry), &data).await?;
    if word.len() != 32 || word[..12].iter().any(|b| *b != 0) {
        return Err(ChainRpcError::Rpc("not an address".into()));
    }
    let mut address = [0u8; 20];
    address.copy_from_slice(&word[12..]);
    Ok((address != [0; 20]).then_some(Address(address)))
}
