//! One-time codes, shared by email and SMS: send (limits per client network, per subject,
//! cooldown) and check (5 guesses per code and client network, a failure budget per subject and
//! network, a larger short backstop per subject; the guess is reserved by conditional writes
//! before it is compared). Only the channel and the delivery differ.

use axum::Json;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::{OTP_REFUSAL_LOCKED_PREFIX, OTP_TTL_S, PASSCODE_LENGTH};
use symbolon_protocol::user::User;

use super::current_user;
use super::deps::{CodeDeps, LoginDeps};
use crate::accounts::{self, VerifiedIdentity};
use crate::app_settings::login_methods::LoginMethod;
use crate::db::apps::AppRecord;
use crate::db::otp::{GuessRefusal, OtpKey};
use crate::error::AppError;
use crate::otp::generate_code;
use crate::web::auth::SignedIn;
use crate::web::client_ip::ClientIp;

/// A way codes reach people (email, SMS): what it proves and how its subjects are written.
#[derive(Debug, Clone, Copy)]
pub struct CodeChannel {
    /// The `otp_codes` channel.
    pub name: &'static str,
    /// The linked-account type a redeemed code proves.
    pub account_type: &'static str,
    /// The login method apps enable.
    pub method: LoginMethod,
    /// Normalises a subject as typed (trim, case, E.164), or refuses it as `invalid_data`.
    pub normalize: fn(&str) -> Result<String, AppError>,
}

impl CodeChannel {
    /// The code row of `subject` (normalised) in `app_id`.
    pub fn key<'a>(&self, app_id: &'a str, subject: &'a str) -> OtpKey<'a> {
        OtpKey {
            app_id,
            channel: self.name,
            subject,
        }
    }

    /// Redeems the code sent to `raw` and proves it.
    pub async fn verify(
        &self,
        codes: &CodeDeps,
        app: &AppRecord,
        raw: &str,
        code: &str,
        client_ip: &ClientIp,
    ) -> Result<VerifiedIdentity, AppError> {
        let subject = (self.normalize)(raw)?;
        redeem_code(codes, self.key(&app.id, &subject), code, client_ip).await?;
        Ok(VerifiedIdentity::new(
            self.method,
            self.account_type,
            subject,
        ))
    }

    /// `…/unlink`: removes `raw` from the signed-in user.
    pub async fn unlink(
        &self,
        login: &LoginDeps,
        signed_in: &SignedIn,
        raw: &str,
    ) -> Result<Json<User>, AppError> {
        let subject = (self.normalize)(raw)?;
        accounts::unlink(
            &login.accounts,
            &signed_in.user,
            self.account_type,
            &subject,
        )
        .await?;
        current_user(login, signed_in).await
    }

    /// `…/update`: replaces the user's `old_raw` by `new_raw`, proven by the code sent to it.
    pub async fn update(
        &self,
        (login, codes): (&LoginDeps, &CodeDeps),
        signed_in: &SignedIn,
        (old_raw, new_raw, code): (&str, &str, &str),
        client_ip: &ClientIp,
    ) -> Result<Json<User>, AppError> {
        let app = &signed_in.ctx.app;
        let old = (self.normalize)(old_raw)?;
        // Before the code is spent: "updating" to the current address would change nothing, and a
        // person deserves to hear that rather than a silent success (issue 20).
        if (self.normalize)(new_raw)? == old {
            return Err(AppError::new(
                ServerErrorCode::InvalidData,
                "The new address is the same as the current one.",
            ));
        }
        let new = self.verify(codes, app, new_raw, code, client_ip).await?;
        accounts::update(&login.accounts, app, &signed_in.user, &old, &new).await?;
        current_user(login, signed_in).await
    }

    /// `…/transfer`: moves `raw` from its owner to the caller with the nonce of
    /// `account_transfer_required`.
    pub async fn transfer(
        &self,
        login: &LoginDeps,
        signed_in: &SignedIn,
        nonce: &str,
        raw: &str,
    ) -> Result<Json<User>, AppError> {
        let subject = (self.normalize)(raw)?;
        let app = &signed_in.ctx.app;
        accounts::transfer(
            &login.accounts,
            app,
            &signed_in.user,
            nonce,
            self.account_type,
            &subject,
        )
        .await?;
        current_user(login, signed_in).await
    }
}

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

/// Makes and stores a fresh code for `key` and returns it for delivery. The code sent before it
/// stays valid until its own expiry. Limited per client network (the budget the route declares:
/// each method its own) and per subject (cooldown and sends per window, in the code's row).
///
/// `None` when no new code may be sent yet (cooldown, sends of the window) but the newest code
/// sent is still unexpired, unused and not used up by this network's guesses, and the address is
/// not locked: the person already has a code to type, so the caller answers as if it had sent
/// one and sends nothing (a second start of the same login within the cooldown is not an error;
/// it spends no send budget since nothing goes out). Otherwise a refused send is `429` with
/// `Retry-After`.
pub async fn issue_code(
    codes: &CodeDeps,
    key: OtpKey<'_>,
    client_ip: &ClientIp,
) -> Result<Option<String>, AppError> {
    let now = codes.clock.now();
    client_ip.spend(&codes.ip_limits, now).await?;
    let code = generate_code()?;
    let hash = codes.otp_secret.hash(key, &code);
    let limits = &codes.otp_limits;
    let network = client_ip.network_key();
    let expires_at = now + OTP_TTL_S as i64;
    if codes
        .db
        .store_otp(key, &network, &hash, (now, expires_at), limits)
        .await?
    {
        return Ok(Some(code));
    }
    // Only explains the refusal (the conditional write decided it): nothing is sent either way.
    let Some(row) = codes.db.otp_state(key).await? else {
        return Err(AppError::rate_limited(1));
    };
    // The person already has a code they can type: unexpired and unused, the address not locked,
    // and this network's guesses at it not used up (after "No attempts left" a resend must be a
    // real one, so it waits for the cooldown).
    if row.expires_at > now
        && row.locked_until <= now
        && !codes
            .db
            .otp_guesses_used_up(key, &network, row.code_serial, limits)
            .await?
    {
        return Ok(None);
    }
    let wait =
        if row.sends >= limits.sends_per_window && row.sends_since + limits.send_window_s > now {
            row.sends_since + limits.send_window_s - now
        } else {
            row.sent_at + limits.send_cooldown_s - now
        };
    Err(AppError::rate_limited(
        u64::try_from(wait.max(1)).unwrap_or(1),
    ))
}

/// `code` trimmed (spec §5), when it is 6 digits; else `400 invalid_data` with the spec's passcode
/// message. Checked before anything is counted, so a malformed code costs no guess.
pub fn well_formed_code(code: &str) -> Result<&str, AppError> {
    let code = code.trim();
    if !code.bytes().all(|b| b.is_ascii_digit()) {
        return Err(AppError::invalid_data(messages::NOT_NUMBERS));
    }
    if code.len() != PASSCODE_LENGTH {
        return Err(AppError::invalid_data(messages::NOT_SIX));
    }
    Ok(code)
}

/// Checks `code` against `key`'s pending codes and uses it up (single use, 10 minutes, 5
/// guesses per code and client network, a failure budget per subject and network, a backstop
/// per subject). A malformed code costs no guess.
pub async fn redeem_code(
    codes: &CodeDeps,
    key: OtpKey<'_>,
    code: &str,
    client_ip: &ClientIp,
) -> Result<(), AppError> {
    let code = well_formed_code(code)?;
    let now = codes.clock.now();
    client_ip.spend(&codes.ip_limits, now).await?;
    let network = client_ip.network_key();
    let guess = match codes
        .db
        .reserve_otp_guess(key, &network, now, &codes.otp_limits)
        .await?
    {
        Ok(guess) => guess,
        Err(refusal) => return Err(guess_refusal(refusal, now)),
    };
    let Some(hash) = guess
        .valid_hashes
        .iter()
        .find(|hash| codes.otp_secret.matches(key, code, hash))
    else {
        return Err(AppError::new(
            ServerErrorCode::InvalidCredentials,
            messages::wrong_code(guess.attempts_left),
        ));
    };
    if !codes.db.consume_otp(key, &network, hash).await? {
        // A concurrent request with the same code used it first.
        return Err(AppError::new(
            ServerErrorCode::InvalidCredentials,
            messages::EXPIRED,
        ));
    }
    Ok(())
}

/// Why no guess may be checked now: no live code, this network's guesses at it used up, or a
/// failure budget spent (429 with when it refills).
fn guess_refusal(refusal: GuessRefusal, now: i64) -> AppError {
    let refused = |message| AppError::new(ServerErrorCode::InvalidCredentials, message);
    let locked = |until: i64, advice: &str| {
        let wait = (until - now).max(1);
        let mut error = AppError::rate_limited(u64::try_from(wait).unwrap_or(1));
        let minutes = (wait + 59) / 60;
        let unit = if minutes == 1 { "minute" } else { "minutes" };
        error.message = format!("{OTP_REFUSAL_LOCKED_PREFIX} {advice}{minutes} {unit}.");
        error
    };
    match refusal {
        GuessRefusal::NetworkSpent { until } => locked(until, "Try again in "),
        GuessRefusal::Locked { until } => locked(until, "Request a new code, or try again in "),
        GuessRefusal::UsedUp => refused(messages::USED_UP),
        GuessRefusal::Expired => refused(messages::EXPIRED),
    }
}
