//! Guest accounts: `POST /guest/authenticate {guest_credential}`.
//!
//! The client makes 32 random bytes once and keeps them (spec §9); whoever holds them is that
//! guest. Only a hash is stored, so a database copy cannot sign in as a guest. A guest signs in
//! with a real method later and keeps their user (`crate::accounts::login`); that removes the
//! credential, so it stops being a way in. Only the sign-in that creates the guest is fresh.

pub mod deps;
pub mod routes;

use axum::extract::State;
use axum::response::Response;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use symbolon_protocol::accounts::GuestAuthenticateRequest;

use super::sign_in_with;
use crate::accounts::{Proof, VerifiedIdentity};
use crate::app_settings::login_methods::LoginMethod;
use crate::digest::sha256_hex;
use crate::error::AppError;
use crate::methods::guest::deps::GuestDeps;
use crate::web::auth::LoginCaller;
use crate::web::client_ip::ClientIp;
use crate::web::json_body::JsonBody;

/// The linked-account type (never shown: the subject is a hash of a secret).
pub const GUEST: &str = crate::db::accounts::GUEST_ACCOUNT_TYPE;

/// Bytes in a guest credential (spec §9).
pub const CREDENTIAL_BYTES: usize = 32;

/// The refusal for anything but 32 bytes of base64url.
pub const INVALID_CREDENTIAL: &str = "Guest credential must be 32 random bytes, base64url-encoded";

/// Signs the guest in, creating the guest user on first use. Limited per client IP: each new
/// credential is a new user.
pub async fn authenticate(
    State(deps): State<GuestDeps>,
    caller: LoginCaller,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<GuestAuthenticateRequest>,
) -> Result<Response, AppError> {
    let subject = credential_hash(&body.guest_credential)?;
    client_ip.spend(&deps.ip_limits, deps.clock.now()).await?;
    let identity = VerifiedIdentity::new(LoginMethod::Guest, GUEST, subject);
    // The current session plays no part: a guest credential is its own user.
    let caller = LoginCaller {
        current: None,
        ..caller
    };
    // The credential is a standing password kept in the host page's storage: it signs the guest
    // in, but freshly only when it creates the guest.
    sign_in_with(&deps.login, &caller, &identity, None, Proof::Replayable).await
}

/// SHA-256 of the decoded credential, hex: what is stored.
fn credential_hash(credential: &str) -> Result<String, AppError> {
    let bytes = URL_SAFE_NO_PAD
        .decode(credential.trim().trim_end_matches('='))
        .map_err(|_| AppError::invalid_data(INVALID_CREDENTIAL))?;
    if bytes.len() != CREDENTIAL_BYTES {
        return Err(AppError::invalid_data(INVALID_CREDENTIAL));
    }
    Ok(sha256_hex(&bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_32_bytes_of_base64url_are_credentials() {
        let good = URL_SAFE_NO_PAD.encode([7u8; 32]);
        assert_eq!(credential_hash(&good).map(|h| h.len()).ok(), Some(64));
        assert_eq!(
            credential_hash(&good).ok(),
            credential_hash(&format!("{good}=")).ok()
        );
        for bad in [
            URL_SAFE_NO_PAD.encode([7u8; 31]),
            URL_SAFE_NO_PAD.encode([7u8; 33]),
            "not base64!".into(),
            String::new(),
        ] {
            assert!(credential_hash(&bad).is_err(), "{bad}");
        }
    }
}
