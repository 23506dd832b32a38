//! Authenticator apps (RFC 6238 with `totp-rs`): SHA-1, 6 digits, 30-second steps, ±1 step.
//!
//! `init` makes a 20-byte secret and keeps it pending (sealed) for `TOTP_PENDING_TTL_S`; the
//! first right code enrols it. Secrets are sealed like app secrets (AES-256-GCM under a key
//! derived from the sealing key), bound to the app and the user, so a copy of the database reads
//! none and a secret moved to another user does not open. Each step is accepted at most once per
//! user: the accepted step must be newer than the last one, by one conditional UPDATE.

use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::MFA_CODE_ALREADY_USED;
use totp_rs::{Algorithm, Builder, Secret, Totp};

use super::attempts::{Attempt, invalid_code};
use super::deps::MfaDeps;
use super::{MfaMethodType, TOTP_PENDING_TTL_S, not_enrolled};
use crate::app_secrets::SealedSecret;
use crate::db::apps::AppRecord;
use crate::error::AppError;
use crate::methods::code::well_formed_code;
use crate::random::random_bytes;

/// Seconds per step.
const STEP_S: u64 = 30;

/// A fresh pending secret: what the user types or scans.
#[derive(Debug, Clone)]
pub struct Enrolment {
    /// Base32 (RFC 4648, no padding).
    pub secret: String,
    /// `otpauth://totp/…` for a QR code.
    pub auth_url: String,
}

/// The sealed-secret field of `user_id`: binds a sealed secret to its user (and, as associated
/// data, to the app).
fn field(user_id: &str) -> String {
    format!("mfa.totp.{user_id}")
}

/// Removes what an otpauth label must not hold.
fn label(text: &str) -> String {
    text.replace(':', " ").trim().to_string()
}

fn totp(secret: Vec<u8>, issuer: &str, account: &str) -> Result<Totp, AppError> {
    Builder::new()
        .with_algorithm(Algorithm::SHA1)
        .with_digits(6)
        .with_skew(1)
        .with_step_duration(STEP_S)
        .with_secret(secret)
        .with_issuer(Some(label(issuer)).filter(|i| !i.is_empty()))
        .with_account_name(label(account))
        .build()
        .map_err(|e| AppError::internal(&e))
}

/// Opens a sealed secret of `user_id` into a checker.
fn open(deps: &MfaDeps, app: &AppRecord, user_id: &str, sealed: &str) -> Result<Totp, AppError> {
    let base32 = deps
        .app_secrets
        .open(&app.id, &field(user_id), &SealedSecret::from(sealed))?;
    let secret = Secret::try_from_base32(base32.as_str()).map_err(|e| AppError::internal(&e))?;
    totp(secret.as_bytes().to_vec(), "", "")
}

/// The step `code` matches at the server's now (±1 step), if any.
fn matching_step(deps: &MfaDeps, totp: &Totp, code: &str) -> Option<i64> {
    let now = u64::try_from(deps.clock.now()).ok()?;
    let step = totp.check(code.trim(), now)?;
    i64::try_from(step).ok()
}

/// Makes and keeps a pending secret for `user_id`; `account` names the user in the app.
pub async fn init(
    deps: &MfaDeps,
    app: &AppRecord,
    user_id: &str,
    account: &str,
) -> Result<Enrolment, AppError> {
    let bytes = random_bytes::<20>()?;
    let issuer = if label(&app.name).is_empty() {
        "Symbolon"
    } else {
        app.name.as_str()
    };
    let totp = totp(bytes.to_vec(), issuer, account)?;
    let secret = totp.secret().to_base32();
    let auth_url = totp.to_url().map_err(|e| AppError::internal(&e))?;
    let mut sealed = SealedSecret::from(secret.as_str());
    deps.app_secrets
        .seal(&app.id, &field(user_id), &mut sealed)
        .map_err(|e| AppError::internal(&SealError(e)))?;
    let expires_at = deps.clock.now() + TOTP_PENDING_TTL_S as i64;
    deps.db
        .set_pending_totp(user_id, sealed.as_stored(), expires_at)
        .await?;
    Ok(Enrolment { secret, auth_url })
}

/// Checks the first code of the pending secret: `(sealed pending secret, matched step)` to enrol
/// with (the step then counts as used). Counts against the user's failure budget.
pub async fn check_pending(
    deps: &MfaDeps,
    app: &AppRecord,
    user_id: &str,
    code: &str,
) -> Result<(String, i64), AppError> {
    let now = deps.clock.now();
    let pending = deps
        .db
        .totp(user_id)
        .await?
        .and_then(|row| row.pending_secret.filter(|_| row.pending_expires_at > now))
        .ok_or_else(|| {
            AppError::invalid_data("No authenticator setup is pending: start it again")
        })?;
    let code = well_formed_code(code)?;
    let attempt = Attempt::reserve(deps, user_id).await?;
    let checked = open(deps, app, user_id, &pending).and_then(|totp| {
        matching_step(deps, &totp, code)
            .map(|step| (pending.clone(), step))
            .ok_or_else(invalid_code)
    });
    attempt.settle(deps, checked).await
}

/// Verifies a code of the enrolled secret and uses its step up. The code of a step already used
/// (the one still shown in the authenticator app after the last verification or the enrolment) is
/// refused as such, `token_already_used`, without counting as a failure: it is no guess.
pub async fn verify(
    deps: &MfaDeps,
    app: &AppRecord,
    user_id: &str,
    code: &str,
) -> Result<(), AppError> {
    let secret = deps
        .db
        .totp(user_id)
        .await?
        .and_then(|row| row.secret)
        .ok_or_else(|| not_enrolled(MfaMethodType::Totp))?;
    // A malformed code compares nothing: it costs no failure.
    let code = well_formed_code(code)?;
    let attempt = Attempt::reserve(deps, user_id).await?;
    let checked = match open(deps, app, user_id, &secret) {
        Ok(totp) => match matching_step(deps, &totp, code) {
            Some(step) if deps.db.use_totp_step(user_id, &secret, step).await? => Ok(()),
            Some(step) => {
                // Right for a step, but not newer than the last one used: a code already used
                // (not a guess) when the secret is still the one it matched.
                let row = deps.db.totp(user_id).await?;
                match row {
                    Some(row)
                        if row.secret.as_deref() == Some(&secret) && row.last_step >= step =>
                    {
                        Err(code_already_used())
                    }
                    _ => Err(invalid_code()),
                }
            }
            None => Err(invalid_code()),
        },
        Err(error) => Err(error),
    };
    attempt.settle(deps, checked).await
}

/// `401 token_already_used`: the code's step was used already; the next one will do.
pub fn code_already_used() -> AppError {
    AppError::new(ServerErrorCode::TokenAlreadyUsed, MFA_CODE_ALREADY_USED)
}

/// `AppSecrets::seal` refused (cannot happen for a fresh base32 secret).
#[derive(Debug, thiserror::Error)]
#[error("cannot seal the TOTP secret: {0}")]
struct SealError(String);
