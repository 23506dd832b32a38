//! `wasm-bindgen` API of the wallet frame. Everything secret stays inside this module's
//! objects; JavaScript only sees addresses, signatures, signed transactions, shares and (on
//! explicit export) the private key.

use wasm_bindgen::prelude::*;
use zeroize::Zeroizing;

use crate::{
    Address, Entropy, MessageEncoding, PrivateKey, Share, ShareAad, ShareKind, Transaction,
    TypedData, WalletError, combine_shares, derive_wallet_key, encode_hex, parse_message,
};

/// A JavaScript `Error` whose `name` is `WalletError` and whose `code` is the stable code.
fn js_error(error: WalletError) -> JsValue {
    let js = js_sys::Error::new(&error.to_string());
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
}

/// The result of [`WasmWallet::split`]: the address and three fresh shares.
#[wasm_bindgen(js_name = WalletShares)]
pub struct WasmShares {
    address: String,
    device_share: Vec<u8>,
    auth_share: Zeroizing<Vec<u8>>,
    recovery_share: Zeroizing<Vec<u8>>,
}

#[wasm_bindgen(js_class = WalletShares)]
impl WasmShares {
    /// EIP-55 address of wallet index 0.
    #[wasm_bindgen(getter)]
    pub fn address(&self) -> String {
        self.address.clone()
    }

    /// The device share, already encrypted under the frame's device key.
    #[wasm_bindgen(getter, js_name = deviceShare)]
    pub fn device_share(&self) -> Vec<u8> {
        self.device_share.clone()
    }

    /// The auth share (17 bytes, plaintext) for the server to store encrypted.
    #[wasm_bindgen(getter, js_name = authShare)]
    pub fn auth_share(&self) -> Vec<u8> {
        self.auth_share.to_vec()
    }

    /// The recovery share (17 bytes, plaintext) for the user's recovery method to encrypt.
    #[wasm_bindgen(getter, js_name = recoveryShare)]
    pub fn recovery_share(&self) -> Vec<u8> {
        self.recovery_share.to_vec()
    }
}

/// A signed transaction: raw bytes and hash, both `0x` hex.
#[wasm_bindgen(js_name = SignedTransaction)]
pub struct WasmSignedTransaction {
    raw: String,
    hash: String,
}

#[wasm_bindgen(js_class = SignedTransaction)]
impl WasmSignedTransaction {
    /// The signed raw transaction for `eth_sendRawTransaction`.
    #[wasm_bindgen(getter)]
    pub fn raw(&self) -> String {
        self.raw.clone()
    }

    /// The transaction hash.
    #[wasm_bindgen(getter)]
    pub fn hash(&self) -> String {
        self.hash.clone()
    }
}

#[wasm_bindgen(js_class = Wallet)]
impl WasmWallet {
    /// A new wallet from fresh CSPRNG entropy.
    pub fn create() -> JsResult<WasmWallet> {
        let entropy = Entropy::generate().map_err(js_error)?;
        Ok(Self {
            secret: Secret::Entropy(entropy),
        })
    }

    /// Rebuilds the wallet from any two of its shares (plaintext share bytes).
    pub fn recover(share_a: &[u8], share_b: &[u8]) -> JsResult<WasmWallet> {
        let shares = [
            Share::from_bytes(share_a).map_err(js_error)?,
            Share::from_bytes(share_b).map_err(js_error)?,
        ];
        let entropy = combine_shares(&shares).map_err(js_error)?;
        Ok(Self {
            secret: Secret::Entropy(entropy),
        })
    }

    /// A wallet from known 16-byte entropy (import, migration, vector tests).
    #[wasm_bindgen(js_name = fromEntropy)]
    pub fn from_entropy(entropy: &[u8]) -> JsResult<WasmWallet> {
        let entropy = Entropy::from_bytes(entropy).map_err(js_error)?;
        Ok(Self {
            secret: Secret::Entropy(entropy),
        })
    }

    /// A wallet of one imported `0x`-prefixed 32-byte private key (only `walletIndex` 0;
    /// it cannot be split into shares).
    #[wasm_bindgen(js_name = fromPrivateKey)]
    pub fn from_private_key(private_key: &str) -> JsResult<WasmWallet> {
        let bytes = Zeroizing::new(crate::decode_hex(private_key).map_err(js_error)?);
        let key = PrivateKey::from_bytes(&bytes).map_err(js_error)?;
        Ok(Self {
            secret: Secret::Imported(key),
        })
    }

    /// EIP-55 address of wallet `walletIndex`.
    pub fn address(&self, wallet_index: u32) -> JsResult<String> {
        Ok(self.key(wallet_index)?.address().to_checksum())
    }

    /// Fresh shares (re-splitting keeps the keys; shares of different splits do not mix):
    /// the device share encrypted under `deviceKey` (≥ 32 bytes) bound to address and user.
    pub fn split(&self, device_key: &[u8], user_id: &str) -> JsResult<WasmShares> {
        let Secret::Entropy(entropy) = &self.secret else {
            return Err(js_error(WalletError::InvalidShare(
                "an imported key has no shares".into(),
            )));
        };
        let address = self.key(0)?.address();
        let set = crate::split_entropy(entropy).map_err(js_error)?;
        let aad = ShareAad {
            kind: ShareKind::Device,
            address,
            user_id,
        };
        let device_share = crate::encrypt_share(device_key, &aad, &set.device).map_err(js_error)?;
        Ok(WasmShares {
            address: address.to_checksum(),
            device_share,
            auth_share: Zeroizing::new(set.auth.as_bytes().to_vec()),
            recovery_share: Zeroizing::new(set.recovery.as_bytes().to_vec()),
        })
    }

    /// EIP-191 `personal_sign`; `encoding` is `"utf-8"` or `"hex"`. Returns `0x` r‖s‖v.
    #[wasm_bindgen(js_name = personalSign)]
    pub fn personal_sign(
        &self,
        wallet_index: u32,
        message: &str,
        encoding: &str,
    ) -> JsResult<String> {
        let key = self.key(wallet_index)?;
        let encoding = MessageEncoding::parse(encoding).map_err(js_error)?;
        let bytes = parse_message(message, encoding).map_err(js_error)?;
        Ok(crate::personal_sign(&key, &bytes)
            .map_err(js_error)?
            .to_hex())
    }

    /// EIP-712 `eth_signTypedData_v4` over the JSON text of the typed data.
    #[wasm_bindgen(js_name = signTypedData)]
    pub fn sign_typed_data(&self, wallet_index: u32, typed_data_json: &str) -> JsResult<String> {
        let key = self.key(wallet_index)?;
        let data = TypedData::from_json(typed_data_json).map_err(js_error)?;
        Ok(crate::sign_typed_data(&key, &data)
            .map_err(js_error)?
            .to_hex())
    }

    /// Signs the JSON transaction request (legacy/EIP-2930/EIP-1559).
    #[wasm_bindgen(js_name = signTransaction)]
    pub fn sign_transaction(
        &self,
        wallet_index: u32,
        transaction_json: &str,
    ) -> JsResult<WasmSignedTransaction> {
        let key = self.key(wallet_index)?;
        let tx = Transaction::from_json(transaction_json).map_err(js_error)?;
        let signed = crate::sign_transaction(&key, &tx).map_err(js_error)?;
        Ok(WasmSignedTransaction {
            raw: encode_hex(&signed.raw),
            hash: encode_hex(&signed.hash),
        })
    }

    /// The private key of wallet `walletIndex` as `0x` hex (key export).
    #[wasm_bindgen(js_name = exportPrivateKey)]
    pub fn export_private_key(&self, wallet_index: u32) -> JsResult<String> {
        Ok(self.key(wallet_index)?.to_hex().to_string())
    }
}

impl WasmWallet {
    fn key(&self, wallet_index: u32) -> JsResult<PrivateKey> {
        match &self.secret {
            Secret::Entropy(entropy) => derive_wallet_key(entropy, wallet_index).map_err(js_error),
            Secret::Imported(key) if wallet_index == 0 => Ok(key.clone()),
            Secret::Imported(_) => Err(js_error(WalletError::Derivation)),
        }
    }
}

/// BIP-39 seed of the mnemonic for `entropy` with an optional passphrase (vector checks).
#[wasm_bindgen(js_name = mnemonicToSeed)]
pub fn mnemonic_to_seed(entropy: &[u8], passphrase: Option<String>) -> JsResult<Vec<u8>> {
    let seed = crate::mnemonic_to_seed(entropy, passphrase.as_deref()).map_err(js_error)?;
    Ok(seed.as_bytes().to_vec())
}

/// BIP-32 node at `path` (child numbers, bit 31 = hardened): `privateKey(32) || chainCode(32)`.
#[wasm_bindgen(js_name = derivePath)]
pub fn derive_path(seed: &[u8], path: &[u32]) -> JsResult<Vec<u8>> {
    let node = crate::derive_path(seed, path).map_err(js_error)?;
    Ok([
        node.private_key.to_bytes().as_slice(),
        node.chain_code.as_slice(),
    ]
    .concat())
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
