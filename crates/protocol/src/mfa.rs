//! Multi-factor authentication (spec §3, §4, §7): enrolment in an authenticator app (TOTP), SMS or
//! passkeys, and verification that yields a short-lived MFA token.
//!
//! The host page only asks for codes to be sent (`/mfa/passwordless_sms/init`) and for passkey
//! options (`/mfa/passkeys/init`). Verification and enrolment are called by the wallet frame from
//! the server's own origin, so the MFA token never reaches a host page; the frame hands it to the
//! server with the wallet operation it unlocks (`KeyMaterialRequest::mfa_token`).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::passkey::{PasskeyAuthenticationResponse, PasskeyRequestOptions};
use crate::user::User;

/// An MFA method, as named on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum MfaMethodType {
    /// Authenticator app.
    Totp,
    /// SMS code.
    Sms,
    /// Passkey.
    Passkey,
}

impl MfaMethodType {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Totp => "totp",
            Self::Sms => "sms",
            Self::Passkey => "passkey",
        }
    }

    /// The method of a wire name.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "totp" => Some(Self::Totp),
            "sms" => Some(Self::Sms),
            "passkey" => Some(Self::Passkey),
            _ => None,
        }
    }
}

/// What an SMS code is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum MfaSmsAction {
    /// A code to the phone enrolled for MFA.
    Verify,
    /// A code to the phone being enrolled.
    Enroll,
}

/// `POST /mfa/passwordless_sms/init` (host page).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MfaSmsInitRequest {
    /// `verify` or `enroll`.
    pub action: MfaSmsAction,
    /// The phone to enrol (E.164 or national with a region the app allows); `enroll` only.
    #[serde(
        rename = "phoneNumber",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    #[ts(rename = "phoneNumber", optional)]
    pub phone_number: Option<String>,
}

/// The answer to `POST /mfa/passkeys/init` (host page).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MfaPasskeyInitResponse {
    /// Options for `navigator.credentials.get`, limited to the user's MFA passkeys.
    pub options: PasskeyRequestOptions,
}

/// `POST /mfa/verify` (wallet frame).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MfaVerifyRequest {
    /// The method verified.
    pub method: MfaMethodType,
    /// The 6-digit code (`totp`, `sms`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub code: Option<String>,
    /// The passkey assertion (`passkey`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub authenticator_response: Option<PasskeyAuthenticationResponse>,
}

/// A fresh MFA token, bound to the user and the session that verified: one export, recovery or
/// factor change, or up to `MFA_SIGNING_USES` signatures within `MFA_SIGNING_WINDOW_S`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MfaTokenResponse {
    /// The token (base64url).
    pub token: String,
    /// Unix seconds after which it is refused.
    #[ts(type = "number")]
    pub expires_at: i64,
}

/// The answer to `POST /mfa/totp/init` (wallet frame): spec §3 "TOTP enrolment info".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TotpInitResponse {
    /// The base32 secret (the setup key). Named as the published clients read it.
    #[serde(rename = "totpSecret")]
    pub secret: String,
    /// The `otpauth://totp/…` URL for the QR code.
    #[serde(rename = "totpAuthUrl")]
    pub auth_url: String,
}

/// `POST /mfa/totp/enroll` (wallet frame).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TotpEnrollRequest {
    /// A current code of the pending secret.
    pub code: String,
    /// A fresh MFA token; required when the user already has an MFA method.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mfa_token: Option<String>,
}

/// `POST /mfa/passwordless_sms/enroll` (wallet frame).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MfaSmsEnrollRequest {
    /// The phone the code was sent to.
    #[serde(rename = "phoneNumber")]
    #[ts(rename = "phoneNumber")]
    pub phone_number: String,
    /// The 6-digit code.
    pub code: String,
    /// A fresh MFA token; required when the user already has an MFA method.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mfa_token: Option<String>,
}

/// `POST /mfa/passkeys/enroll` (wallet frame).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MfaPasskeyEnrollRequest {
    /// The user's passkeys that are MFA methods afterwards (the whole set, at least one).
    pub credential_ids: Vec<String>,
    /// Unlink the passkeys this call removes from MFA as login methods too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub remove_for_login: Option<bool>,
    /// A fresh MFA token; required when the user already has an MFA method.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mfa_token: Option<String>,
}

/// `POST /mfa/unenroll` (wallet frame).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MfaUnenrollRequest {
    /// The method removed.
    pub method: MfaMethodType,
    /// A fresh MFA token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mfa_token: Option<String>,
    /// `passkey`: unlink the passkeys as login methods too (never the last way in).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub remove_for_login: Option<bool>,
}

/// The user after an enrolment change.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MfaUserResponse {
    /// The user, `mfa_methods` updated.
    pub user: User,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sms_init_uses_the_clients_field_names() {
        let body: MfaSmsInitRequest =
            serde_json::from_str(r#"{"action":"enroll","phoneNumber":"+15555550100"}"#)
                .expect("enroll body");
        assert_eq!(body.action, MfaSmsAction::Enroll);
        assert_eq!(body.phone_number.as_deref(), Some("+15555550100"));
        let verify: MfaSmsInitRequest =
            serde_json::from_str(r#"{"action":"verify"}"#).expect("verify body");
        assert_eq!(verify.phone_number, None);
    }

    #[test]
    fn method_names_round_trip() {
        for method in [
            MfaMethodType::Totp,
            MfaMethodType::Sms,
            MfaMethodType::Passkey,
        ] {
            assert_eq!(MfaMethodType::parse(method.as_str()), Some(method));
        }
        assert_eq!(MfaMethodType::parse("email"), None);
    }
}
