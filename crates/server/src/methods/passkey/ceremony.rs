//! The WebAuthn ceremonies over webauthn-rs: the relying party of a request, challenges stored
//! between init and finish (hashed, bound to app, purpose and user, used once), registration,
//! and assertion with the sign counter moved on by compare-and-swap.

use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::{PASSKEY_CHALLENGE_TTL_S, PASSKEY_TIMEOUT_MS};
use webauthn_rs::prelude::{
    AuthenticationResult, CreationChallengeResponse, Credential, DiscoverableAuthentication,
    Passkey, PasskeyRegistration, PublicKeyCredential, RegisterPublicKeyCredential,
    RequestChallengeResponse, Url, Uuid, WebauthnError,
};
use webauthn_rs::{Webauthn, WebauthnBuilder};

use super::wire::b64;
use crate::db::account_details::{AccountDetails, PasskeyDetails};
use crate::db::apps::AppRecord;
use crate::db::passkeys::{PasskeyChallenge, StoredPasskey};
use crate::digest::sha256_hex;
use crate::error::AppError;
use crate::methods::deps::PasskeyCeremonyDeps;

/// What a challenge may be used for: a challenge of one purpose never finishes another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// Sign-up with a new passkey.
    Register,
    /// Login with a passkey.
    Authenticate,
    /// Link a new passkey to the signed-in user.
    Link,
    /// A second factor (bound to the user).
    Mfa,
}

impl Purpose {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Register => "register",
            Self::Authenticate => "authenticate",
            Self::Link => "link",
            Self::Mfa => "mfa",
        }
    }
}

/// The relying party of one request: its RP id, the origin it expects, and webauthn-rs set up
/// for both.
pub struct RelyingParty {
    /// The RP id (the app's `[passkeys] rp_id`, else the origin's host).
    pub rp_id: String,
    webauthn: Webauthn,
}

impl RelyingParty {
    /// For `app` and the request's `origin` (already checked against the app's origins).
    pub fn of(app: &AppRecord, origin: Option<&str>) -> Result<Self, AppError> {
        let origin = origin.ok_or_else(|| {
            AppError::new(ServerErrorCode::MissingOrigin, "Missing Origin header")
        })?;
        let url = Url::parse(origin).map_err(|_| AppError::invalid_data("Invalid Origin"))?;
        let rp_id = match &app.settings.passkeys.rp_id {
            Some(rp_id) => rp_id.clone(),
            None => url
                .host_str()
                .ok_or_else(|| AppError::invalid_data("Invalid Origin"))?
                .to_string(),
        };
        let webauthn = WebauthnBuilder::new(&rp_id, &url)
            .map(|b| {
                b.rp_name(&app.name)
                    .timeout(Duration::from_millis(PASSKEY_TIMEOUT_MS))
            })
            .and_then(WebauthnBuilder::build)
            .map_err(|_| {
                AppError::invalid_data(format!(
                    "Passkeys cannot be used from {origin}: its host is not within the RP id {rp_id}"
                ))
            })?;
        Ok(Self { rp_id, webauthn })
    }

    /// Registration options for a new passkey of a user (a random handle per credential, so a
    /// second passkey on one device never replaces the first) excluding `exclude`.
    pub fn start_registration(
        &self,
        name: &str,
        exclude: Vec<Vec<u8>>,
    ) -> Result<(CreationChallengeResponse, PasskeyRegistration), AppError> {
        let exclude = (!exclude.is_empty()).then_some(exclude);
        self.webauthn
            .start_passkey_registration(Uuid::new_v4(), name, name, exclude)
            .map_err(internal)
    }

    /// Checks a registration against its state: origin, RP id hash, challenge, user
    /// verification, the key.
    pub fn finish_registration(
        &self,
        response: &RegisterPublicKeyCredential,
        state: &PasskeyRegistration,
    ) -> Result<Credential, AppError> {
        let passkey: Passkey = self
            .webauthn
            .finish_passkey_registration(response, state)
            .map_err(refused)?;
        Ok(passkey.into())
    }

    /// Assertion options without a user (discoverable); callers name the allowed credentials
    /// in the wire options themselves.
    pub fn start_assertion(
        &self,
    ) -> Result<(RequestChallengeResponse, DiscoverableAuthentication), AppError> {
        self.webauthn
            .start_discoverable_authentication()
            .map_err(internal)
    }

    /// Checks an assertion of `credential` against its state: origin, RP id hash, challenge,
    /// user verification, signature, and that the counter grew.
    pub fn finish_assertion(
        &self,
        response: &PublicKeyCredential,
        state: DiscoverableAuthentication,
        credential: &Credential,
    ) -> Result<AuthenticationResult, AppError> {
        self.webauthn
            .finish_discoverable_authentication_v2(response, state, credential)
            .map_err(refused)
    }
}

/// Stores `challenge` with the ceremony `state` for `purpose` (and `user_id` for link and MFA).
pub async fn store_challenge(
    ceremonies: &PasskeyCeremonyDeps,
    app_id: &str,
    purpose: Purpose,
    user_id: Option<&str>,
    challenge: &[u8],
    ceremony: &impl Serialize,
) -> Result<(), AppError> {
    let now = ceremonies.clock.now();
    let ceremony = serde_json::to_string(ceremony).map_err(|e| AppError::internal(&e))?;
    let challenge_hash = sha256_hex(challenge);
    let row = PasskeyChallenge {
        challenge_hash: &challenge_hash,
        app_id,
        purpose: purpose.as_str(),
        user_id: user_id.unwrap_or_default(),
        state: &ceremony,
        expires_at: now + i64::try_from(PASSKEY_CHALLENGE_TTL_S).unwrap_or(i64::MAX),
    };
    ceremonies.db.insert_passkey_challenge(&row, now).await?;
    Ok(())
}

/// Uses up the challenge named inside `client_data_json` if it is live and was issued for this
/// app, purpose and user; returns its ceremony state. Spent before the proof is checked: a
/// challenge is good for one try.
pub async fn take_challenge<T: DeserializeOwned>(
    ceremonies: &PasskeyCeremonyDeps,
    app_id: &str,
    purpose: Purpose,
    user_id: Option<&str>,
    client_data_json: &[u8],
) -> Result<T, AppError> {
    let client_data: Value = serde_json::from_slice(client_data_json)
        .map_err(|_| AppError::invalid_data("client_data_json is not JSON"))?;
    let challenge = client_data
        .get("challenge")
        .and_then(Value::as_str)
        .and_then(|c| b64(c).ok())
        .ok_or_else(|| AppError::invalid_data("client_data_json has no base64url challenge"))?;
    let stored = ceremonies
        .db
        .take_passkey_challenge(
            &sha256_hex(&challenge),
            app_id,
            purpose.as_str(),
            user_id.unwrap_or_default(),
            ceremonies.clock.now(),
        )
        .await?
        .ok_or_else(|| {
            AppError::new(
                ServerErrorCode::InvalidCredentials,
                "Invalid or expired passkey challenge",
            )
        })?;
    serde_json::from_str(&stored).map_err(|e| AppError::internal(&e))
}

/// The webauthn-rs credential stored in a passkey account's details, with the details.
pub fn stored_credential(
    passkey: &StoredPasskey,
) -> Result<(PasskeyDetails, Credential), AppError> {
    let details = PasskeyDetails::read(Some(&passkey.details));
    let credential =
        serde_json::from_value(details.credential.clone()).map_err(|e| AppError::internal(&e))?;
    Ok((details, credential))
}

/// Records a verified assertion: the new counter (and backup flags) replace the stored ones by
/// compare-and-swap, so of two assertions carrying one counter value only one passes. A
/// counter that did not grow (unless it is 0 on both sides: authenticators without one) is a
/// cloned key: `401 invalid_credentials`.
pub async fn record_assertion(
    ceremonies: &PasskeyCeremonyDeps,
    app_id: &str,
    mut passkey: StoredPasskey,
    result: &AuthenticationResult,
) -> Result<(), AppError> {
    for _ in 0..3 {
        let (mut details, mut credential) = stored_credential(&passkey)?;
        if (result.counter() > 0 || credential.counter > 0)
            && result.counter() <= credential.counter
        {
            return Err(sign_count_refused());
        }
        credential.counter = result.counter();
        credential.backup_state = result.backup_state();
        credential.backup_eligible = result.backup_eligible();
        details.credential =
            serde_json::to_value(&credential).map_err(|e| AppError::internal(&e))?;
        let now = ceremonies.clock.now();
        let new = details.to_stored()?;
        if ceremonies
            .db
            .swap_passkey_details(&passkey.account_id, &passkey.details, &new, now)
            .await?
        {
            return Ok(());
        }
        // Changed meanwhile (another sign-in, an MFA enrolment): check against the new state.
        passkey = ceremonies
            .db
            .find_passkey(app_id, &passkey.credential_id)
            .await?
            .ok_or_else(unknown_passkey)?;
    }
    Err(sign_count_refused())
}

/// `401 invalid_credentials` 'Unknown passkey'.
pub fn unknown_passkey() -> AppError {
    AppError::new(ServerErrorCode::InvalidCredentials, "Unknown passkey")
}

fn sign_count_refused() -> AppError {
    AppError::new(
        ServerErrorCode::InvalidCredentials,
        "Passkey sign count did not increase (the key may be cloned)",
    )
}

/// A failed ceremony: malformed encodings are the client's bad data (400); every other failure
/// (origin, RP id, challenge, user verification, signature, counter) is a refused proof (401).
fn refused(error: WebauthnError) -> AppError {
    use WebauthnError as E;
    match error {
        E::ParseBase64Failure(_)
        | E::ParseCBORFailure(_)
        | E::ParseJSONFailure(_)
        | E::ParseNOMFailure
        | E::ParseInsufficientBytesAvailable
        | E::COSEKeyInvalidCBORValue
        | E::COSEKeyInvalidType
        | E::MissingAttestationCredentialData
        | E::AttestationStatementMapInvalid => {
            AppError::invalid_data(format!("Malformed passkey response: {error}"))
        }
        other => {
            tracing::debug!(error = %other, "passkey ceremony refused");
            AppError::new(
                ServerErrorCode::InvalidCredentials,
                "Passkey verification failed",
            )
        }
    }
}

fn internal(error: WebauthnError) -> AppError {
    AppError::internal(&error)
}
