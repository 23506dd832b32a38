//! Passkeys as a second factor, over the passkey method's assertion seam
//! (`methods::passkey::{start_assertion, finish_assertion}`, purpose `mfa`: challenges bound to
//! the user). Which passkeys are MFA passkeys is the passkeys' own `enrolled_in_mfa` flag
//! (`db::passkeys::set_enrolled_in_mfa`); the user's `passkey` row in `mfa_methods` says "at
//! least one".
//!
//! The assertion is made on the host page (its origin is in `client_data_json`) and verified from
//! the frame, whose `Origin` is the server's: the expected origin is the one the client data
//! names, and it must be one of the app's.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::passkey::{PasskeyAuthenticationResponse, PasskeyRequestOptions};

use super::attempts::Attempt;
use super::deps::MfaDeps;
use super::guard::{mfa_required, token_refused};
use super::{MfaMethodType, not_enrolled};
use crate::accounts::unlinked_events;
use crate::db::apps::AppRecord;
use crate::db::mfa::{ChangeOutcome, MfaChange, TokenUse};
use crate::db::passkeys::{
    PASSKEY, PasskeyUnlink, is_enrolled_in_mfa, mfa_credential_ids, set_enrolled_in_mfa,
};
use crate::error::AppError;
use crate::methods::passkey::ceremony::Purpose;
use crate::methods::passkey::{finish_assertion, start_assertion};
use crate::web::app_context::origin_allowed;

/// The message of a refused assertion.
pub const PASSKEY_FAILED: &str = "Passkey verification failed";

/// The credential ids of the user's passkeys enrolled in MFA.
pub async fn mfa_passkeys(deps: &MfaDeps, user_id: &str) -> Result<Vec<String>, AppError> {
    Ok(mfa_credential_ids(&deps.db, user_id).await?)
}

/// Assertion options for the user's MFA passkeys (`missing_mfa_enrollment` when none).
pub async fn options(
    deps: &MfaDeps,
    app: &AppRecord,
    origin: Option<&str>,
    user_id: &str,
) -> Result<PasskeyRequestOptions, AppError> {
    let allowed = mfa_passkeys(deps, user_id).await?;
    if allowed.is_empty() {
        return Err(not_enrolled(MfaMethodType::Passkey));
    }
    start_assertion(&deps.passkeys, app, origin, user_id, &allowed, Purpose::Mfa).await
}

/// The origin `client_data_json` names, if it is one of the app's.
fn client_origin(app: &AppRecord, response: &PasskeyAuthenticationResponse) -> Option<String> {
    let bytes = URL_SAFE_NO_PAD
        .decode(response.response.client_data_json.trim_end_matches('='))
        .ok()?;
    let data: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    let origin = data.get("origin")?.as_str()?.to_string();
    origin_allowed(app, &origin).then_some(origin)
}

/// Verifies an assertion by one of the user's MFA passkeys, under the user's failure budget.
pub async fn verify(
    deps: &MfaDeps,
    app: &AppRecord,
    user_id: &str,
    response: &PasskeyAuthenticationResponse,
) -> Result<(), AppError> {
    let enrolled = mfa_passkeys(deps, user_id).await?;
    if enrolled.is_empty() {
        return Err(not_enrolled(MfaMethodType::Passkey));
    }
    let attempt = Attempt::reserve(deps, user_id).await?;
    let outcome = match client_origin(app, response) {
        None => Err(refused()),
        Some(origin) => finish_assertion(
            &deps.passkeys,
            app,
            Some(&origin),
            Some(user_id),
            Purpose::Mfa,
            response,
        )
        .await
        .and_then(|verified| {
            if enrolled.contains(&verified.credential_id) {
                Ok(())
            } else {
                Err(refused())
            }
        })
        .map_err(|error| {
            if error.code == ServerErrorCode::InvalidCredentials {
                refused()
            } else {
                error
            }
        }),
    };
    attempt.settle(deps, outcome).await
}

fn refused() -> AppError {
    AppError::new(ServerErrorCode::InvalidCredentials, PASSKEY_FAILED)
}

/// Checks a requested MFA set: at least one id, each one of the user's passkeys. Returns the
/// ids dropped from the current set.
pub async fn check_set(
    deps: &MfaDeps,
    user_id: &str,
    credential_ids: &[String],
) -> Result<Vec<String>, AppError> {
    if credential_ids.is_empty() {
        return Err(AppError::invalid_data(
            "credential_ids must name at least one passkey",
        ));
    }
    let passkeys = deps.db.user_passkeys(user_id).await?;
    if let Some(unknown) = credential_ids
        .iter()
        .find(|id| !passkeys.iter().any(|p| &p.credential_id == *id))
    {
        return Err(AppError::invalid_data(format!(
            "{unknown} is not one of the user's passkeys"
        )));
    }
    Ok(passkeys
        .into_iter()
        .filter(|p| is_enrolled_in_mfa(&p.details) && !credential_ids.contains(&p.credential_id))
        .map(|p| p.credential_id)
        .collect())
}

/// Sets the passkeys' flags: `enrolled` on, `dropped` off, and unlinks the dropped ones when
/// `remove_for_login` (never the user's last way in: such a passkey stays linked).
pub async fn apply_set(
    deps: &MfaDeps,
    app: &AppRecord,
    user_id: &str,
    (enrolled, dropped): (&[String], &[String]),
    remove_for_login: bool,
) -> Result<(), AppError> {
    if !enrolled.is_empty() {
        set_enrolled_in_mfa(&deps.db, &app.id, user_id, enrolled, true).await?;
    }
    if !dropped.is_empty() {
        set_enrolled_in_mfa(&deps.db, &app.id, user_id, dropped, false).await?;
        if remove_for_login {
            for credential_id in dropped {
                let unlinked =
                    unlinked_events(&deps.accounts, &app.id, user_id, PASSKEY, credential_id)
                        .await?;
                let now = deps.clock.now();
                match deps
                    .db
                    .unlink_passkey(user_id, credential_id, &unlinked, now)
                    .await?
                {
                    PasskeyUnlink::Unlinked | PasskeyUnlink::NotFound => {}
                    PasskeyUnlink::SoleAccount | PasskeyUnlink::EnrolledInMfa => {
                        tracing::info!(user = %user_id, "passkey kept: the user's last way in");
                    }
                }
            }
        }
    }
    Ok(())
}

/// Takes the user's passkey `credential_id` out of MFA, spending an MFA token of the caller's
/// session (`token.user_id` is the user): the seam of `/passkeys/unlink {remove_as_mfa: true}`,
/// which unlinks it afterwards. The user's `passkey` method goes with the last MFA passkey.
pub async fn remove_one(
    deps: &MfaDeps,
    app: &AppRecord,
    token: Option<TokenUse<'_>>,
    credential_id: &str,
) -> Result<(), AppError> {
    let Some(presented) = token else {
        return Err(mfa_required());
    };
    let user_id = presented.user_id;
    let enrolled = mfa_passkeys(deps, user_id).await?;
    if !enrolled.iter().any(|id| id == credential_id) {
        return Ok(());
    }
    let method = MfaMethodType::Passkey.as_str();
    let change = if enrolled.len() == 1 {
        MfaChange::Unenroll { method }
    } else {
        MfaChange::Authorize { method }
    };
    let now = deps.clock.now();
    let reported = super::change_events(&app.id, user_id, &change)?;
    match deps
        .db
        .change_mfa(user_id, change, token, now, &reported)
        .await?
    {
        ChangeOutcome::Done | ChangeOutcome::NothingToChange => {}
        ChangeOutcome::TokenRequired => return Err(mfa_required()),
        ChangeOutcome::TokenRefused => return Err(token_refused()),
    }
    let dropped = [credential_id.to_string()];
    apply_set(deps, app, user_id, (&[], &dropped), false).await
}
