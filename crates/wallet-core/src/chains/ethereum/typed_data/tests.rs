use serde_json::{Value, json};

use super::*;

/// Tests build documents with `serde_json::json!` and feed their text to the real parser.
impl TypedData {
    fn from_test_value(value: Value) -> Result<Self> {
        Self::from_json(&value.to_string())
    }
}
use crate::chains::ethereum::{PrivateKey, keccak256, recover_address};
use crate::encode_hex;

/// The "Mail" example of EIP-712 (assets/eip-712/Example.js).
fn mail() -> Value {
    json!({
        "types": {
            "EIP712Domain": [
                { "name": "name", "type": "string" },
                { "name": "version", "type": "string" },
                { "name": "chainId", "type": "uint256" },
                { "name": "verifyingContract", "type": "address" }
            ],
            "Person": [
                { "name": "name", "type": "string" },
                { "name": "wallet", "type": "address" }
            ],
            "Mail": [
                { "name": "from", "type": "Person" },
                { "name": "to", "type": "Person" },
                { "name": "contents", "type": "string" }
            ]
        },
        "primaryType": "Mail",
        "domain": {
            "name": "Ether Mail",
            "version": "1",
            "chainId": 1,
            "verifyingContract": "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"
        },
        "message": {
            "from": { "name": "Cow", "wallet": "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826" },
            "to": { "name": "Bob", "wallet": "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB" },
            "contents": "Hello, Bob!"
        }
    })
}

/// The EIP's example key: keccak256("cow").
fn cow() -> PrivateKey {
    PrivateKey::from_bytes(&keccak256(b"cow")).unwrap()
}

#[test]
fn eip712_mail_example() {
    let data = TypedData::from_test_value(mail()).unwrap();
    assert_eq!(
        encode::encode_type(&data.types, "Mail"),
        "Mail(Person from,Person to,string contents)Person(string name,address wallet)"
    );
    assert_eq!(
        encode_hex(&data.domain_separator().unwrap()),
        "0xf2cee375fa42b42143804025fc449deafd50cc031ca257e0b194a650a912090f"
    );
    assert_eq!(
        encode_hex(&data.struct_hash().unwrap()),
        "0xc52c0ee5d84264471806290a3f2c4cecfc5490626bf912d01f240d7a274b371e"
    );
    let hash = data.signing_hash().unwrap();
    assert_eq!(
        encode_hex(&hash),
        "0xbe609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2"
    );
    let key = cow();
    assert_eq!(
        key.address().to_checksum(),
        "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"
    );
    let signature = sign_typed_data(&key, &data).unwrap();
    assert_eq!(
        signature.to_hex(),
        "0x4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d07299936d304c153f6443dfa05f40ff007d72911b6f72307f996231605b915621c"
    );
    assert_eq!(recover_address(&hash, &signature).unwrap(), key.address());
}

/// eth-sig-util's `signTypedData_v4` example (struct arrays, address arrays, unused type).
#[test]
fn eth_sig_util_v4_arrays() {
    let data = json!({
        "types": {
            "EIP712Domain": [
                { "name": "name", "type": "string" },
                { "name": "version", "type": "string" },
                { "name": "chainId", "type": "uint256" },
                { "name": "verifyingContract", "type": "address" }
            ],
            "Group": [ { "name": "name", "type": "string" }, { "name": "members", "type": "Person[]" } ],
            "Mail": [
                { "name": "from", "type": "Person" },
                { "name": "to", "type": "Person[]" },
                { "name": "contents", "type": "string" }
            ],
            "Person": [ { "name": "name", "type": "string" }, { "name": "wallets", "type": "address[]" } ]
        },
        "primaryType": "Mail",
        "domain": {
            "name": "Ether Mail",
            "version": "1",
            "chainId": 1,
            "verifyingContract": "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"
        },
        "message": {
            "from": {
                "name": "Cow",
                "wallets": ["0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826", "0xdeadbeefdeadbeefdeadbeefdeadbeefdeadbeef"]
            },
            "to": [{
                "name": "Bob",
                "wallets": [
                    "0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
                    "0xb0bdabea57b0bdabea57b0bdabea57b0bdabea57",
                    "0xb0b0b0b0b0b0b000000000000000000000000000"
                ]
            }],
            "contents": "Hello, Bob!"
        }
    });
    let data = TypedData::from_test_value(data).unwrap();
    assert_eq!(
        encode_hex(&keccak256(
            encode::encode_type(&data.types, "Mail").as_bytes()
        )),
        "0x4bd8a9a2b93427bb184aca81e24beb30ffa3c747e2a33d4225ec08bf12e2e753"
    );
    assert_eq!(
        encode_hex(&data.struct_hash().unwrap()),
        "0xeb4221181ff3f1a83ea7313993ca9218496e424604ba9492bb4052c03d5c3df8"
    );
    assert_eq!(
        encode_hex(&data.signing_hash().unwrap()),
        "0xa85c2e2b118698e88db68a8105b794a8cc7cec074e89ef991cb4f5f533819cc2"
    );
    assert_eq!(
        sign_typed_data(&cow(), &data).unwrap().to_hex(),
        "0x65cbd956f2fae28a601bebc9b906cea0191744bd4c4247bcd27cd08f8eb6b71c78efdf7a31dc9abee78f492292721f362d296cf86b4538e07b51303b67f749061b"
    );
}

fn with_message(types: Value, message: Value) -> Result<B256> {
    TypedData::from_test_value(json!({
        "types": types,
        "primaryType": "T",
        "domain": { "name": "x", "chainId": "0x1" },
        "message": message,
    }))?
    .signing_hash()
}

#[test]
fn atomic_types_encode() {
    let types = json!({ "T": [
        { "name": "a", "type": "bytes" },
        { "name": "b", "type": "bytes4" },
        { "name": "c", "type": "int8" },
        { "name": "d", "type": "uint256[2]" },
        { "name": "e", "type": "bool" },
        { "name": "f", "type": "int256" }
    ]});
    let ok =
        json!({ "a": "0x", "b": "0x01020304", "c": -128, "d": ["1", "0x2"], "e": true, "f": "-1" });
    assert!(with_message(types.clone(), ok.clone()).is_ok());
    // Domain without EIP712Domain in types is inferred from the domain keys.
    let same_numbers =
        json!({ "a": "0x", "b": "0x01020304", "c": "-128", "d": [1, 2], "e": true, "f": -1 });
    assert_eq!(
        with_message(types.clone(), ok.clone()).unwrap(),
        with_message(types.clone(), same_numbers).unwrap()
    );

    let reject = |patch: Value| {
        let mut message = ok.clone();
        for (k, v) in patch.as_object().unwrap() {
            message[k] = v.clone();
        }
        with_message(types.clone(), message).map_err(|e| e.code())
    };
    assert_eq!(reject(json!({ "c": 128 })), Err("number_out_of_range"));
    assert_eq!(reject(json!({ "c": "NaN" })), Err("non_finite_number"));
    assert_eq!(reject(json!({ "f": "Infinity" })), Err("non_finite_number"));
    assert_eq!(reject(json!({ "f": 1.5 })), Err("invalid_number"));
    assert_eq!(
        reject(json!({ "b": "0x010203" })),
        Err("invalid_typed_data")
    );
    assert_eq!(reject(json!({ "a": "hello" })), Err("invalid_typed_data"));
    assert_eq!(reject(json!({ "d": [1] })), Err("invalid_typed_data"));
    assert_eq!(reject(json!({ "e": "true" })), Err("invalid_typed_data"));
}

#[test]
fn rejects_malformed_typed_data() {
    let code = |value: Value| {
        TypedData::from_test_value(value)
            .map(|_| ())
            .map_err(|e| e.code())
    };
    let mut bad = mail();
    bad["primaryType"] = json!("Nope");
    assert_eq!(code(bad), Err("invalid_typed_data"));
    let mut bad = mail();
    bad["types"]["Person"][1]["type"] = json!("uint7");
    assert_eq!(code(bad), Err("invalid_typed_data"));
    let mut bad = mail();
    bad["types"]["Person"][1]["type"] = json!("Person[");
    assert_eq!(code(bad), Err("invalid_typed_data"));
    assert_eq!(code(json!([])), Err("invalid_typed_data"));
    let mut bad = mail();
    bad["message"]["from"]["wallet"] = json!("0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD82");
    assert_eq!(
        TypedData::from_test_value(bad)
            .unwrap()
            .signing_hash()
            .map_err(|e| e.code()),
        Err("invalid_address")
    );
    let mut bad = mail();
    bad["message"]["to"] = json!(null);
    assert_eq!(
        TypedData::from_test_value(bad)
            .unwrap()
            .signing_hash()
            .map_err(|e| e.code()),
        Err("invalid_typed_data")
    );
    // Bare NaN / Infinity are not JSON: the parser (JSON.parse in the frame) refuses them.
    assert_eq!(
        TypedData::from_json("{\"a\": NaN}")
            .map(|_| ())
            .map_err(|e| e.code()),
        Err("invalid_json")
    );
    let mut bad = mail();
    bad["domain"]["chainId"] = json!("NaN");
    assert_eq!(
        TypedData::from_test_value(bad)
            .unwrap()
            .signing_hash()
            .map_err(|e| e.to_string()),
        Err("non-finite number not allowed: EIP712Domain.chainId".to_owned())
    );
    assert_eq!(
        TypedData::from_json("{\"a\": 1,}")
            .map(|_| ())
            .map_err(|e| e.code()),
        Err("invalid_json")
    );
}

#[test]
fn recursive_types_are_bounded() {
    let types = json!({ "T": [ { "name": "next", "type": "T[]" } ] });
    let mut message = json!({ "next": [] });
    for _ in 0..40 {
        message = json!({ "next": [message] });
    }
    assert_eq!(
        with_message(types.clone(), message).map_err(|e| e.code()),
        Err("invalid_typed_data")
    );
    assert!(with_message(types, json!({ "next": [{ "next": [] }] })).is_ok());
}
