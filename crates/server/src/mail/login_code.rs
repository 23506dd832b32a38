//! The login-code email.

use super::OutgoingEmail;
use crate::html::escape_html;

/// "{code} is your login code for {app name}", with text and HTML bodies.
pub fn login_code_email(to: &str, code: &str, app_name: &str) -> OutgoingEmail {
    let subject = format!("{code} is your login code for {app_name}");
    let text = format!(
        "Your login code for {app_name} is: {code}\n\nIt expires in 10 minutes. If you did not try to sign in, ignore this email.\n"
    );
    let app_html = escape_html(app_name);
    let html = format!(
        "<!doctype html><html><body style=\"font-family:sans-serif\">\
         <p>Your login code for {app_html} is:</p>\
         <p style=\"font-size:28px;font-weight:bold;letter-spacing:4px\">{code}</p>\
         <p>It expires in 10 minutes. If you did not try to sign in, ignore this email.</p>\
         </body></html>"
    );
    OutgoingEmail {
        to: to.into(),
        subject,
        text,
        html,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_carries_the_code_and_escapes_the_name() {
        let email = login_code_email("a@example.com", "012345", "<Demo>");
        assert_eq!(email.subject, "012345 is your login code for <Demo>");
        assert!(email.text.contains("012345"));
        assert!(email.html.contains("012345"));
        assert!(email.html.contains("&lt;Demo&gt;"));
        assert!(!format!("{email:?}").contains("012345"));
    }
}
