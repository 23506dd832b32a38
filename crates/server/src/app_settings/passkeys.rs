//! Passkeys: the relying party (`[passkeys]`).

use serde::{Deserialize, Serialize};

/// An app's passkey settings.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PasskeySettings {
    /// The WebAuthn RP id (a host name such as `example.com`, which also covers its
    /// subdomains' pages). Without it the RP id is the host of the page asking.
    pub rp_id: Option<String>,
}

impl PasskeySettings {
    /// Refuses an RP id that is no bare host name.
    pub fn check(&self) -> Result<(), String> {
        let Some(rp_id) = &self.rp_id else {
            return Ok(());
        };
        let host = url::Url::parse(&format!("https://{rp_id}/"))
            .ok()
            .and_then(|u| u.host_str().map(str::to_string));
        if host.as_deref() != Some(rp_id.as_str()) || rp_id.contains(':') {
            return Err(format!(
                "passkeys.rp_id: {rp_id:?} is not a host name (no scheme, port or path; lower case)"
            ));
        }
        Ok(())
    }
}
