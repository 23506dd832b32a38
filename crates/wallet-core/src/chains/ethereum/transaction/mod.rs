//! Transaction requests (legacy with EIP-155, EIP-2930, EIP-1559): parsing, signing, encoding.

mod encode;
mod parse;

use crate::chains::ethereum::keccak::keccak256;
use crate::chains::ethereum::{Address, B256, PrivateKey};
use crate::{Result, WalletError};

/// The transaction envelope type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TxKind {
    /// Type 0, signed with an EIP-155 replay-protected `v`.
    Legacy,
    /// Type 1 (EIP-2930): gas price plus access list.
    Eip2930,
    /// Type 2 (EIP-1559): priority fee and fee cap plus access list.
    Eip1559,
}

/// One access-list entry: an address and the storage keys it touches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccessListItem {
    /// The accessed contract.
    pub address: Address,
    /// The accessed storage slots.
    pub storage_keys: Vec<B256>,
}

/// A validated, unsigned transaction. 256-bit quantities are big-endian words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transaction {
    /// Envelope type.
    pub kind: TxKind,
    /// EIP-155 chain id.
    pub chain_id: u64,
    /// Sender nonce.
    pub nonce: u64,
    /// Gas limit.
    pub gas_limit: u64,
    /// Gas price (legacy and EIP-2930).
    pub gas_price: B256,
    /// Fee cap (EIP-1559).
    pub max_fee_per_gas: B256,
    /// Priority fee (EIP-1559).
    pub max_priority_fee_per_gas: B256,
    /// Recipient; `None` creates a contract.
    pub to: Option<Address>,
    /// Value in wei.
    pub value: B256,
    /// Call data.
    pub data: Vec<u8>,
    /// Access list (EIP-2930 and EIP-1559).
    pub access_list: Vec<AccessListItem>,
    /// The `from` the request named, if any; signing checks it against the key.
    pub from: Option<Address>,
}

/// A signed transaction ready for `eth_sendRawTransaction`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedTransaction {
    /// The signed raw transaction (RLP, type-prefixed for typed transactions).
    pub raw: Vec<u8>,
    /// The transaction hash, `keccak256(raw)`.
    pub hash: B256,
}

impl Transaction {
    /// Parses a JSON transaction request (`eth_signTransaction` shape; quantities as hex or
    /// decimal strings or safe-integer numbers; `gas`/`gasLimit`, `data`/`input` accepted).
    /// Native only: in the wallet frame the browser's `JSON.parse` reads the text.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn from_json(json: &str) -> Result<Self> {
        Self::from_value(&crate::json::parse(json)?)
    }

    /// Validates an already parsed transaction request.
    pub(crate) fn from_value(value: &crate::json::Json) -> Result<Self> {
        parse::from_value(value)
    }

    /// The bytes whose Keccak-256 is signed (EIP-155 / EIP-2718 signing payload).
    pub fn signing_payload(&self) -> Vec<u8> {
        encode::unsigned(self)
    }

    /// `keccak256` of [`Transaction::signing_payload`].
    pub fn signing_hash(&self) -> B256 {
        keccak256(&self.signing_payload())
    }
}

/// Signs `tx` with `key`, returning the raw signed transaction and its hash.
/// Fails when the request's `from` is not the key's address.
pub fn sign_transaction(key: &PrivateKey, tx: &Transaction) -> Result<SignedTransaction> {
    if let Some(from) = tx.from
        && from != key.address()
    {
        return Err(WalletError::InvalidTransaction(
            [
                "from ",
                &from.to_checksum(),
                " is not the signing wallet ",
                &key.address().to_checksum(),
            ]
            .concat(),
        ));
    }
    let signature = key.sign_hash(&tx.signing_hash())?;
    let raw = encode::signed(tx, &signature)?;
    let hash = keccak256(&raw);
    Ok(SignedTransaction { raw, hash })
}

#[cfg(test)]
mod tests;
