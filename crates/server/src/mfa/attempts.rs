//! The per-user failure budget of MFA verifications: at most `MFA_MAX_FAILED_VERIFICATIONS`
//! wrong answers in `MFA_LOCKOUT_S`, then `429` until the window ends, even for a right answer.
//!
//! A verification reserves a failure before it compares anything (one conditional write that
//! refuses past the limit), so concurrent guesses cannot exceed the budget; a right answer gives
//! its reservation back.

use symbolon_protocol::ServerErrorCode;

use super::{MFA_LOCKOUT_S, MFA_MAX_FAILED_VERIFICATIONS};
use crate::http::error::AppError;
use crate::state::AppState;

/// The message of a wrong or expired code (spec §8).
pub const INVALID_CODE: &str = "The code you entered is not valid";

/// A wrong or expired code: `401 invalid_credentials`.
pub fn invalid_code() -> AppError {
    AppError::new(ServerErrorCode::InvalidCredentials, INVALID_CODE)
}

/// A reserved failure of one user's verification.
#[derive(Debug)]
#[must_use = "a reservation is either kept (failure) or given back (success)"]
pub struct Attempt {
    user_id: String,
}

impl Attempt {
    /// Reserves one failure of `user_id`, or refuses with `429 too_many_requests` (and when to
    /// retry) when the budget is spent.
    pub async fn reserve(state: &AppState, user_id: &str) -> Result<Self, AppError> {
        let now = state.clock.now();
        let max = i64::from(MFA_MAX_FAILED_VERIFICATIONS);
        let window = MFA_LOCKOUT_S as i64;
        if state
            .db
            .reserve_mfa_failure(user_id, max, window, now)
            .await?
            .is_some()
        {
            return Ok(Self {
                user_id: user_id.to_string(),
            });
        }
        // Only explains the refusal: the refusal itself was the conditional write.
        let started = state.db.mfa_failure_window(user_id).await?.unwrap_or(now);
        let wait = (started + window - now).max(1);
        let mut error = AppError::rate_limited(u64::try_from(wait).unwrap_or(1));
        error.message = "Too many failed verifications; try again later".into();
        Err(error)
    }

    /// The answer was right (or never compared): gives the reservation back.
    pub async fn release(self, state: &AppState) -> Result<(), AppError> {
        state.db.release_mfa_failure(&self.user_id).await?;
        Ok(())
    }

    /// Runs `check` under this reservation: kept when `check` fails with
    /// `invalid_credentials`, given back otherwise (success, or a refusal that compared nothing).
    pub async fn settle<T>(
        self,
        state: &AppState,
        outcome: Result<T, AppError>,
    ) -> Result<T, AppError> {
        match outcome {
            Err(error) if error.code == ServerErrorCode::InvalidCredentials => Err(error),
            other => {
                self.release(state).await?;
                other
            }
        }
    }
}
