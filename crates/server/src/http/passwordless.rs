//! `POST /passwordless/init` and `/passwordless/authenticate`: email-code login.

use axum::Json;
use axum::extract::State;
use axum::response::Response;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::{OTP_REFUSAL_LOCKED_PREFIX, OTP_TTL_S, PASSCODE_LENGTH};
use symbolon_protocol::session::{
    AuthMode, PasswordlessAuthenticateRequest, PasswordlessInitRequest, SuccessResponse,
};

use super::app_context::AppContext;
use super::client_ip::ClientIp;
use super::email::{is_plus_address, normalize_email};
use super::error::AppError;
use super::json_body::JsonBody;
use super::session_issue::start_session;
use crate::db::DbError;
use crate::db::otp::OtpKey;
use crate::db::users::UserRecord;
use crate::mail::login_code_email;
use crate::otp::generate_code;
use crate::random::random_id;
use crate::state::AppState;

const EMAIL: &str = "email";

/// Refusals a person must be able to tell apart (wrong code, code used up, code gone); the
/// client reads them by the protocol's `OTP_REFUSAL_*` constants.
pub mod messages {
    use symbolon_protocol::constants::{
        OTP_REFUSAL_EXPIRED, OTP_REFUSAL_USED_UP, OTP_REFUSAL_WRONG_PREFIX,
    };

    /// A wrong guess with tries left; `{n}` is how many.
    pub fn wrong_code(attempts_left: i64) -> String {
        match attempts_left {
            0 => format!("{OTP_REFUSAL_WRONG_PREFIX} No attempts left: request a new code."),
            1 => format!("{OTP_REFUSAL_WRONG_PREFIX} 1 attempt left."),
            n => format!("{OTP_REFUSAL_WRONG_PREFIX} {n} attempts left."),
        }
    }
    /// Every guess of the pending code has been used.
    pub const USED_UP: &str = OTP_REFUSAL_USED_UP;
    /// No unexpired, unused code.
    pub const EXPIRED: &str = OTP_REFUSAL_EXPIRED;
    /// The code has a character other than a digit (spec §5; no guess is counted).
    pub const NOT_NUMBERS: &str = "Passcode can only be numbers";
    /// The code is not six digits long (spec §5; no guess is counted).
    pub const NOT_SIX: &str = "Passcode must be exactly 6 numbers";
}

/// Sends a fresh code. The code sent before it stays valid until its own expiry. Limited per
/// client IP (in memory) and per address (cooldown and sends per window, in the code's row).
pub async fn init(
    State(state): State<AppState>,
    ctx: AppContext,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<PasswordlessInitRequest>,
) -> Result<Json<SuccessResponse>, AppError> {
    ctx.require_origin()?;
    let email = normalize_email(&body.email)?;
    if ctx.app.disable_plus_emails && is_plus_address(&email) {
        return Err(AppError::new(
            ServerErrorCode::DisallowedPlusEmail,
            "Please enter a valid email address without a '+'.",
        ));
    }
    let now = state.clock.now();
    state
        .ip_limiter
        .hit(&client_ip.rate_limit_key(), now)
        .map_err(|r| AppError::rate_limited(r.0))?;
    let key = email_key(&ctx.app.id, &email);
    let code = generate_code()?;
    let hash = state.otp_secret.hash(key, &code);
    let limits = &state.otp_limits;
    if !state
        .db
        .store_otp(key, &hash, now, now + OTP_TTL_S as i64, limits)
        .await?
    {
        return Err(send_refusal(&state, key, now).await?);
    }
    state
        .mailer
        .send(login_code_email(&email, &code, &ctx.app.name))
        .await?;
    tracing::info!(app = %ctx.app.id, "login code sent");
    Ok(Json(SuccessResponse { success: true }))
}

/// Checks the code (single use, 10 minutes, 5 guesses per code, a failure budget per address)
/// and signs the user in or up.
///
/// The guess is reserved in the database before it is compared, in one conditional write, so
/// concurrent guesses cannot check more than the limit against one code.
pub async fn authenticate(
    State(state): State<AppState>,
    ctx: AppContext,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<PasswordlessAuthenticateRequest>,
) -> Result<Response, AppError> {
    ctx.require_origin()?;
    let email = normalize_email(&body.email)?;
    // spec §5: verification codes are trimmed; a malformed code costs no attempt.
    let code = body.code.trim();
    if !code.bytes().all(|b| b.is_ascii_digit()) {
        return Err(AppError::invalid_data(messages::NOT_NUMBERS));
    }
    if code.len() != PASSCODE_LENGTH {
        return Err(AppError::invalid_data(messages::NOT_SIX));
    }
    let app_id = ctx.app.id.as_str();
    let now = state.clock.now();
    state
        .authenticate_ip_limiter
        .hit(&client_ip.rate_limit_key(), now)
        .map_err(|r| AppError::rate_limited(r.0))?;
    let key = email_key(app_id, &email);
    let Some(guess) = state
        .db
        .reserve_otp_guess(key, now, &state.otp_limits)
        .await?
    else {
        return Err(guess_refusal(&state, key, now).await?);
    };
    let Some(hash) = guess
        .valid_hashes
        .iter()
        .find(|hash| state.otp_secret.matches(key, code, hash))
    else {
        return Err(AppError::new(
            ServerErrorCode::InvalidCredentials,
            messages::wrong_code(guess.attempts_left),
        ));
    };
    if !state.db.consume_otp(key, hash).await? {
        // A concurrent request with the same code signed in first.
        return Err(AppError::new(
            ServerErrorCode::InvalidCredentials,
            messages::EXPIRED,
        ));
    }

    if let Some(user) = state.db.find_user_by_account(app_id, EMAIL, &email).await? {
        state.db.touch_account(app_id, EMAIL, &email, now).await?;
        return start_session(&state, &user, false).await;
    }
    if body.mode == Some(AuthMode::NoSignup) {
        return Err(AppError::new(
            ServerErrorCode::UserDoesNotExist,
            "No user exists with this email",
        ));
    }
    let user = UserRecord {
        id: format!("did:privy:{}", random_id(25)?),
        app_id: app_id.into(),
        created_at: now,
        has_accepted_terms: false,
        is_guest: false,
    };
    match state
        .db
        .create_user_with_account(&user, &random_id(25)?, EMAIL, &email)
        .await
    {
        Ok(()) => start_session(&state, &user, true).await,
        // Another request signed this address up first: sign in to that user instead.
        Err(DbError::Conflict) => {
            let user = state
                .db
                .find_user_by_account(app_id, EMAIL, &email)
                .await?
                .ok_or_else(|| {
                    AppError::new(ServerErrorCode::InvalidCredentials, messages::EXPIRED)
                })?;
            start_session(&state, &user, false).await
        }
        Err(other) => Err(other.into()),
    }
}

fn email_key<'a>(app_id: &'a str, email: &'a str) -> OtpKey<'a> {
    OtpKey {
        app_id,
        channel: EMAIL,
        subject: email,
    }
}

/// Why no code may be sent now, with when to try again. Only explains: the refusal itself was
/// the conditional write.
async fn send_refusal(state: &AppState, key: OtpKey<'_>, now: i64) -> Result<AppError, AppError> {
    let limits = &state.otp_limits;
    let wait = match state.db.otp_state(key).await? {
        Some(row) if row.sends >= limits.sends_per_window => {
            row.sends_since + limits.send_window_s - now
        }
        Some(row) => row.sent_at + limits.send_cooldown_s - now,
        None => 1,
    };
    Ok(AppError::rate_limited(
        u64::try_from(wait.max(1)).unwrap_or(1),
    ))
}

/// Why no guess may be checked now: no live code, its attempts used up, or the address's
/// failure budget spent (429 with when it refills).
async fn guess_refusal(state: &AppState, key: OtpKey<'_>, now: i64) -> Result<AppError, AppError> {
    let limits = &state.otp_limits;
    let refused = |message| AppError::new(ServerErrorCode::InvalidCredentials, message);
    Ok(match state.db.otp_state(key).await? {
        Some(row)
            if row.failures >= limits.failure_budget
                && row.failures_since + limits.failure_window_s > now =>
        {
            let wait = row.failures_since + limits.failure_window_s - now;
            let mut error = AppError::rate_limited(u64::try_from(wait).unwrap_or(1));
            error.message = format!(
                "{OTP_REFUSAL_LOCKED_PREFIX} Try again in {} minutes.",
                (wait + 59) / 60
            );
            error
        }
        Some(row)
            if row.attempts >= limits.max_attempts
                && (row.expires_at > now || row.previous_expires_at > now) =>
        {
            refused(messages::USED_UP)
        }
        _ => refused(messages::EXPIRED),
    })
}
