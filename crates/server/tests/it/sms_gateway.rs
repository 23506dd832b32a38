//! The Twilio adapter against the local SMS catcher (`tools/stack/src/smsbox.mjs`, which speaks
//! Twilio's Messages API): a sent code arrives; refusals map to the right `SmsError`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{SMS_ACCOUNT_SID, latest_sms, latest_sms_code, test_config, unique_phone};
use symbolon_server::config::{Redacted, SmsConfig};
use symbolon_server::random::random_id;
use symbolon_server::sms::{
    SmsError, SmsSender, TwilioSender, login_code_sms, normalize_phone, sms_sender_from_config,
};

/// The `[sms]` block the test servers get: the catcher, a fake SID and token.
fn catcher_config() -> SmsConfig {
    test_config("sqlite::memory:".into()).sms
}

#[tokio::test]
async fn a_login_code_reaches_the_catcher() {
    let to = unique_phone();
    assert_eq!(normalize_phone(&to, &[]).as_deref(), Ok(to.as_str()));
    let sender = sms_sender_from_config(&catcher_config()).expect("sender");
    sender
        .send(&to, &login_code_sms("482913", "Test App"))
        .await
        .expect("sent");
    let http = reqwest::Client::new();
    assert_eq!(latest_sms_code(&http, &to).await, "482913");
    let message = latest_sms(&http, &to).await;
    assert_eq!(message["to"], to.as_str());
    assert_eq!(message["from"], common::SMS_FROM);
    assert_eq!(
        message["body"],
        "482913 is your Test App login code. It expires in 10 minutes."
    );
}

#[tokio::test]
async fn a_messaging_service_replaces_the_from_number() {
    let to = unique_phone();
    let config = SmsConfig {
        from: None,
        messaging_service_sid: Some("MGtest".into()),
        ..catcher_config()
    };
    TwilioSender::new(&config)
        .expect("sender")
        .send(&to, "hello")
        .await
        .expect("sent");
    let message = latest_sms(&reqwest::Client::new(), &to).await;
    assert_eq!(message["from"], "MGtest");
}

#[tokio::test]
async fn a_bad_number_is_the_recipients_fault() {
    let sender = TwilioSender::new(&catcher_config()).expect("sender");
    let error = sender.send("12015550123", "hello").await.unwrap_err();
    assert_eq!(
        error,
        SmsError::Recipient("not a valid phone number".into())
    );
}

#[tokio::test]
async fn a_wrong_auth_token_is_a_gateway_failure() {
    // Like a Twilio account, a catcher account keeps the first token it is used with.
    let account_sid = format!("AC{}", random_id(20).unwrap());
    let right = SmsConfig {
        account_sid: Some(account_sid.clone()),
        auth_token: Some(Redacted("right-token".into())),
        ..catcher_config()
    };
    let to = unique_phone();
    TwilioSender::new(&right)
        .expect("sender")
        .send(&to, "hello")
        .await
        .expect("sent");
    let wrong = SmsConfig {
        auth_token: Some(Redacted("wrong-token".into())),
        ..right
    };
    let error = TwilioSender::new(&wrong)
        .expect("sender")
        .send(&to, "hello")
        .await
        .unwrap_err();
    assert_eq!(
        error,
        SmsError::Gateway("HTTP 401, code 20003: Authenticate".into())
    );
    assert!(!error.to_string().contains("wrong-token"));
}

#[tokio::test]
async fn an_unreachable_gateway_is_a_gateway_failure() {
    let config = SmsConfig {
        api_base_url: "http://127.0.0.1:9".into(),
        ..catcher_config()
    };
    let error = TwilioSender::new(&config)
        .expect("sender")
        .send(&unique_phone(), "hello")
        .await
        .unwrap_err();
    assert!(matches!(error, SmsError::Gateway(_)), "{error:?}");
}

#[tokio::test]
async fn without_a_gateway_sending_is_not_configured() {
    let sender = sms_sender_from_config(&SmsConfig::default()).expect("sender");
    assert_eq!(
        sender.send("+12015550123", "hello").await,
        Err(SmsError::NotConfigured)
    );
    let half = SmsConfig {
        account_sid: Some(SMS_ACCOUNT_SID.into()),
        ..SmsConfig::default()
    };
    assert!(matches!(
        sms_sender_from_config(&half),
        Err(SmsError::Config(_))
    ));
}
