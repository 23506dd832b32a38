//! `wasm-bindgen` API of the wallet frame. Everything secret stays inside this module's
//! objects; JavaScript only sees addresses, signatures, signed transactions, shares and (on
//! explicit export) the private key.
//!
//! This file holds the chain-neutral part: the `Wallet` class (the user's entropy, or one imported
//! key), rebuilding it from shares, share envelopes and reading posted values. Each chain adds its
//! methods to the same class in its own file (`ethereum.rs`), under JavaScript names of its own.

mod ethereum;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use crate::chains::ethereum::{Address, PrivateKey};
use crate::json::{Json, MAX_DEPTH, too_deep};
use crate::{Entropy, Share, ShareAad, ShareKind, WalletError, combine_shares};

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

/// What a [`WasmWallet`] holds: the user's entropy, or one imported Ethereum private key.
enum Secret {
    Entropy(Entropy),
    Imported(PrivateKey),
}

/// A wallet held inside wasm memory (zeroized when freed): the user's entropy (every
/// `walletIndex` of every chain), or one imported key (`walletIndex` must be 0).
#[wasm_bindgen(js_name = Wallet)]
pub struct WasmWallet {
    secret: Secret,
    /// The Ethereum keys derived so far.
    ethereum: ethereum::Keys,
}

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
}

impl WasmWallet {
    fn holding(secret: Secret) -> Self {
        Self {
            secret,
            ethereum: ethereum::Keys::default(),
        }
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
