//! Farcaster sign-in and signers: the relay, the chain, the signer API (`[farcaster]`).

use serde::{Deserialize, Serialize};
use symbolon_wallet_core::chains::ethereum::{Address, PrivateKey};
use symbolon_wallet_core::decode_hex;

use crate::app_secrets::SealedSecret;

/// Where an app's Farcaster sign-ins are checked, and who requests its signers. The defaults
/// are Farcaster's own: the public relay, the `IdRegistry` on Optimism and Warpcast's API.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FarcasterSettings {
    /// The Farcaster Auth relay.
    pub relay_url: String,
    /// JSON-RPC endpoint of the chain the ID registry lives on.
    pub rpc_url: String,
    /// The ID registry contract (`custodyOf(uint256)`).
    pub id_registry_address: String,
    /// The Farcaster client API that takes signed key requests (`/v2/signed-key-requests`).
    pub signer_api_url: String,
    /// The app's own fid, which requests signers; without it signers are off.
    pub signer_request_fid: Option<u64>,
    /// The custody private key (`0x…`) of `signer_request_fid`, which signs the requests.
    /// A secret, stored sealed ([`crate::app_secrets`]): only the operator's CLI writes it.
    pub signer_request_key: Option<SealedSecret>,
}

impl Default for FarcasterSettings {
    fn default() -> Self {
        Self {
            relay_url: "https://relay.farcaster.xyz".into(),
            rpc_url: "https://mainnet.optimism.io".into(),
            id_registry_address: "0x00000000Fc6c5F01Fc30151999387Bb99A9f489b".into(),
            signer_api_url: "https://api.warpcast.com".into(),
            signer_request_fid: None,
            signer_request_key: None,
        }
    }
}

impl FarcasterSettings {
    /// Refuses what would only fail at sign-in time: URLs that are not `http(s)`, a registry
    /// that is not an address, a signer requester without a usable custody key.
    pub fn check(&self) -> Result<(), String> {
        for (name, value) in [
            ("relay_url", &self.relay_url),
            ("rpc_url", &self.rpc_url),
            ("signer_api_url", &self.signer_api_url),
        ] {
            let scheme = url::Url::parse(value).map(|u| u.scheme().to_string());
            if !matches!(scheme.as_deref(), Ok("https" | "http")) {
                return Err(format!("farcaster.{name}: {value:?} is not an http(s) URL"));
            }
        }
        if Address::parse(&self.id_registry_address).is_err() {
            return Err("farcaster.id_registry_address is not an address".into());
        }
        let key_ok = self
            .signer_request_key
            .as_ref()
            .and_then(SealedSecret::plain)
            .and_then(|k| decode_hex(k.trim()).ok())
            .is_some_and(|bytes| PrivateKey::from_bytes(&bytes).is_ok());
        match (self.signer_request_fid, &self.signer_request_key) {
            (Some(_), _) if !key_ok => {
                Err("farcaster.signer_request_key must be the custody key (0x + 64 hex) of signer_request_fid".into())
            }
            (None, Some(_)) => Err("farcaster.signer_request_key needs signer_request_fid".into()),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_check_refuses_what_would_fail_at_sign_in() {
        assert_eq!(FarcasterSettings::default().check(), Ok(()));
        let bad = |f: fn(&mut FarcasterSettings)| {
            let mut s = FarcasterSettings::default();
            f(&mut s);
            s.check().expect_err("refused")
        };
        assert!(bad(|s| s.relay_url = "ftp://relay".into()).contains("relay_url"));
        assert!(bad(|s| s.id_registry_address = "0x12".into()).contains("id_registry_address"));
        assert!(bad(|s| s.signer_request_fid = Some(1)).contains("signer_request_key"));
        assert!(
            bad(|s| s.signer_request_key = Some(format!("0x{}", "11".repeat(32)).into()))
                .contains("needs")
        );
        let mut ok = FarcasterSettings {
            signer_request_fid: Some(1),
            signer_request_key: Some(format!("0x{}", "11".repeat(32)).into()),
            ..FarcasterSettings::default()
        };
        assert_eq!(ok.check(), Ok(()));
        ok.signer_request_key = Some("0x00".into());
        assert!(ok.check().is_err());
    }
}
