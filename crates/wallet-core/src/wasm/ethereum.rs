//! The `Wallet` class's Ethereum methods: addresses, `personal_sign`, EIP-712, transactions, the
//! shares bound to the index 0 address, and key export. Their JavaScript names predate other
//! chains and stay as they are (the wallet frame calls them).

use core::cell::RefCell;

use wasm_bindgen::prelude::*;
use zeroize::Zeroizing;

use super::{JsResult, Secret, WasmWallet, bytes, js_error, plain_object, read_input};
use crate::chains::ethereum::{
    MessageEncoding, PrivateKey, Transaction, TypedData, derive_wallet_key, parse_message,
    personal_sign, sign_transaction, sign_typed_data,
};
use crate::{
    ShareAad, ShareKind, WalletError, decode_hex, encode_hex, encrypt_share, split_entropy,
};

#[wasm_bindgen(typescript_custom_section)]
const RESULT_TYPES: &str = r#"
/** The result of `Wallet.split`: the address of wallet index 0 and three fresh shares. */
export interface WalletShares {
  /** EIP-55 address of wallet index 0. */
  address: string;
  /** The device share, already encrypted under the frame's device key. */
  deviceShare: Uint8Array;
  /** The auth share (17 bytes, plaintext) for the server to store encrypted. */
  authShare: Uint8Array;
  /** The recovery share (17 bytes, plaintext) for the recovery method to protect. */
  recoveryShare: Uint8Array;
}
/** A signed transaction: `raw` for `eth_sendRawTransaction` and its `hash`, both 0x hex. */
export interface SignedTransaction {
  raw: string;
  hash: string;
}
"#;

/// The Ethereum keys a wallet derived so far, by wallet index: BIP-39's PBKDF2 and the BIP-32
/// path run once per index, not once per signature. Boxed so that a growing `Vec` moves
/// pointers, never key bytes; each key zeroizes itself when the wallet is freed.
#[derive(Default)]
pub(super) struct Keys(RefCell<Vec<(u32, Box<PrivateKey>)>>);

#[wasm_bindgen(js_class = Wallet)]
impl WasmWallet {
    /// A wallet of one imported `0x`-prefixed 32-byte private key (only `walletIndex` 0;
    /// it cannot be split into shares).
    #[wasm_bindgen(js_name = fromPrivateKey)]
    pub fn from_private_key(private_key: &str) -> JsResult<WasmWallet> {
        let bytes = Zeroizing::new(decode_hex(private_key).map_err(js_error)?);
        let key = PrivateKey::from_bytes(&bytes).map_err(js_error)?;
        Ok(Self::holding(Secret::Imported(key)))
    }

    /// EIP-55 address of wallet `walletIndex`.
    pub fn address(&self, wallet_index: u32) -> JsResult<String> {
        self.with_key(wallet_index, |key| Ok(key.address().to_checksum()))
    }

    /// Fresh shares (re-splitting keeps the keys; shares of different splits do not mix):
    /// the device share encrypted under `deviceKey` (≥ 32 bytes) bound to address and user.
    #[wasm_bindgen(unchecked_return_type = "WalletShares")]
    pub fn split(&self, device_key: &[u8], user_id: &str) -> JsResult<JsValue> {
        let Secret::Entropy(entropy) = &self.secret else {
            return Err(js_error(WalletError::InvalidShare(
                "an imported key has no shares".into(),
            )));
        };
        let address = self.with_key(0, |key| Ok(key.address()))?;
        let set = split_entropy(entropy).map_err(js_error)?;
        let aad = ShareAad {
            kind: ShareKind::Device,
            address,
            user_id,
        };
        let device_share = encrypt_share(device_key, &aad, &set.device).map_err(js_error)?;
        plain_object(&[
            ("address", address.to_checksum().into()),
            ("deviceShare", bytes(&device_share)),
            ("authShare", bytes(set.auth.as_bytes())),
            ("recoveryShare", bytes(set.recovery.as_bytes())),
        ])
    }

    /// EIP-191 `personal_sign`; `encoding` is `"utf-8"` or `"hex"`. Returns `0x` r‖s‖v.
    #[wasm_bindgen(js_name = personalSign)]
    pub fn personal_sign(
        &self,
        wallet_index: u32,
        message: &str,
        encoding: &str,
    ) -> JsResult<String> {
        let encoding = MessageEncoding::parse(encoding).map_err(js_error)?;
        let bytes = parse_message(message, encoding).map_err(js_error)?;
        self.with_key(wallet_index, |key| {
            Ok(personal_sign(key, &bytes).map_err(js_error)?.to_hex())
        })
    }

    /// EIP-712 `eth_signTypedData_v4`: the typed data as JSON text (read by `JSON.parse`) or as
    /// the object itself (integers beyond 2^53 as strings or `BigInt`s).
    #[wasm_bindgen(js_name = signTypedData)]
    pub fn sign_typed_data(
        &self,
        wallet_index: u32,
        #[wasm_bindgen(unchecked_param_type = "string | object")] typed_data: JsValue,
    ) -> JsResult<String> {
        let data = read_input(&typed_data)
            .and_then(TypedData::from_value)
            .map_err(js_error)?;
        self.with_key(wallet_index, |key| {
            Ok(sign_typed_data(key, &data).map_err(js_error)?.to_hex())
        })
    }

    /// Signs a transaction request (legacy/EIP-2930/EIP-1559), given as JSON text or object.
    #[wasm_bindgen(js_name = signTransaction, unchecked_return_type = "SignedTransaction")]
    pub fn sign_transaction(
        &self,
        wallet_index: u32,
        #[wasm_bindgen(unchecked_param_type = "string | object")] transaction: JsValue,
    ) -> JsResult<JsValue> {
        let tx = read_input(&transaction)
            .and_then(|value| Transaction::from_value(&value))
            .map_err(js_error)?;
        self.with_key(wallet_index, |key| {
            let signed = sign_transaction(key, &tx).map_err(js_error)?;
            plain_object(&[
                ("raw", encode_hex(&signed.raw).into()),
                ("hash", encode_hex(&signed.hash).into()),
            ])
        })
    }

    /// The private key of wallet `walletIndex` as `0x` hex (key export).
    #[wasm_bindgen(js_name = exportPrivateKey)]
    pub fn export_private_key(&self, wallet_index: u32) -> JsResult<String> {
        self.with_key(wallet_index, |key| Ok(key.to_hex().to_string()))
    }
}

impl WasmWallet {
    /// Runs `use_key` with the Ethereum key of `wallet_index`, deriving it on first use only.
    fn with_key<T>(
        &self,
        wallet_index: u32,
        use_key: impl FnOnce(&PrivateKey) -> JsResult<T>,
    ) -> JsResult<T> {
        let entropy = match &self.secret {
            Secret::Entropy(entropy) => entropy,
            Secret::Imported(key) if wallet_index == 0 => return use_key(key),
            Secret::Imported(_) => return Err(js_error(WalletError::Derivation)),
        };
        let keys = &self.ethereum.0;
        if let Some((_, key)) = keys.borrow().iter().find(|(i, _)| *i == wallet_index) {
            return use_key(key);
        }
        let key = Box::new(derive_wallet_key(entropy, wallet_index).map_err(js_error)?);
        let result = use_key(&key);
        keys.borrow_mut().push((wallet_index, key));
        result
    }
}
