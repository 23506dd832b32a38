//! The login-code SMS text.

use symbolon_protocol::constants::OTP_TTL_S;

/// The text of a login-code SMS: the code first, so phones offer to autofill it, e.g.
/// `123456 is your Acme login code. It expires in 10 minutes.` No WebOTP `@host #code` line:
/// the server does not know which host page the user is on.
pub fn login_code_sms(code: &str, app_name: &str) -> String {
    let minutes = OTP_TTL_S / 60;
    let app_name = app_name.trim();
    let app = if app_name.is_empty() {
        String::new()
    } else {
        format!("{app_name} ")
    };
    format!("{code} is your {app}login code. It expires in {minutes} minutes.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_comes_first() {
        assert_eq!(
            login_code_sms("123456", "Acme"),
            "123456 is your Acme login code. It expires in 10 minutes."
        );
        assert_eq!(
            login_code_sms("654321", "  "),
            "654321 is your login code. It expires in 10 minutes."
        );
    }
}
