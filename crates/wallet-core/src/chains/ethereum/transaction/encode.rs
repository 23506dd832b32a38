//! RLP encoding of transactions (`alloy-rlp` does the RLP; this file orders the fields).

use alloy_rlp::{Encodable, Header};

use super::{Transaction, TxKind};
use crate::chains::ethereum::Signature;
use crate::chains::ethereum::uint::trim_word;
use crate::{Result, WalletError};

fn push_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    bytes.encode(out);
}

fn push_u64(out: &mut Vec<u8>, value: u64) {
    value.encode(out);
}

fn push_word(out: &mut Vec<u8>, word: &[u8; 32]) {
    // An RLP integer is its minimal big-endian byte string.
    push_bytes(out, trim_word(word));
}

fn list(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(payload.len() + 9);
    Header {
        list: true,
        payload_length: payload.len(),
    }
    .encode(&mut out);
    out.extend_from_slice(payload);
    out
}

fn access_list(tx: &Transaction) -> Vec<u8> {
    let mut items = Vec::new();
    for item in &tx.access_list {
        let mut keys = Vec::with_capacity(33 * item.storage_keys.len());
        for key in &item.storage_keys {
            push_bytes(&mut keys, key);
        }
        let mut entry = Vec::new();
        push_bytes(&mut entry, &item.address.0);
        entry.extend_from_slice(&list(&keys));
        items.extend_from_slice(&list(&entry));
    }
    list(&items)
}

/// The fields shared by every envelope before the signature, in envelope order.
fn fields(tx: &Transaction) -> Vec<u8> {
    let mut out = Vec::new();
    if tx.kind != TxKind::Legacy {
        push_u64(&mut out, tx.chain_id);
    }
    push_u64(&mut out, tx.nonce);
    match tx.kind {
        TxKind::Legacy | TxKind::Eip2930 => push_word(&mut out, &tx.gas_price),
        TxKind::Eip1559 => {
            push_word(&mut out, &tx.max_priority_fee_per_gas);
            push_word(&mut out, &tx.max_fee_per_gas);
        }
    }
    push_u64(&mut out, tx.gas_limit);
    push_bytes(
        &mut out,
        tx.to.as_ref().map(|a| a.0.as_slice()).unwrap_or_default(),
    );
    push_word(&mut out, &tx.value);
    push_bytes(&mut out, &tx.data);
    if tx.kind != TxKind::Legacy {
        out.extend_from_slice(&access_list(tx));
    }
    out
}

fn type_prefixed(tx: &Transaction, payload: &[u8]) -> Vec<u8> {
    let body = list(payload);
    match tx.kind {
        TxKind::Legacy => body,
        TxKind::Eip2930 => [&[0x01], body.as_slice()].concat(),
        TxKind::Eip1559 => [&[0x02], body.as_slice()].concat(),
    }
}

/// Signing payload: legacy `rlp([.., chainId, 0, 0])` (EIP-155), typed `type || rlp([..])`.
pub(super) fn unsigned(tx: &Transaction) -> Vec<u8> {
    let mut payload = fields(tx);
    if tx.kind == TxKind::Legacy {
        push_u64(&mut payload, tx.chain_id);
        push_u64(&mut payload, 0);
        push_u64(&mut payload, 0);
    }
    type_prefixed(tx, &payload)
}

/// Signed envelope: legacy `v = chainId * 2 + 35 + parity` (EIP-155), typed `yParity`.
pub(super) fn signed(tx: &Transaction, signature: &Signature) -> Result<Vec<u8>> {
    let mut payload = fields(tx);
    let parity = u64::from(signature.y_parity);
    let v = match tx.kind {
        TxKind::Legacy => tx
            .chain_id
            .checked_mul(2)
            .and_then(|v| v.checked_add(35 + parity))
            .ok_or_else(|| {
                WalletError::InvalidTransaction("chain id too large for EIP-155".into())
            })?,
        TxKind::Eip2930 | TxKind::Eip1559 => parity,
    };
    push_u64(&mut payload, v);
    push_word(&mut payload, &signature.r);
    push_word(&mut payload, &signature.s);
    Ok(type_prefixed(tx, &payload))
}
