//! Second factors users may enrol (`[mfa]`).

use symbolon_protocol::mfa::MfaMethodType;

/// `[mfa]` of an app's settings.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MfaSettings {
    /// The second factors users may enrol (`totp`, `sms`, `passkey`); empty: MFA off.
    pub methods: Vec<String>,
    /// Each signature needs a fresh MFA token too (for users with a second factor).
    pub protect_transactions: bool,
}

impl MfaSettings {
    /// Known methods only, each once.
    pub fn check(&self) -> Result<(), String> {
        for (i, method) in self.methods.iter().enumerate() {
            if MfaMethodType::parse(method).is_none() {
                return Err(format!(
                    "mfa.methods: unknown method {method:?} (totp, sms, passkey)"
                ));
            }
            if self.methods[..i].contains(method) {
                return Err(format!("mfa.methods: {method:?} is listed twice"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_name_known_methods_once() {
        let settings = |methods: &[&str]| MfaSettings {
            methods: methods.iter().map(|m| m.to_string()).collect(),
            protect_transactions: true,
        };
        assert!(settings(&["totp", "sms", "passkey"]).check().is_ok());
        assert!(settings(&[]).check().is_ok());
        let unknown = settings(&["totp", "email"])
            .check()
            .expect_err("email is no second factor");
        assert!(unknown.contains("\"email\""), "{unknown}");
        assert!(settings(&["sms", "sms"]).check().is_err());
        let parsed: MfaSettings =
            toml::from_str("methods = [\"totp\"]\nprotect_transactions = true").expect("toml");
        assert_eq!(parsed, settings(&["totp"]));
    }
}
