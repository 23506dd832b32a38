use serde_json::json;

use super::*;

/// Tests build requests with `serde_json::json!` and feed their text to the real parser.
impl Transaction {
    fn from_test_value(value: &serde_json::Value) -> Result<Self> {
        Self::from_json(&value.to_string())
    }
}
use crate::chains::ethereum::recover_address;
use crate::encode_hex;

fn key(byte_hex: &str) -> PrivateKey {
    PrivateKey::from_bytes(&crate::decode_hex(byte_hex).unwrap()).unwrap()
}

/// The example of EIP-155 itself.
#[test]
fn eip155_example() {
    let tx = Transaction::from_test_value(&json!({
        "type": "0x0",
        "nonce": 9,
        "gasPrice": "20000000000",
        "gas": 21000,
        "to": "0x3535353535353535353535353535353535353535",
        "value": "1000000000000000000",
        "data": "0x",
        "chainId": 1
    }))
    .unwrap();
    assert_eq!(
        encode_hex(&tx.signing_payload()),
        "0xec098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a764000080018080"
    );
    assert_eq!(
        encode_hex(&tx.signing_hash()),
        "0xdaf5a779ae972f972197303d7b574746c7ef83eadac0f2791ad23db92e4c8e53"
    );
    let signer = key(&format!("0x{}", "46".repeat(32)));
    let signed = sign_transaction(&signer, &tx).unwrap();
    assert_eq!(
        encode_hex(&signed.raw),
        "0xf86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83"
    );
    assert_eq!(signed.hash, crate::chains::ethereum::keccak256(&signed.raw));
}

/// viem's `signTransaction` vector (Anvil account 0, EIP-1559, chain 1).
#[test]
fn eip1559_viem_vector() {
    let tx = Transaction::from_json(
        r#"{"chainId":1,"nonce":0,"maxFeePerGas":"0x4a817c800","maxPriorityFeePerGas":"0x0",
            "gas":"21000","to":"0x70997970c51812dc3a010c7d01b50e0d17dc79c8","value":"1000000000000000000"}"#,
    )
    .unwrap();
    assert_eq!(tx.kind, TxKind::Eip1559);
    let signer = key("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
    let signed = sign_transaction(&signer, &tx).unwrap();
    assert_eq!(
        encode_hex(&signed.raw),
        "0x02f86f0180808504a817c8008252089470997970c51812dc3a010c7d01b50e0d17dc79c8880de0b6b3a764000080c001a0f40a2d2ae9638056cafbe9083c7125edc8555e0e715db0984dd859a5c6dfac57a020f36fd0b32bef4d6d75c62f220e59c5fb60c244ca3b361e750985ee5c3a0931"
    );
}

#[test]
fn eip2930_with_access_list_recovers() {
    let tx = Transaction::from_test_value(&json!({
        "chainId": "0xc488",
        "nonce": "0x1",
        "gasPrice": "0x3b9aca00",
        "gasLimit": "0x7530",
        "to": null,
        "input": "0x6000",
        "accessList": [{
            "address": "0x3535353535353535353535353535353535353535",
            "storageKeys": [format!("0x{}", "00".repeat(31) + "01")]
        }]
    }))
    .unwrap();
    assert_eq!(tx.kind, TxKind::Eip2930);
    let signer = key(&format!("0x{}", "46".repeat(32)));
    let signed = sign_transaction(&signer, &tx).unwrap();
    assert_eq!(signed.raw[0], 0x01);
    // Payload: type 1 || rlp([chainId, nonce, gasPrice, gas, to="", value=0, data, accessList]).
    let payload = encode_hex(&tx.signing_payload());
    assert!(payload.starts_with("0x01f8"), "{payload}");
    assert!(
        payload.contains("82c48801843b9aca00827530808082600"),
        "{payload}"
    );
    // The signature in the raw transaction recovers to the signer.
    let n = signed.raw.len();
    let signature = crate::chains::ethereum::Signature {
        r: signed.raw[n - 65..n - 33].try_into().unwrap(),
        s: signed.raw[n - 32..].try_into().unwrap(),
        y_parity: signed.raw[n - 67] == 1,
    };
    assert_eq!(
        recover_address(&tx.signing_hash(), &signature).unwrap(),
        signer.address()
    );
}

#[test]
fn rejects_inconsistent_requests() {
    let code = |value: serde_json::Value| {
        Transaction::from_test_value(&value)
            .map(|_| ())
            .map_err(|e| e.code())
    };
    let base = json!({ "chainId": 1, "nonce": 0, "gas": 21000, "gasPrice": 1, "to": "0x3535353535353535353535353535353535353535" });
    assert_eq!(code(base.clone()), Ok(()));
    let with = |key: &str, value: serde_json::Value| {
        let mut tx = base.clone();
        tx[key] = value;
        code(tx)
    };
    assert_eq!(with("maxFeePerGas", json!(2)), Err("invalid_transaction"));
    assert_eq!(with("type", json!("0x2")), Err("invalid_transaction"));
    assert_eq!(with("type", json!(3)), Err("invalid_transaction"));
    assert_eq!(with("chainId", json!(0)), Err("invalid_transaction"));
    assert_eq!(with("chainId", json!(f64::MAX)), Err("invalid_number"));
    assert_eq!(
        with("chainId", json!("0x10000000000000000")),
        Err("number_out_of_range")
    );
    assert_eq!(with("chainId", json!(1.5)), Err("invalid_number"));
    assert_eq!(with("value", json!("Infinity")), Err("non_finite_number"));
    assert_eq!(with("value", json!(-1)), Err("number_out_of_range"));
    assert_eq!(with("to", json!("0x1234")), Err("invalid_address"));
    assert_eq!(with("data", json!("0xabc")), Err("invalid_hex"));
    assert_eq!(with("gasLimit", json!(5)), Err("invalid_transaction"));
    assert_eq!(with("nonce", json!(null)), Err("invalid_transaction"));
    assert_eq!(code(json!("0x")), Err("invalid_transaction"));
    let mut priority_over_cap = base.clone();
    priority_over_cap
        .as_object_mut()
        .unwrap()
        .remove("gasPrice");
    priority_over_cap["maxFeePerGas"] = json!(1);
    priority_over_cap["maxPriorityFeePerGas"] = json!(2);
    assert_eq!(code(priority_over_cap), Err("invalid_transaction"));

    let mut wrong_from = base;
    wrong_from["from"] = json!("0x3535353535353535353535353535353535353535");
    let tx = Transaction::from_test_value(&wrong_from).unwrap();
    assert!(sign_transaction(&key(&format!("0x{}", "46".repeat(32))), &tx).is_err());
}
