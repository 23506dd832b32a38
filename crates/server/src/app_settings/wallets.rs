//! Wallets: chain RPC URLs and WalletConnect (`[wallets]`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// An app's external-wallet settings: where contract-wallet signatures are checked.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WalletSettings {
    /// JSON-RPC endpoint per EIP-155 chain id (decimal keys: `"1"`, `"50312"`). Without one for
    /// a message's chain only EOA signatures verify there.
    pub rpc_urls: BTreeMap<String, String>,
    /// The WalletConnect Cloud project id clients connect mobile wallets with (public; shown in
    /// `GET /apps/{id}` as `wallet_connect_cloud_project_id`).
    pub wallet_connect_cloud_project_id: Option<String>,
}

impl WalletSettings {
    /// Refuses keys that are no chain id and URLs that are not `http(s)`.
    pub fn check(&self) -> Result<(), String> {
        for (chain, url) in &self.rpc_urls {
            if chain.parse::<u64>().is_err() {
                return Err(format!("wallets.rpc_urls: {chain:?} is not a chain id"));
            }
            let scheme = url::Url::parse(url).map(|u| u.scheme().to_string());
            if !matches!(scheme.as_deref(), Ok("https" | "http")) {
                return Err(format!(
                    "wallets.rpc_urls.{chain}: {url:?} is not an http(s) URL"
                ));
            }
        }
        Ok(())
    }

    /// The endpoint of `chain_id`.
    pub fn rpc_url(&self, chain_id: u64) -> Option<&str> {
        self.rpc_urls.get(&chain_id.to_string()).map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_check_refuses_what_no_chain_call_could_use() {
        let with = |chain: &str, url: &str| WalletSettings {
            rpc_urls: BTreeMap::from([(chain.to_string(), url.to_string())]),
            ..WalletSettings::default()
        };
        assert_eq!(with("50312", "http://127.0.0.1:8545").check(), Ok(()));
        assert!(with("mainnet", "https://rpc.example").check().is_err());
        assert!(with("1", "ws://rpc.example").check().is_err());
        assert_eq!(
            with("1", "https://rpc.example").rpc_url(1),
            Some("https://rpc.example")
        );
        assert_eq!(with("1", "https://rpc.example").rpc_url(2), None);
    }
}
