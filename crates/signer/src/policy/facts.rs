//! Facts about what is to be signed that no rule names but the evaluator must know.

use alloy_rlp::Header;

/// Whether `bytes` are an Ethereum transaction's signing payload or raw form: an RLP list of at
/// least 6 items (legacy), or a type byte 0x01–0x04 and such a list (EIP-2718). Signing such a
/// message blindly could sign a transaction, so only a rule of the message's own method may allow it.
pub fn looks_like_transaction(bytes: &[u8]) -> bool {
    let list = match bytes.first() {
        Some(0x01..=0x04) => &bytes[1..],
        _ => bytes,
    };
    rlp_list_items(list).is_some_and(|items| items >= 6)
}

/// How many items the RLP list that is exactly `bytes` holds.
fn rlp_list_items(bytes: &[u8]) -> Option<usize> {
    let mut rest = bytes;
    let header = Header::decode(&mut rest).ok()?;
    if !header.list || rest.len() != header.payload_length {
        return None;
    }
    let mut items = 0;
    while !rest.is_empty() {
        let item = Header::decode(&mut rest).ok()?;
        rest = rest.get(item.payload_length..)?;
        items += 1;
    }
    Some(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transactions_are_recognised_and_text_is_not() {
        // An unsigned EIP-1559 transaction's signing payload: 0x02 ‖ rlp([chainId, nonce, tip,
        // maxFee, gas, to, value, data, accessList]).
        let mut payload = vec![
            0x02, 0xdd, 0x82, 0xc4, 0x88, 0x80, 0x01, 0x02, 0x82, 0x52, 0x08,
        ];
        payload.extend([0x94]);
        payload.extend([0x11; 20]);
        payload.extend([0x01, 0x80, 0xc0]);
        payload[1] = 0xc0 + (payload.len() - 2) as u8;
        assert!(looks_like_transaction(&payload));
        assert!(
            looks_like_transaction(&payload[1..]),
            "as a legacy-shaped list"
        );
        assert!(!looks_like_transaction(b"Sign in to Shop"));
        assert!(
            !looks_like_transaction(&[0xc3, 0x01, 0x02, 0x03]),
            "3 items"
        );
        assert!(
            !looks_like_transaction(&payload[..payload.len() - 1]),
            "cut short"
        );
        assert!(!looks_like_transaction(&[]));
    }
}
