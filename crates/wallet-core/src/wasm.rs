//! `wasm-bindgen` API of the wallet frame. Everything secret stays inside this module's
//! objects; JavaScript only sees addresses, signatures, signed transactions, shares and (on
//! explicit export) the private key.

use core::cell::RefCell;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use zeroize::Zeroizing;

use crate::json::{Json, MAX_DEPTH, too_deep};
use crate::{
    Address, Entropy, MessageEncoding, PrivateKey, Share, ShareAad, ShareKind, Transaction,
    TypedData, WalletError, combine_shares, derive_wallet_key, encode_hex, parse_message,
};

/// The frame's allocator (see Cargo.toml: smaller than the default dlmalloc).
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// A JavaScript `Error` whose `name` is `WalletError` and whose `code` is the stable code.
fn js_error(error: WalletError) -> JsValue {
    let js = js_sys::Error::new(&error.message());
    js.set_name("WalletError");
    let _ = js_sys::Reflect::set(
        &js,
        &JsValue::from_str("code"),
        &JsValue::from_str(error.code()),
    );
    js.into()
}

type JsResult<T> = Result<T, JsValue>;

/// What a [`WasmWallet`] holds: the user's entropy, or one imported private key.
enum Secret {
    Entropy(Entropy),
    Imported(PrivateKey),
}

/// A wallet held inside wasm memory (zeroized when freed): the user's entropy (every
/// `walletIndex`), or one imported key (`walletIndex` must be 0).
#[wasm_bindgen(js_name = Wallet)]
pub struct WasmWallet {
    secret: Secret,
    /// Keys derived so far, by wallet index: BIP-39's PBKDF2 and the BIP-32 path run once per
    /// index, not once per signature. Boxed so that a growing `Vec` moves pointers, never key
    /// bytes; each key zeroizes itself when the wallet is freed.
    keys: RefCell<Vec<(u32, Box<PrivateKey>)>>,
}

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

/// A plain JavaScript object of `entries` (results are plain data, so JavaScript has nothing
/// to free and the glue carries no class for them).
fn plain_object(entries: &[(&str, JsValue)]) -> JsResult<JsValue> {
    let object = js_sys::Object::new();
    for (key, value) in entries {
        js_sys::Reflect::set(&object, &JsValue::from_str(key), value)?;
    }
    Ok(object.into())
}

fn bytes(data: &[u8]) -> JsValue {
    js_sys::Uint8Array::from(data).into()
}

#[wasm_bindgen(js_class = Wallet)]
impl WasmWallet {
    /// A new wallet from fresh CSPRNG entropy.
    pub fn create() -> JsResult<WasmWallet> {
        let entropy = Entropy::generate().map_err(js_error)?;
        Ok(Self::holding(Secret::Entropy(entropy)))
    }

    /// Rebuilds the wallet from any two of its shares (plaintext share bytes).
    pub fn recover(share_a: &[u8], share_b: &[u8]) -> JsResult<WasmWallet> {
        let shares = [
            Share::from_bytes(share_a).map_err(js_error)?,
            Share::from_bytes(share_b).map_err(js_error)?,
        ];
        let entropy = combine_shares(&shares).map_err(js_error)?;
        Ok(Self::holding(Secret::Entropy(entropy)))
    }

    /// A wallet from known 16-byte entropy (import, migration, vector tests).
    #[wasm_bindgen(js_name = fromEntropy)]
    pub fn from_entropy(entropy: &[u8]) -> JsResult<WasmWallet> {
        let entropy = Entropy::from_bytes(entropy).map_err(js_error)?;
        Ok(Self::holding(Secret::Entropy(entropy)))
    }

    /// A wallet of one imported `0x`-prefixed 32-byte private key (only `walletIndex` 0;
    /// it cannot be split into shares).
    #[wasm_bindgen(js_name = fromPrivateKey)]
    pub fn from_private_key(private_key: &str) -> JsResult<WasmWallet> {
        let bytes = Zeroizing::new(crate::decode_hex(private_key).map_err(js_error)?);
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
        let set = crate::split_entropy(entropy).map_err(js_error)?;
        let aad = ShareAad {
            kind: ShareKind::Device,
            address,
            user_id,
        };
        let device_share = crate::encrypt_share(device_key, &aad, &set.device).map_err(js_error)?;
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
            Ok(crate::personal_sign(key, &bytes)
                .map_err(js_error)?
                .to_hex())
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
            Ok(crate::sign_typed_data(key, &data)
                .map_err(js_error)?
                .to_hex())
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
            let signed = crate::sign_transaction(key, &tx).map_err(js_error)?;
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
    fn holding(secret: Secret) -> Self {
        Self {
            secret,
            keys: RefCell::new(Vec::new()),
        }
    }

    /// Runs `use_key` with the key of `wallet_index`, deriving it on first use only.
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
        if let Some((_, key)) = self.keys.borrow().iter().find(|(i, _)| *i == wallet_index) {
            return use_key(key);
        }
        let key = Box::new(derive_wallet_key(entropy, wallet_index).map_err(js_error)?);
        let result = use_key(&key);
        self.keys.borrow_mut().push((wallet_index, key));
        result
    }
}

/// Typed data or a transaction as the frame passes it: JSON text goes through the browser's
/// `JSON.parse` (which refuses `NaN`/`Infinity` tokens); an object is read as it is.
fn read_input(input: &JsValue) -> Result<Json, WalletError> {
    let Some(text) = input.as_string() else {
        return read_value(input, 0);
    };
    let value = js_sys::JSON::parse(&text).map_err(|error| {
        let message = error
            .dyn_ref::<js_sys::Error>()
            .map(|error| String::from(error.message()))
            .unwrap_or_default();
        WalletError::InvalidJson(message)
    })?;
    read_value(&value, 0)
}

/// A JavaScript value → [`Json`]. Numbers stay `f64` (NaN and ±Infinity, possible in a posted
/// object, are refused where a number is read); `BigInt`s keep their exact digits.
fn read_value(value: &JsValue, depth: usize) -> Result<Json, WalletError> {
    if depth > MAX_DEPTH {
        return Err(too_deep());
    }
    if value.is_null() || value.is_undefined() {
        return Ok(Json::Null);
    }
    if let Some(flag) = value.as_bool() {
        return Ok(Json::Bool(flag));
    }
    if let Some(number) = value.as_f64() {
        return Ok(Json::Number(number));
    }
    if let Some(text) = value.as_string() {
        return Ok(Json::String(text));
    }
    if value.is_bigint() {
        // Radix 10 never throws; an empty text would fail as "not an integer" anyway.
        let digits = value
            .unchecked_ref::<js_sys::BigInt>()
            .to_string(10)
            .map(String::from)
            .unwrap_or_default();
        return Ok(Json::BigInt(digits));
    }
    if js_sys::Array::is_array(value) {
        let items = value.unchecked_ref::<js_sys::Array>();
        return items
            .iter()
            .map(|item| read_value(&item, depth + 1))
            .collect::<Result<_, _>>()
            .map(Json::Array);
    }
    if value.is_object() {
        let entries = js_sys::Object::entries(value.unchecked_ref());
        let mut members = Vec::with_capacity(entries.length() as usize);
        for entry in entries.iter() {
            let pair = entry.unchecked_into::<js_sys::Array>();
            let key = pair.get(0).as_string().unwrap_or_default();
            members.push((key, read_value(&pair.get(1), depth + 1)?));
        }
        return Ok(Json::Object(members));
    }
    Err(WalletError::InvalidJson(
        "functions and symbols are not data".into(),
    ))
}

fn share_aad<'a>(kind: &str, address: &str, user_id: &'a str) -> Result<ShareAad<'a>, WalletError> {
    Ok(ShareAad {
        kind: ShareKind::parse(kind)?,
        address: Address::parse(address)?,
        user_id,
    })
}

/// Encrypts share bytes for their holder (`kind`: `"device"`, `"auth"`, `"recovery"`).
#[wasm_bindgen(js_name = encryptShare)]
pub fn encrypt_share(
    key: &[u8],
    kind: &str,
    share: &[u8],
    address: &str,
    user_id: &str,
) -> JsResult<Vec<u8>> {
    let aad = share_aad(kind, address, user_id).map_err(js_error)?;
    let share = Share::from_bytes(share).map_err(js_error)?;
    crate::encrypt_share(key, &aad, &share).map_err(js_error)
}

/// Decrypts an envelope from [`encrypt_share`] with the same key, kind, address and user.
#[wasm_bindgen(js_name = decryptShare)]
pub fn decrypt_share(
    key: &[u8],
    kind: &str,
    envelope: &[u8],
    address: &str,
    user_id: &str,
) -> JsResult<Vec<u8>> {
    let aad = share_aad(kind, address, user_id).map_err(js_error)?;
    Ok(crate::decrypt_share(key, &aad, envelope)
        .map_err(js_error)?
        .as_bytes()
        .to_vec())
}
