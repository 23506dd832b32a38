//! The wallet API's methods: a request body read into what is to be signed and the facts the
//! policies judge (from the body as the app signed it; the server's completion only fills the
//! transaction fields the app left out), then signed with the wallet's key.

use ruint::aliases::U256;
use serde_json::{Map, Value, json};
use symbolon_wallet_core::chains::ethereum::{
    Address, B256, MessageEncoding, PrivateKey, Transaction, TypedData, keccak256, parse_message,
    personal_sign, sign_transaction, sign_typed_data,
};
use symbolon_wallet_core::{decode_hex, encode_hex};

use crate::error::SignerError;
use crate::policy::{RequestFacts, TransactionFacts, looks_like_transaction, parse_number};
use crate::wire::TransactionCompletion;

/// Which wallet-API route the request was made to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// `POST /v1/wallets/{id}/rpc`.
    Rpc,
    /// `POST /v1/wallets/{id}/raw_sign`.
    RawSign,
}

/// What is to be signed.
#[derive(Debug, Clone)]
pub enum Call {
    /// EIP-191 `personal_sign` of these bytes.
    PersonalSign(Vec<u8>),
    /// EIP-712 typed data.
    TypedData(Box<TypedData>),
    /// A transaction; `send`: the server broadcasts it.
    Transaction {
        /// The transaction, completed.
        tx: Box<Transaction>,
        /// `eth_sendTransaction`.
        send: bool,
        /// The chain as CAIP-2.
        caip2: String,
    },
    /// A 32-byte hash, signed as is (`secp256k1_sign`, `raw_sign`).
    Hash {
        /// The hash.
        hash: B256,
        /// `secp256k1_sign` or `raw_sign`.
        method: &'static str,
    },
    /// An EIP-7702 authorization.
    Authorization {
        /// Its chain (0: any).
        chain_id: u64,
        /// The contract the wallet delegates to.
        contract: Address,
        /// The wallet's nonce.
        nonce: u64,
    },
}

/// The methods of the wallet API this signer serves (Ethereum).
pub const METHODS: &[&str] = &[
    "personal_sign",
    "eth_signTypedData_v4",
    "eth_signTransaction",
    "eth_sendTransaction",
    "eth_sign7702Authorization",
    "secp256k1_sign",
];

fn text<'a>(value: &'a Value, key: &str, at: &str) -> Result<&'a str, SignerError> {
    value
        .get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| SignerError::invalid(format!("{at}.{key} must be a string")))
}

fn hash32(text: &str, at: &str) -> Result<B256, SignerError> {
    decode_hex(text)
        .ok()
        .and_then(|bytes| <B256>::try_from(bytes.as_slice()).ok())
        .ok_or_else(|| SignerError::invalid(format!("{at} must be 32 bytes of 0x hex")))
}

fn quantity(value: &Value, at: &str) -> Result<U256, SignerError> {
    let text = match value {
        Value::String(text) => text.clone(),
        Value::Number(number) => number.to_string(),
        _ => String::new(),
    };
    parse_number(&text).ok_or_else(|| {
        SignerError::invalid(format!(
            "{at} must be a non-negative integer (decimal or 0x hex)"
        ))
    })
}

fn small(value: &Value, at: &str) -> Result<u64, SignerError> {
    u64::try_from(quantity(value, at)?)
        .map_err(|_| SignerError::invalid(format!("{at} is too large")))
}

/// The chain id of a CAIP-2 `eip155:{id}`.
pub fn caip2_chain(caip2: &str) -> Result<u64, SignerError> {
    caip2
        .strip_prefix("eip155:")
        .and_then(|id| id.parse().ok())
        .ok_or_else(|| SignerError::invalid(format!("caip2 {caip2:?} is not eip155:{{chain id}}")))
}

/// The wallet API's transaction fields and the names the transaction parser reads.
const TX_FIELDS: &[(&str, &str)] = &[
    ("to", "to"),
    ("value", "value"),
    ("data", "data"),
    ("nonce", "nonce"),
    ("chain_id", "chainId"),
    ("gas_limit", "gas"),
    ("gas_price", "gasPrice"),
    ("max_fee_per_gas", "maxFeePerGas"),
    ("max_priority_fee_per_gas", "maxPriorityFeePerGas"),
    ("from", "from"),
    ("type", "type"),
];

/// `params.transaction` with the server's completion for the fields it lacks, in the parser's names.
fn transaction(
    given: &Value,
    caip2: Option<&str>,
    completion: Option<&TransactionCompletion>,
) -> Result<(Transaction, u64), SignerError> {
    let Value::Object(given) = given else {
        return Err(SignerError::invalid("params.transaction must be an object"));
    };
    if let Some(unknown) = given
        .keys()
        .find(|k| !TX_FIELDS.iter().any(|(name, _)| name == k))
    {
        return Err(SignerError::invalid(format!(
            "params.transaction.{unknown} is not supported"
        )));
    }
    let caip2_chain = caip2.map(caip2_chain).transpose()?;
    let chain_id = match (given.get("chain_id"), caip2_chain) {
        (Some(id), Some(chain)) if small(id, "params.transaction.chain_id")? != chain => {
            return Err(SignerError::invalid(
                "params.transaction.chain_id is not the chain of caip2",
            ));
        }
        (Some(id), _) => small(id, "params.transaction.chain_id")?,
        (None, Some(chain)) => chain,
        (None, None) => {
            return Err(SignerError::invalid(
                "params.transaction.chain_id (or caip2) is required",
            ));
        }
    };
    let mut parsed = Map::new();
    for (name, parser_name) in TX_FIELDS {
        let value = given.get(*name).or_else(|| {
            completion.and_then(|c| {
                c.fields
                    .get(*name)
                    .filter(|_| *name != "to" && *name != "value" && *name != "data")
            })
        });
        if let Some(value) = value.filter(|v| !v.is_null()) {
            parsed.insert((*parser_name).to_string(), value.clone());
        }
    }
    parsed.insert("chainId".into(), json!(format!("0x{chain_id:x}")));
    let text = Value::Object(parsed).to_string();
    let tx = Transaction::from_json(&text).map_err(|e| SignerError::invalid(e.to_string()))?;
    Ok((tx, chain_id))
}

fn transaction_facts(tx: &Transaction) -> TransactionFacts {
    TransactionFacts {
        to: tx.to.map(|a| a.to_checksum()),
        value: U256::from_be_bytes(tx.value),
        chain_id: tx.chain_id,
        data: tx.data.clone(),
    }
}

/// Reads `body` (as the app signed it) into the call and the facts the policies judge.
pub fn prepare(
    route: Route,
    body: &Value,
    completion: Option<&TransactionCompletion>,
    now_s: i64,
) -> Result<(Call, RequestFacts), SignerError> {
    let params = body
        .get("params")
        .filter(|p| p.is_object())
        .ok_or_else(|| SignerError::invalid("params must be an object"))?;
    let mut facts = RequestFacts {
        body: body.clone(),
        now: now_s,
        ..RequestFacts::default()
    };
    if route == Route::RawSign {
        let hash = match (params.get("hash"), params.get("bytes")) {
            (Some(hash), None) => hash32(hash.as_str().unwrap_or_default(), "params.hash")?,
            (None, Some(bytes)) => {
                let bytes = bytes.as_str().unwrap_or_default();
                let raw = match text(params, "encoding", "params")? {
                    "hex" => decode_hex(bytes).or_else(|_| decode_hex(&format!("0x{bytes}"))),
                    "utf-8" => Ok(bytes.as_bytes().to_vec()),
                    other => {
                        return Err(SignerError::invalid(format!(
                            "params.encoding {other:?} is not hex or utf-8"
                        )));
                    }
                }
                .map_err(|_| SignerError::invalid("params.bytes is not hex"))?;
                if text(params, "hash_function", "params")? != "keccak256" {
                    return Err(SignerError::invalid(
                        "params.hash_function must be keccak256 for an Ethereum wallet",
                    ));
                }
                facts.needs_explicit_rule |= looks_like_transaction(&raw);
                facts.message = Some(raw.clone());
                keccak256(&raw)
            }
            _ => {
                return Err(SignerError::invalid(
                    "params must hold either hash or bytes (with encoding and hash_function)",
                ));
            }
        };
        // A hash signed blind could be any transaction's: only an explicit rule allows it.
        facts.needs_explicit_rule |= facts.message.is_none();
        facts.method = "secp256k1_sign".into();
        return Ok((
            Call::Hash {
                hash,
                method: "raw_sign",
            },
            facts,
        ));
    }
    let method = text(body, "method", "body")?;
    if let Some(chain) = body.get("chain_type").and_then(Value::as_str)
        && chain != "ethereum"
    {
        return Err(SignerError::invalid(format!(
            "chain_type {chain:?} is not this wallet's (ethereum)"
        )));
    }
    facts.method = method.to_string();
    let call = match method {
        "personal_sign" => {
            let message = text(params, "message", "params")?;
            let encoding = params
                .get("encoding")
                .and_then(Value::as_str)
                .unwrap_or("utf-8");
            let encoding = MessageEncoding::parse(encoding)
                .map_err(|e| SignerError::invalid(e.to_string()))?;
            let bytes = match encoding {
                MessageEncoding::Hex if !message.starts_with("0x") => {
                    parse_message(&format!("0x{message}"), encoding)
                }
                _ => parse_message(message, encoding),
            }
            .map_err(|e| SignerError::invalid(e.to_string()))?;
            facts.needs_explicit_rule = looks_like_transaction(&bytes);
            facts.message = Some(bytes.clone());
            Call::PersonalSign(bytes)
        }
        "eth_signTypedData_v4" => {
            let Some(Value::Object(typed)) = params.get("typed_data") else {
                return Err(SignerError::invalid("params.typed_data must be an object"));
            };
            let mut typed = typed.clone();
            if let Some(primary) = typed.remove("primary_type") {
                typed.insert("primaryType".into(), primary.clone());
                typed.insert("primary_type".into(), primary);
            }
            let value = Value::Object(typed);
            let mut parseable = value.clone();
            if let Some(map) = parseable.as_object_mut() {
                map.remove("primary_type");
            }
            let parsed = TypedData::from_json(&parseable.to_string())
                .map_err(|e| SignerError::invalid(e.to_string()))?;
            facts.typed_data = Some(value);
            Call::TypedData(Box::new(parsed))
        }
        "eth_signTransaction" | "eth_sendTransaction" => {
            let send = method == "eth_sendTransaction";
            if send && body.get("sponsor").and_then(Value::as_bool) == Some(true) {
                return Err(SignerError::new(
                    symbolon_protocol::ServerErrorCode::FeatureNotEnabled,
                    "Sponsored transactions need a paymaster; this server sends them unsponsored only",
                ));
            }
            let caip2 = body.get("caip2").and_then(Value::as_str);
            if send && caip2.is_none() {
                return Err(SignerError::invalid(
                    "caip2 is required for eth_sendTransaction",
                ));
            }
            let given = params
                .get("transaction")
                .ok_or_else(|| SignerError::invalid("params.transaction is required"))?;
            let (tx, chain_id) = transaction(given, caip2, completion)?;
            facts.transaction = Some(transaction_facts(&tx));
            Call::Transaction {
                tx: Box::new(tx),
                send,
                caip2: format!("eip155:{chain_id}"),
            }
        }
        "secp256k1_sign" => {
            facts.needs_explicit_rule = true;
            Call::Hash {
                hash: hash32(text(params, "hash", "params")?, "params.hash")?,
                method: "secp256k1_sign",
            }
        }
        "eth_sign7702Authorization" => {
            let contract = Address::parse(text(params, "contract", "params")?)
                .map_err(|e| SignerError::invalid(e.to_string()))?;
            let chain_id = small(
                params
                    .get("chain_id")
                    .ok_or_else(|| SignerError::invalid("params.chain_id is required"))?,
                "params.chain_id",
            )?;
            let nonce = match params
                .get("nonce")
                .or_else(|| completion.and_then(|c| c.fields.get("nonce")))
            {
                Some(nonce) => small(nonce, "params.nonce")?,
                None => return Err(SignerError::invalid("params.nonce is required")),
            };
            facts.authorization_contract = Some(contract.to_checksum());
            Call::Authorization {
                chain_id,
                contract,
                nonce,
            }
        }
        other => {
            return Err(SignerError::invalid(format!(
                "method {other:?} is not served; the Ethereum methods are {}",
                METHODS.join(", ")
            )));
        }
    };
    Ok((call, facts))
}

/// Signs `call` with `key`: the wallet API's `{method, data}` (for a transaction to send, the
/// signed transaction and its hash, which the server broadcasts).
pub fn sign(call: &Call, key: &PrivateKey) -> Result<(String, Value), SignerError> {
    let wallet_error = |e: symbolon_wallet_core::WalletError| SignerError::invalid(e.to_string());
    Ok(match call {
        Call::PersonalSign(bytes) => (
            "personal_sign".into(),
            json!({ "signature": personal_sign(key, bytes).map_err(wallet_error)?.to_hex(), "encoding": "hex" }),
        ),
        Call::TypedData(typed) => (
            "eth_signTypedData_v4".into(),
            json!({ "signature": sign_typed_data(key, typed).map_err(wallet_error)?.to_hex(), "encoding": "hex" }),
        ),
        Call::Transaction { tx, send, caip2 } => {
            let signed = sign_transaction(key, tx).map_err(wallet_error)?;
            if *send {
                (
                    "eth_sendTransaction".into(),
                    json!({ "signed_transaction": encode_hex(&signed.raw), "hash": encode_hex(&signed.hash), "caip2": caip2 }),
                )
            } else {
                (
                    "eth_signTransaction".into(),
                    json!({ "signed_transaction": encode_hex(&signed.raw), "encoding": "rlp" }),
                )
            }
        }
        Call::Hash { hash, method } => (
            (*method).to_string(),
            json!({ "signature": key.sign_hash(hash).map_err(wallet_error)?.to_hex(), "encoding": "hex" }),
        ),
        Call::Authorization {
            chain_id,
            contract,
            nonce,
        } => {
            let signature = key
                .sign_hash(&authorization_hash(*chain_id, contract, *nonce))
                .map_err(wallet_error)?;
            (
                "eth_sign7702Authorization".into(),
                json!({ "authorization": {
                    "chain_id": format!("0x{chain_id:x}"),
                    "contract": contract.to_checksum(),
                    "nonce": format!("0x{nonce:x}"),
                    "r": encode_hex(&signature.r),
                    "s": encode_hex(&signature.s),
                    "y_parity": u8::from(signature.y_parity),
                }}),
            )
        }
    })
}

/// EIP-7702: `keccak256(0x05 ‖ rlp([chain_id, address, nonce]))`.
pub fn authorization_hash(chain_id: u64, contract: &Address, nonce: u64) -> B256 {
    use alloy_rlp::Encodable;
    let mut payload = Vec::new();
    chain_id.encode(&mut payload);
    contract.0.encode(&mut payload);
    nonce.encode(&mut payload);
    let mut out = vec![0x05];
    alloy_rlp::Header {
        list: true,
        payload_length: payload.len(),
    }
    .encode(&mut out);
    out.extend(payload);
    keccak256(&out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    const KEY: &str = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

    fn key() -> PrivateKey {
        PrivateKey::from_bytes(&decode_hex(KEY).unwrap()).unwrap()
    }

    #[test]
    fn a_send_is_judged_on_the_apps_fields_and_completed_by_the_server() {
        let body = json!({ "method": "eth_sendTransaction", "caip2": "eip155:50312", "chain_type": "ethereum",
            "params": { "transaction": { "to": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "value": "0x10" } } });
        let completion = TransactionCompletion {
            fields: serde_json::from_value(json!({ "nonce": "0x0", "gas_limit": "0x5208",
                "max_fee_per_gas": "0x3b9aca00", "max_priority_fee_per_gas": "0x1",
                "value": "0xffff", "to": "0x0000000000000000000000000000000000000001" }))
            .unwrap(),
        };
        let (call, facts) = prepare(Route::Rpc, &body, Some(&completion), 0).unwrap();
        let tx = facts.transaction.unwrap();
        assert_eq!(tx.value, U256::from(16), "the server's value is never used");
        assert_eq!(tx.to.unwrap(), "0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
        assert_eq!(tx.chain_id, 50312);
        let (method, data) = sign(&call, &key()).unwrap();
        assert_eq!(method, "eth_sendTransaction");
        assert!(
            data["signed_transaction"]
                .as_str()
                .unwrap()
                .starts_with("0x02")
        );
        assert_eq!(data["caip2"], "eip155:50312");
    }

    #[test]
    fn refusals_say_what_is_wrong() {
        let refused = |body: Value| prepare(Route::Rpc, &body, None, 0).unwrap_err().message;
        assert!(
            refused(json!({ "method": "eth_sendTransaction", "params": { "transaction": {} } }))
                .contains("caip2")
        );
        assert!(refused(json!({ "method": "eth_sendTransaction", "caip2": "eip155:1", "sponsor": true, "params": { "transaction": {} } })).contains("Sponsored"));
        assert!(refused(json!({ "method": "eth_signTransaction", "caip2": "eip155:1", "params": { "transaction": { "chain_id": 2 } } })).contains("caip2"));
        assert!(refused(json!({ "method": "eth_signTransaction", "params": { "transaction": { "chain_id": 1, "authorization_list": [] } } })).contains("authorization_list"));
        assert!(refused(json!({ "method": "eth_sign", "params": {} })).contains("not served"));
        assert!(refused(json!({ "method": "personal_sign", "chain_type": "solana", "params": { "message": "hi" } })).contains("solana"));
        assert!(
            refused(json!({ "method": "secp256k1_sign", "params": { "hash": "0x12" } }))
                .contains("32 bytes")
        );
    }

    #[test]
    fn messages_and_hashes_sign_as_the_wallet_does() {
        let body = json!({ "method": "personal_sign", "params": { "message": "68656c6c6f", "encoding": "hex" } });
        let (call, facts) = prepare(Route::Rpc, &body, None, 0).unwrap();
        assert_eq!(facts.message.as_deref(), Some(b"hello".as_slice()));
        assert!(!facts.needs_explicit_rule);
        let (_, data) = sign(&call, &key()).unwrap();
        let signature = decode_hex(data["signature"].as_str().unwrap()).unwrap();
        let signer =
            symbolon_wallet_core::chains::ethereum::recover_personal_signer(b"hello", &signature)
                .unwrap();
        assert_eq!(signer, key().address());
        let hash = json!({ "params": { "hash": format!("0x{}", "11".repeat(32)) } });
        let (_, facts) = prepare(Route::RawSign, &hash, None, 0).unwrap();
        assert!(facts.needs_explicit_rule, "a blind hash");
    }

    #[test]
    fn the_7702_authorization_hash_is_eip_7702s() {
        // 0x05 ‖ rlp([1, 0x00…01, 0]) written out byte by byte: a list of 23 bytes (0xd7), 1, a
        // 20-byte string (0x94 …), 0 as the empty string (0x80).
        let contract = Address::parse("0x0000000000000000000000000000000000000001").unwrap();
        let mut expected = vec![0x05, 0xd7, 0x01, 0x94];
        expected.extend([0u8; 19]);
        expected.extend([0x01, 0x80]);
        assert_eq!(authorization_hash(1, &contract, 0), keccak256(&expected));
    }
}
