//! Tells the user when a second factor is added to or removed from their account: a mail to each
//! linked email address and an SMS to each linked phone number (never to a number being enrolled:
//! that may be the intruder's), naming the method and the time, with what to do if it was not
//! them. The change is made already: a delivery that fails is logged, never an error.

use symbolon_protocol::mfa::MfaMethodType;

use super::deps::MfaDeps;
use crate::db::apps::AppRecord;
use crate::html::escape_html;
use crate::mail::OutgoingEmail;

/// What happened to the method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Enrolled (or re-enrolled with another number or passkey).
    Added,
    /// Taken out of MFA.
    Removed,
}

impl Change {
    fn verb(self) -> &'static str {
        match self {
            Self::Added => "added to",
            Self::Removed => "removed from",
        }
    }
}

/// The method as the user knows it; an SMS number by its last digits only.
fn method_name(method: MfaMethodType, phone: Option<&str>) -> String {
    match method {
        MfaMethodType::Totp => "An authenticator app".into(),
        MfaMethodType::Passkey => "A passkey".into(),
        MfaMethodType::Sms => match phone {
            Some(phone) if phone.len() > 4 => {
                format!(
                    "SMS to a phone number ending in {}",
                    &phone[phone.len() - 4..]
                )
            }
            _ => "SMS to a phone number".into(),
        },
    }
}

/// `2026-01-02 at 03:04 UTC`.
fn when(now: i64) -> String {
    match time::OffsetDateTime::from_unix_timestamp(now) {
        Ok(at) => format!(
            "{:04}-{:02}-{:02} at {:02}:{:02} UTC",
            at.year(),
            u8::from(at.month()),
            at.day(),
            at.hour(),
            at.minute()
        ),
        Err(_) => format!("unix time {now}"),
    }
}

fn app_name(app: &AppRecord) -> &str {
    let name = app.name.trim();
    if name.is_empty() { "Symbolon" } else { name }
}

/// The mail of one change.
pub fn email(to: &str, app: &str, what: &str, change: Change, now: i64) -> OutgoingEmail {
    let verb = change.verb();
    let when = when(now);
    let subject = match change {
        Change::Added => format!("A second factor was added to your {app} account"),
        Change::Removed => format!("A second factor was removed from your {app} account"),
    };
    let line =
        format!("{what} was {verb} the two-step verification of your {app} account on {when}.");
    let advice = format!(
        "If this wasn't you, someone else may be signed in to your account: sign in, check your \
         two-step verification methods, and contact {app}'s support."
    );
    let text = format!("{line}\n\n{advice}\n");
    let html = format!(
        "<!doctype html><html><body style=\"font-family:sans-serif\"><p>{}</p><p>{}</p></body></html>",
        escape_html(&line),
        escape_html(&advice)
    );
    OutgoingEmail {
        to: to.into(),
        subject,
        text,
        html,
    }
}

/// The SMS of one change.
pub fn sms(app: &str, what: &str, change: Change, now: i64) -> String {
    format!(
        "{app}: {what} was {} your account's two-step verification on {}. If this wasn't you, sign \
         in, check your two-step verification methods and contact {app}'s support.",
        change.verb(),
        when(now)
    )
}

/// Tells `user_id` that `method` was added or removed (`phone`: the SMS number concerned).
pub async fn notify(
    deps: &MfaDeps,
    app: &AppRecord,
    user_id: &str,
    change: Change,
    method: MfaMethodType,
    phone: Option<&str>,
) {
    let accounts = match deps.db.linked_accounts(user_id).await {
        Ok(accounts) => accounts,
        Err(error) => {
            tracing::warn!(user = %user_id, %error, "MFA change notice: cannot read the accounts");
            return;
        }
    };
    let name = app_name(app);
    let what = method_name(method, phone);
    let now = deps.clock.now();
    let mut sent = 0;
    for account in &accounts {
        let delivered = match account.account_type.as_str() {
            "email" => deps
                .mailer
                .send(email(&account.subject, name, &what, change, now))
                .await
                .map_err(|e| e.to_string()),
            "phone" => deps
                .sms
                .send(&account.subject, &sms(name, &what, change, now))
                .await
                .map_err(|e| e.to_string()),
            _ => continue,
        };
        match delivered {
            Ok(()) => sent += 1,
            Err(error) => {
                tracing::warn!(user = %user_id, kind = %account.account_type, %error, "MFA change notice not delivered");
            }
        }
    }
    tracing::info!(user = %user_id, method = method.as_str(), ?change, sent, "MFA change notice");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_name_the_method_the_time_and_what_to_do() {
        let mail = email(
            "a@example.com",
            "<Demo>",
            &method_name(MfaMethodType::Sms, Some("+15550001234")),
            Change::Added,
            1_767_323_040,
        );
        assert_eq!(
            mail.subject,
            "A second factor was added to your <Demo> account"
        );
        assert!(mail.text.starts_with(
            "SMS to a phone number ending in 1234 was added to the two-step verification of your \
             <Demo> account on 2026-01-02 at 03:04 UTC."
        ), "{}", mail.text);
        assert!(mail.text.contains("If this wasn't you"));
        assert!(mail.html.contains("&lt;Demo&gt;") && !mail.html.contains("<Demo>"));
        let text = sms(
            "Demo",
            "An authenticator app",
            Change::Removed,
            1_767_323_040,
        );
        assert!(
            text.starts_with("Demo: An authenticator app was removed from"),
            "{text}"
        );
        assert!(text.contains("If this wasn't you"));
    }
}
