//! The per-user failure budget of MFA verifications (all methods, verification and enrolment
//! alike): `MFA_MAX_FAILED_VERIFICATIONS` wrong answers lock the user out for `MFA_LOCKOUTS_S[n]`
//! (10 s for the first lock, as the spec §8 line says, then 30 s, 60 s, 120 s, then 300 s for
//! each further lock in a row), answered `429` with `Retry-After` even for a right answer. A right
//! answer clears the count and starts the ladder again; so does `MFA_FAILURE_MEMORY_S` without a
//! failure.
//!
//! A verification reserves a failure before it compares anything (one conditional write that
//! refuses while locked or past the limit), so concurrent guesses cannot exceed the budget; a
//! wrong answer keeps it (the write that reaches the limit is the one that sets the lock), a right
//! one gives it back.

use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::{MFA_FAILURE_MEMORY_S, MFA_LOCKOUTS_S};

use super::MFA_MAX_FAILED_VERIFICATIONS;
use super::deps::MfaDeps;
use crate::error::AppError;

/// The message of a wrong or expired code (spec §8).
pub const INVALID_CODE: &str = "The code you entered is not valid";

/// A wrong or expired code: `401 invalid_credentials`.
pub fn invalid_code() -> AppError {
    AppError::new(ServerErrorCode::InvalidCredentials, INVALID_CODE)
}

/// The message of a lock-out, with the seconds left (the `Retry-After` header says the same).
pub fn locked_message(wait: u64) -> String {
    let unit = if wait == 1 { "second" } else { "seconds" };
    format!(
        "You have exceeded the maximum number of attempts. Please close this window and try again \
         in {wait} {unit}."
    )
}

/// A reserved failure of one user's verification.
#[derive(Debug)]
#[must_use = "a reservation is either kept (failure) or given back (success)"]
pub struct Attempt {
    user_id: String,
}

impl Attempt {
    /// Reserves one failure of `user_id`, or refuses with `429 too_many_requests` (and when to
    /// retry) while the user is locked out.
    pub async fn reserve(deps: &MfaDeps, user_id: &str) -> Result<Self, AppError> {
        let now = deps.clock.now();
        let max = i64::from(MFA_MAX_FAILED_VERIFICATIONS);
        let memory = MFA_FAILURE_MEMORY_S as i64;
        if deps
            .db
            .reserve_mfa_failure(user_id, max, memory, now)
            .await?
            .is_some()
        {
            return Ok(Self {
                user_id: user_id.to_string(),
            });
        }
        // Only explains the refusal: the refusal itself was the conditional write. Without a lock
        // yet, the budget is held by verifications still in flight: a second settles it.
        let until = deps.db.mfa_locked_until(user_id).await?.unwrap_or(now);
        let wait = u64::try_from((until - now).max(1)).unwrap_or(1);
        let mut error = AppError::rate_limited(wait);
        error.message = locked_message(wait);
        Err(error)
    }

    /// The answer was right: clears the user's failures, and the next lock is the first again.
    pub async fn succeeded(self, deps: &MfaDeps) -> Result<(), AppError> {
        deps.db.release_mfa_failure(&self.user_id, true).await?;
        Ok(())
    }

    /// Nothing was compared (or the answer was a code the user had just used): gives the
    /// reservation back.
    pub async fn release(self, deps: &MfaDeps) -> Result<(), AppError> {
        deps.db.release_mfa_failure(&self.user_id, false).await?;
        Ok(())
    }

    /// The answer was wrong: keeps the reservation (locking the user out at the limit).
    pub async fn failed(self, deps: &MfaDeps) -> Result<(), AppError> {
        let max = i64::from(MFA_MAX_FAILED_VERIFICATIONS);
        let now = deps.clock.now();
        if let Some(until) = deps
            .db
            .keep_mfa_failure(&self.user_id, max, MFA_LOCKOUTS_S, now)
            .await?
        {
            tracing::info!(user = %self.user_id, seconds = until - now, "MFA lock-out");
        }
        Ok(())
    }

    /// Settles this reservation by `outcome`: kept when it failed with `invalid_credentials`,
    /// a success on `Ok`, given back otherwise (a refusal that compared nothing).
    pub async fn settle<T>(
        self,
        deps: &MfaDeps,
        outcome: Result<T, AppError>,
    ) -> Result<T, AppError> {
        match outcome {
            Err(error) if error.code == ServerErrorCode::InvalidCredentials => {
                self.failed(deps).await?;
                Err(error)
            }
            Ok(value) => {
                self.succeeded(deps).await?;
                Ok(value)
            }
            Err(error) => {
                self.release(deps).await?;
                Err(error)
            }
        }
    }
}
