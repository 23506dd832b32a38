//! Whose signature a SIWE signature is: an EOA's (ECDSA recovery of the EIP-191 hash), a
//! deployed contract wallet's (EIP-1271 `isValidSignature` by `eth_call`), or a not yet
//! deployed one's (EIP-6492: one `eth_call` of the deployless validator in
//! `Eip6492Validator.sol`, which deploys the wallet inside the call and asks it).

use symbolon_wallet_core::chains::ethereum::{
    Address, keccak256, personal_sign_hash, recover_personal_signer,
};

use crate::chain_rpc::{self, ChainRpcError};

/// EIP-6492: the last 32 bytes of a counterfactual wallet's signature.
pub const ERC6492_SUFFIX: [u8; 32] = [
    0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92,
    0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92,
];
/// EIP-1271: the whole ABI-encoded answer of `isValidSignature` for a valid signature — the
/// `bytes4` magic value `0x1626ba7e` left-aligned in one 32-byte word. Nothing else is accepted:
/// not a longer answer that merely starts with it (the identity precompile `0x…04` echoes the
/// call, whose selector is the magic value), not dirty padding.
const ERC1271_MAGIC_WORD: [u8; 32] = [
    0x16, 0x26, 0xba, 0x7e, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0,
];
/// Creation code of `Eip6492Validator.sol` (built by `tests/contracts/build.mjs`).
const VALIDATOR_CODE: &str = include_str!("eip6492_validator.hex");
/// The most signature bytes accepted (a Safe with many owners stays far below).
pub const MAX_SIGNATURE_LEN: usize = 8192;

/// Why a contract wallet could not be asked.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ChainError {
    /// The app has no RPC endpoint for the message's chain.
    #[error("no RPC endpoint for chain {0}")]
    NoRpc(u64),
    /// The endpoint was unreachable or answered no JSON-RPC result.
    #[error(transparent)]
    Chain(#[from] ChainRpcError),
}

/// Who may have signed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signer {
    /// An EOA (ECDSA) or a contract wallet (EIP-1271, EIP-6492): sign-in and link.
    Any,
    /// A contract wallet only: `link_smart_wallet`. The EOA shortcut is skipped, so the answer
    /// is the code's at the address (a deployed wallet's `isValidSignature`; an address without
    /// code answers nothing) or the EIP-6492 validator's, which requires code after the factory
    /// call.
    Contract,
}

/// Whether `signature` is `address`'s signature of `message` (EIP-191). `rpc_url` is the
/// endpoint of the message's chain, if the app has one; without it only EOAs verify.
pub async fn is_valid_signature(
    message: &[u8],
    signature: &[u8],
    address: Address,
    chain_id: u64,
    rpc_url: Option<&str>,
    signer: Signer,
) -> Result<bool, ChainError> {
    let counterfactual = signature.ends_with(&ERC6492_SUFFIX);
    if signer == Signer::Any
        && !counterfactual
        && signature.len() == 65
        && recover_personal_signer(message, signature).is_ok_and(|signer| signer == address)
    {
        return Ok(true);
    }
    // Not an EOA's: only the chain can tell whether a contract wallet accepts it.
    let Some(rpc_url) = rpc_url else {
        return Err(ChainError::NoRpc(chain_id));
    };
    let hash = personal_sign_hash(message);
    if counterfactual {
        // Deployless: creation code, then the constructor's arguments; no `to`.
        let mut data = hex_bytes(VALIDATOR_CODE.trim())?;
        data.extend_from_slice(&word_address(address));
        data.extend_from_slice(&hash[..]);
        data.extend_from_slice(&word_u64(96));
        data.extend_from_slice(&abi_bytes(signature));
        let result = eth_call(rpc_url, None, &data).await?;
        return Ok(result == [1]);
    }
    // isValidSignature(bytes32 hash, bytes signature)
    let mut data = keccak256(b"isValidSignature(bytes32,bytes)")[..4].to_vec();
    data.extend_from_slice(&hash[..]);
    data.extend_from_slice(&word_u64(64));
    data.extend_from_slice(&abi_bytes(signature));
    let result = eth_call(rpc_url, Some(address), &data).await?;
    Ok(result == ERC1271_MAGIC_WORD)
}

/// One `eth_call`; a revert answers empty bytes (a contract that reverts did not accept the signature).
async fn eth_call(rpc_url: &str, to: Option<Address>, data: &[u8]) -> Result<Vec<u8>, ChainError> {
    let to = to.map(|address| address.to_checksum());
    match chain_rpc::eth_call(rpc_url, to.as_deref(), data).await {
        Err(ChainRpcError::Reverted(error)) => {
            tracing::debug!(%error, "eth_call reverted");
            Ok(Vec::new())
        }
        answer => Ok(answer?),
    }
}

fn hex_bytes(text: &str) -> Result<Vec<u8>, ChainError> {
    symbolon_wallet_core::decode_hex(text)
        .map_err(|e| ChainError::Chain(ChainRpcError::Rpc(e.to_string())))
}

fn word_u64(value: u64) -> [u8; 32] {
    let mut word = [0u8; 32];
    word[24..].copy_from_slice(&value.to_be_bytes());
    word
}

fn word_address(address: Address) -> [u8; 32] {
    let mut word = [0u8; 32];
    word[12..].copy_from_slice(&address.0);
    word
}

/// ABI `bytes` tail: length word, then the bytes padded to a multiple of 32.
fn abi_bytes(bytes: &[u8]) -> Vec<u8> {
    let mut out = word_u64(bytes.len() as u64).to_vec();
    out.extend_from_slice(bytes);
    out.resize(32 + bytes.len().div_ceil(32) * 32, 0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abi_bytes_pads_to_words() {
        assert_eq!(abi_bytes(&[]).len(), 32);
        let one = abi_bytes(&[0xab]);
        assert_eq!(one.len(), 64);
        assert_eq!((one[31], one[32], one[33]), (1, 0xab, 0));
        assert_eq!(abi_bytes(&[7; 65]).len(), 32 + 96);
        assert!(VALIDATOR_CODE.trim().starts_with("0x6080"));
        assert_eq!(
            ERC1271_MAGIC_WORD[..4],
            keccak256(b"isValidSignature(bytes32,bytes)")[..4]
        );
        assert!(ERC1271_MAGIC_WORD[4..].iter().all(|b| *b == 0));
    }
}
