//! SMS as a second factor: codes from the shared code engine (`methods::code`) on their own
//! channel `mfa_sms`, keyed by the user and the number, so an MFA code never signs anybody in and
//! a login code (channel `sms`) never passes MFA. Sent through the SMS adapter.

use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::OTP_TTL_S;

use super::attempts::{Attempt, INVALID_CODE};
use super::deps::MfaDeps;
use super::{MfaMethodType, not_enrolled};
use crate::db::apps::AppRecord;
use crate::db::otp::OtpKey;
use crate::error::AppError;
use crate::methods::code::{issue_code, redeem_code};
use crate::sms::normalize_phone;
use crate::web::client_ip::ClientIp;

/// The `otp_codes` channel of MFA codes.
const CHANNEL: &str = "mfa_sms";

/// The code row of `user_id` for `phone` (E.164).
fn subject(user_id: &str, phone: &str) -> String {
    format!("{user_id} {phone}")
}

/// The text of an MFA code SMS, the code first (phones offer to autofill it).
fn text(code: &str, app_name: &str) -> String {
    let minutes = OTP_TTL_S / 60;
    let app = app_name.trim();
    let app = if app.is_empty() {
        String::new()
    } else {
        format!("{app} ")
    };
    format!("{code} is your {app}verification code. It expires in {minutes} minutes.")
}

/// The number as typed, in E.164 and within the app's regions.
pub fn normalize(app: &AppRecord, raw: &str) -> Result<String, AppError> {
    normalize_phone(raw, &app.settings.sms.allowed_regions)
        .map_err(|_| AppError::invalid_data("Invalid phone number"))
}

/// The user's enrolled MFA number.
pub async fn enrolled_phone(deps: &MfaDeps, user_id: &str) -> Result<String, AppError> {
    deps.db
        .mfa_methods(user_id)
        .await?
        .into_iter()
        .find(|m| m.method == MfaMethodType::Sms.as_str())
        .and_then(|m| m.phone_number)
        .ok_or_else(|| not_enrolled(MfaMethodType::Sms))
}

/// Texts a fresh MFA code for `user_id` to `phone` (E.164).
pub async fn send(
    deps: &MfaDeps,
    app: &AppRecord,
    user_id: &str,
    phone: &str,
    client_ip: &ClientIp,
) -> Result<(), AppError> {
    let subject = subject(user_id, phone);
    let key = OtpKey {
        app_id: &app.id,
        channel: CHANNEL,
        subject: &subject,
    };
    let Some(code) = issue_code(&deps.codes, key, client_ip).await? else {
        tracing::info!(app = %app.id, "MFA code still valid; none texted");
        return Ok(());
    };
    deps.sms.send(phone, &text(&code, &app.name)).await?;
    tracing::info!(app = %app.id, "MFA code texted");
    Ok(())
}

/// Redeems an MFA code of `user_id` sent to `phone`, under the user's failure budget. Any
/// refusal of the code itself is `invalid_credentials` 'The code you entered is not valid'.
pub async fn redeem(
    deps: &MfaDeps,
    app: &AppRecord,
    (user_id, phone): (&str, &str),
    code: &str,
    client_ip: &ClientIp,
) -> Result<(), AppError> {
    let subject = subject(user_id, phone);
    let key = OtpKey {
        app_id: &app.id,
        channel: CHANNEL,
        subject: &subject,
    };
    let attempt = Attempt::reserve(deps, user_id).await?;
    let outcome = redeem_code(&deps.codes, key, code, client_ip)
        .await
        .map_err(|mut error| {
            if error.code == ServerErrorCode::InvalidCredentials {
                error.message = INVALID_CODE.into();
            }
            error
        });
    attempt.settle(deps, outcome).await
}

/// Verifies a code sent to the user's enrolled number.
pub async fn verify(
    deps: &MfaDeps,
    app: &AppRecord,
    user_id: &str,
    code: &str,
    client_ip: &ClientIp,
) -> Result<(), AppError> {
    let phone = enrolled_phone(deps, user_id).await?;
    redeem(deps, app, (user_id, &phone), code, client_ip).await
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_code_comes_first() {
        assert_eq!(
            super::text("123456", "Acme"),
            "123456 is your Acme verification code. It expires in 10 minutes."
        );
    }
}
