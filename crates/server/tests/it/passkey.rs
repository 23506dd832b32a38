//! Passkeys over HTTP with a software authenticator that builds real WebAuthn messages
//! (`tests/common/authenticator.rs`): sign-up, discoverable login, linking up to five, the
//! challenge rules (single use, purpose, user, concurrency), origin and RP id, the sign counter,
//! user verification, unknown credentials, malformed input, the unlink rules (last way in,
//! enrolled in MFA), the login-method switch, and the assertion seam MFA uses.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::sync::Arc;

use axum::extract::FromRef;
use common::authenticator::SoftAuthenticator;
use common::{Backend, ORIGIN, Reply, TestApp};
use serde_json::{Value, json};
use symbolon_protocol::accounts::LoginMethodsAndOrder;
use symbolon_protocol::passkey::PasskeyAuthenticationResponse;
use symbolon_server::app_settings::AppSettings;
use symbolon_server::db::passkeys::{PasskeyChallenge, mfa_credential_ids, set_enrolled_in_mfa};
use symbolon_server::methods::deps::PasskeyCeremonyDeps;
use symbolon_server::methods::passkey::ceremony::Purpose;
use symbolon_server::methods::passkey::{finish_assertion, start_assertion};
use tokio::task::JoinSet;

const REGISTER_INIT: &str = "/api/v1/passkeys/register/init";
const REGISTER: &str = "/api/v1/passkeys/register";
const AUTH_INIT: &str = "/api/v1/passkeys/authenticate/init";
const AUTH: &str = "/api/v1/passkeys/authenticate";
const LINK_INIT: &str = "/api/v1/passkeys/link/init";
const LINK: &str = "/api/v1/passkeys/link";
const UNLINK: &str = "/api/v1/passkeys/unlink";
const RP_ID: &str = "localhost";
const CHROME_MAC: &str = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 \
                          (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

backend_tests!(
    sign_up_log_in_and_link_up_to_five,
    a_challenge_is_single_use_and_bound_to_its_purpose_and_user,
    of_concurrent_uses_of_one_challenge_exactly_one_wins,
    wrong_origin_and_wrong_rp_id_are_refused,
    the_rp_id_setting_is_used_and_must_cover_the_origin,
    a_sign_count_that_does_not_grow_is_refused,
    user_verification_is_required,
    unknown_and_re_registered_credentials_are_refused,
    malformed_input_is_invalid_data_never_5xx,
    unlink_rules_last_way_in_and_mfa,
    passkeys_need_the_login_method,
    the_mfa_seam_binds_assertions_to_the_user,
    anonymous_inits_are_limited_per_ip,
    a_challenge_expires,
    of_concurrent_links_past_four_exactly_one_wins,
);

fn settings(methods: &[&str]) -> AppSettings {
    AppSettings {
        login_methods: LoginMethodsAndOrder {
            primary: methods.iter().map(|m| m.to_string()).collect(),
            overflow: vec![],
        },
        ..AppSettings::default()
    }
}

async fn start(backend: Backend) -> TestApp {
    let t = TestApp::start(backend).await;
    t.set_settings(settings(&["email", "passkey"])).await;
    t
}

fn ok(reply: Reply) -> Value {
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.body
}

/// `register/init`, the authenticator's answer, `register`.
async fn sign_up(t: &TestApp, auth: &mut SoftAuthenticator) -> Reply {
    let init = ok(t.post(REGISTER_INIT, json!({})).send().await);
    let response = auth.register(&init, ORIGIN);
    t.post(REGISTER, json!({ "authenticator_response": response }))
        .header("user-agent", CHROME_MAC)
        .send()
        .await
}

/// `authenticate/init`, the authenticator's assertion, `authenticate`.
async fn log_in(t: &TestApp, auth: &mut SoftAuthenticator) -> Reply {
    let init = ok(t.post(AUTH_INIT, json!({})).send().await);
    let response = auth.assert(&init, ORIGIN);
    authenticate(t, &init, response).await
}

async fn authenticate(t: &TestApp, init: &Value, response: Value) -> Reply {
    let challenge = init["options"]["challenge"].clone();
    t.post(
        AUTH,
        json!({ "challenge": challenge, "authenticator_response": response }),
    )
    .send()
    .await
}

/// `link/init`, a new credential, `link`.
async fn link(t: &TestApp, token: &str, auth: &mut SoftAuthenticator) -> Reply {
    let init = ok(t.post(LINK_INIT, json!({})).bearer(token).send().await);
    let response = auth.register(&init, ORIGIN);
    t.post(LINK, json!({ "authenticator_response": response }))
        .bearer(token)
        .send()
        .await
}

fn passkeys(user: &Value) -> Vec<Value> {
    user["linked_accounts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["type"] == "passkey")
        .cloned()
        .collect()
}

/// The user's passkey `credential_id` (accounts made in one second come in id order).
fn passkey(user: &Value, credential_id: &str) -> Value {
    passkeys(user)
        .into_iter()
        .find(|p| p["credential_id"] == credential_id)
        .unwrap_or_else(|| panic!("no passkey {credential_id} in {user}"))
}

fn token(session: &Value) -> String {
    session["token"].as_str().unwrap().to_string()
}

async fn sign_up_login_and_link_up_to_five_inner(t: &TestApp) {
    let mut auth = SoftAuthenticator::new(RP_ID);
    let signed_up = ok(sign_up(t, &mut auth).await);
    assert_eq!(signed_up["is_new_user"], true);
    let user_id = signed_up["user"]["id"].clone();
    let first = passkeys(&signed_up["user"]);
    assert_eq!(first.len(), 1);
    assert_eq!(first[0]["credential_id"], auth.last().id_b64());
    assert_eq!(first[0]["created_with_browser"], "Chrome");
    assert_eq!(first[0]["created_with_os"], "macOS");
    assert_eq!(first[0]["created_with_device"], "desktop");
    assert_eq!(first[0]["enrolled_in_mfa"], false);
    assert!(first[0]["first_verified_at"].is_number());
    assert!(first[0].get("credential").is_none(), "{}", first[0]);

    let logged_in = ok(log_in(t, &mut auth).await);
    assert_eq!(logged_in["is_new_user"], false);
    assert_eq!(logged_in["user"]["id"], user_id);

    // Link four more: five in all, each with its own credential.
    let token = token(&logged_in);
    for n in 2..=5 {
        let user = ok(link(t, &token, &mut auth).await);
        assert_eq!(passkeys(&user).len(), n);
    }
    // A sixth is refused at init (and at link: see below).
    let refused = t.post(LINK_INIT, json!({})).bearer(&token).send().await;
    refused.assert_error(422, "cannot_link_more_of_type");
    assert_eq!(
        refused.body["error"],
        "Cannot link more passkeys to account."
    );
    // The second passkey (not the newest) logs in too.
    auth.use_credential = Some(1);
    let again = ok(log_in(t, &mut auth).await);
    assert_eq!(again["user"]["id"], user_id);
}

async fn sign_up_log_in_and_link_up_to_five(backend: Backend) {
    let t = start(backend).await;
    sign_up_login_and_link_up_to_five_inner(&t).await;

    // A link init taken at four passkeys cannot be finished once a fifth exists.
    let mut auth = SoftAuthenticator::new(RP_ID);
    let session = ok(sign_up(&t, &mut auth).await);
    let token = token(&session);
    for _ in 2..=4 {
        ok(link(&t, &token, &mut auth).await);
    }
    let init_a = ok(t.post(LINK_INIT, json!({})).bearer(&token).send().await);
    let init_b = ok(t.post(LINK_INIT, json!({})).bearer(&token).send().await);
    let excluded = init_b["options"]["exclude_credentials"].as_array().unwrap();
    assert_eq!(excluded.len(), 4);
    assert_eq!(init_b["relying_party"], format!("https://{RP_ID}"));
    assert_eq!(
        init_b["options"]["authenticator_selection"]["resident_key"],
        "required"
    );
    let a = auth.register(&init_a, ORIGIN);
    let b = auth.register(&init_b, ORIGIN);
    ok(t.post(LINK, json!({ "authenticator_response": a }))
        .bearer(&token)
        .send()
        .await);
    let sixth = t
        .post(LINK, json!({ "authenticator_response": b }))
        .bearer(&token)
        .send()
        .await;
    sixth.assert_error(422, "cannot_link_more_of_type");
    assert_eq!(sixth.body["error"], "Cannot link more passkeys to account.");
}

async fn a_challenge_is_single_use_and_bound_to_its_purpose_and_user(backend: Backend) {
    let t = start(backend).await;
    let mut auth = SoftAuthenticator::new(RP_ID);
    let session = ok(sign_up(&t, &mut auth).await);

    // Replayed: the same assertion (and a fresh one for the same challenge) fail the 2nd time.
    let init = ok(t.post(AUTH_INIT, json!({})).send().await);
    let response = auth.assert(&init, ORIGIN);
    ok(authenticate(&t, &init, response.clone()).await);
    authenticate(&t, &init, response)
        .await
        .assert_error(401, "invalid_credentials");
    let fresh = auth.assert(&init, ORIGIN);
    authenticate(&t, &init, fresh)
        .await
        .assert_error(401, "invalid_credentials");

    // A registration challenge does not finish a login, nor a login challenge a registration.
    let register_init = ok(t.post(REGISTER_INIT, json!({})).send().await);
    let as_login = auth.assert(&register_init, ORIGIN);
    authenticate(&t, &register_init, as_login)
        .await
        .assert_error(401, "invalid_credentials");
    let login_init = ok(t.post(AUTH_INIT, json!({})).send().await);
    let mut options = login_init["options"].clone();
    options["user"] = json!({ "id": "AQID", "name": "x", "display_name": "x" });
    let as_registration = auth.register(&options, ORIGIN);
    t.post(
        REGISTER,
        json!({ "authenticator_response": as_registration }),
    )
    .send()
    .await
    .assert_error(401, "invalid_credentials");

    // A link challenge is the user's: another user's session cannot finish it, and it is no
    // sign-up challenge either.
    let token = token(&session);
    let link_init = ok(t.post(LINK_INIT, json!({})).bearer(&token).send().await);
    let mut other = SoftAuthenticator::new(RP_ID);
    let other_session = ok(sign_up(&t, &mut other).await);
    let stolen = other.register(&link_init, ORIGIN);
    t.post(LINK, json!({ "authenticator_response": stolen.clone() }))
        .bearer(&self::token(&other_session))
        .send()
        .await
        .assert_error(401, "invalid_credentials");
    let link_init = ok(t.post(LINK_INIT, json!({})).bearer(&token).send().await);
    let as_sign_up = other.register(&link_init, ORIGIN);
    t.post(REGISTER, json!({ "authenticator_response": as_sign_up }))
        .send()
        .await
        .assert_error(401, "invalid_credentials");
}

async fn of_concurrent_uses_of_one_challenge_exactly_one_wins(backend: Backend) {
    let t = Arc::new(start(backend).await);
    let mut auth = SoftAuthenticator::new(RP_ID);
    ok(sign_up(&t, &mut auth).await);
    let init = ok(t.post(AUTH_INIT, json!({})).send().await);
    let mut set = JoinSet::new();
    for _ in 0..8 {
        // Each assertion carries a higher counter, so only the challenge decides.
        let response = auth.assert(&init, ORIGIN);
        let (t, init) = (t.clone(), init.clone());
        set.spawn(async move { authenticate(&t, &init, response).await });
    }
    let mut wins = 0;
    while let Some(reply) = set.join_next().await {
        let reply = reply.unwrap();
        if reply.status == 200 {
            wins += 1;
        } else {
            reply.assert_error(401, "invalid_credentials");
        }
    }
    assert_eq!(wins, 1);
}

async fn wrong_origin_and_wrong_rp_id_are_refused(backend: Backend) {
    let t = start(backend).await;
    // Registration: client data naming another origin, authenticator data hashing another RP.
    for (origin, rp_id) in [
        (Some("http://evil.example"), None),
        (None, Some("evil.example")),
    ] {
        let mut auth = SoftAuthenticator::new(RP_ID);
        auth.origin_override = origin.map(str::to_string);
        auth.rp_id_override = rp_id.map(str::to_string);
        sign_up(&t, &mut auth)
            .await
            .assert_error(401, "invalid_credentials");
    }
    // Assertion: the same two faults.
    let mut auth = SoftAuthenticator::new(RP_ID);
    ok(sign_up(&t, &mut auth).await);
    auth.origin_override = Some("http://localhost:4000".into());
    log_in(&t, &mut auth)
        .await
        .assert_error(401, "invalid_credentials");
    auth.origin_override = None;
    auth.rp_id_override = Some("example.com".into());
    log_in(&t, &mut auth)
        .await
        .assert_error(401, "invalid_credentials");
    auth.rp_id_override = None;
    ok(log_in(&t, &mut auth).await);
    // Without Origin there is no RP to check against.
    t.post(AUTH_INIT, json!({}))
        .without("origin")
        .send()
        .await
        .assert_error(403, "missing_origin");
}

async fn the_rp_id_setting_is_used_and_must_cover_the_origin(backend: Backend) {
    let t = TestApp::start(backend).await;
    let mut with_rp = settings(&["passkey"]);
    with_rp.passkeys.rp_id = Some("localhost".into());
    t.set_settings(with_rp.clone()).await;
    let init = ok(t.post(REGISTER_INIT, json!({})).send().await);
    assert_eq!(init["relying_party"], "https://localhost");
    assert_eq!(init["options"]["rp"]["id"], "localhost");
    // An RP id the page's host is not within cannot be used from that page.
    with_rp.passkeys.rp_id = Some("example.com".into());
    t.set_settings(with_rp.clone()).await;
    t.post(REGISTER_INIT, json!({}))
        .send()
        .await
        .assert_error(400, "invalid_data");
    // And the settings refuse what is no host name.
    for bad in [
        "https://example.com",
        "example.com:443",
        "Example.com",
        "a/b",
    ] {
        with_rp.passkeys.rp_id = Some(bad.into());
        assert!(with_rp.clone().checked().is_err(), "{bad}");
    }
}

async fn a_sign_count_that_does_not_grow_is_refused(backend: Backend) {
    let t = start(backend).await;
    let mut auth = SoftAuthenticator::new(RP_ID);
    ok(sign_up(&t, &mut auth).await);
    auth.set_counter(0, 9);
    ok(log_in(&t, &mut auth).await); // counter 10
    auth.set_counter(0, 4);
    log_in(&t, &mut auth)
        .await
        .assert_error(401, "invalid_credentials"); // 5 < 10
    auth.set_counter(0, 9);
    log_in(&t, &mut auth)
        .await
        .assert_error(401, "invalid_credentials"); // 10 = 10
    ok(log_in(&t, &mut auth).await); // 11

    // An authenticator without a counter (always 0) is fine while the stored one is 0 too.
    let mut counterless = SoftAuthenticator::new(RP_ID);
    counterless.counter_step = 0;
    ok(sign_up(&t, &mut counterless).await);
    ok(log_in(&t, &mut counterless).await);
    ok(log_in(&t, &mut counterless).await);
}

async fn user_verification_is_required(backend: Backend) {
    let t = start(backend).await;
    let mut auth = SoftAuthenticator::new(RP_ID);
    auth.uv = false;
    sign_up(&t, &mut auth)
        .await
        .assert_error(401, "invalid_credentials");
    auth.uv = true;
    ok(sign_up(&t, &mut auth).await);
    auth.uv = false;
    log_in(&t, &mut auth)
        .await
        .assert_error(401, "invalid_credentials");
}

async fn unknown_and_re_registered_credentials_are_refused(backend: Backend) {
    let t = start(backend).await;
    // A credential the server never saw.
    let mut stranger = SoftAuthenticator::new(RP_ID);
    let init = ok(t.post(REGISTER_INIT, json!({})).send().await);
    stranger.register(&init, ORIGIN);
    let reply = log_in(&t, &mut stranger).await;
    reply.assert_error(401, "invalid_credentials");
    assert_eq!(reply.body["error"], "Unknown passkey");

    // A sign-up naming someone's credential id with another key never signs in as them.
    let mut victim = SoftAuthenticator::new(RP_ID);
    let victim_session = ok(sign_up(&t, &mut victim).await);
    let mut attacker = SoftAuthenticator::new(RP_ID);
    let forged = reforge_registration(&mut attacker, &t, &victim.last().id).await;
    t.post(
        REGISTER,
        json!({ "authenticator_response": forged.clone() }),
    )
    .send()
    .await
    .assert_error(401, "invalid_credentials");
    // Nor can it be linked by another user, nor replace the owner's key by a link.
    let mut other = SoftAuthenticator::new(RP_ID);
    let other_session = ok(sign_up(&t, &mut other).await);
    let forged = reforge_link(&mut attacker, &t, &token(&other_session), &victim.last().id).await;
    t.post(LINK, json!({ "authenticator_response": forged }))
        .bearer(&token(&other_session))
        .send()
        .await
        .assert_error(422, "linked_to_another_user");
    // (The owner's own link options exclude it, which webauthn-rs enforces; the account rules
    // would refuse it too.)
    let forged = reforge_link(
        &mut attacker,
        &t,
        &token(&victim_session),
        &victim.last().id,
    )
    .await;
    t.post(LINK, json!({ "authenticator_response": forged }))
        .bearer(&token(&victim_session))
        .send()
        .await
        .assert_error(401, "invalid_credentials");
    // The victim's own key still works, the attacker's does not.
    ok(log_in(&t, &mut victim).await);
    log_in(&t, &mut attacker)
        .await
        .assert_error(401, "invalid_credentials");
}

/// A registration by `auth` for a sign-up challenge whose credential id is `id`.
async fn reforge_registration(auth: &mut SoftAuthenticator, t: &TestApp, id: &[u8]) -> Value {
    let init = ok(t.post(REGISTER_INIT, json!({})).send().await);
    auth.register_with_id(&init, ORIGIN, id.to_vec())
}

/// A registration by `auth` for a link challenge of `token`'s user whose credential id is `id`.
async fn reforge_link(auth: &mut SoftAuthenticator, t: &TestApp, token: &str, id: &[u8]) -> Value {
    let init = ok(t.post(LINK_INIT, json!({})).bearer(token).send().await);
    auth.register_with_id(&init, ORIGIN, id.to_vec())
}

async fn malformed_input_is_invalid_data_never_5xx(backend: Backend) {
    let t = start(backend).await;
    let mut auth = SoftAuthenticator::new(RP_ID);
    let session = ok(sign_up(&t, &mut auth).await);
    let init = ok(t.post(AUTH_INIT, json!({})).send().await);
    let good = auth.assert(&init, ORIGIN);
    let mut cases: Vec<Value> = Vec::new();
    for (path, value) in [
        ("/raw_id", json!("not base64!")),
        ("/id", json!("AAAA")),
        ("/response/signature", json!("%%%")),
        ("/response/client_data_json", json!("e30")),
        ("/response/client_data_json", json!("bm90IGpzb24")),
        ("/response/authenticator_data", json!("AA")),
        ("/type", json!("password")),
        ("/response/signature", json!(17)),
    ] {
        let mut bad = good.clone();
        *bad.pointer_mut(path).unwrap() = value;
        cases.push(bad);
    }
    for bad in cases {
        let reply = authenticate(&t, &init, bad.clone()).await;
        assert!(
            reply.status.is_client_error(),
            "{bad}: {} {}",
            reply.status,
            reply.text
        );
        assert_ne!(reply.status, 500);
        if reply.status == 400 {
            reply.assert_error(400, "invalid_data");
        }
    }
    // Whole bodies that are no JSON, or miss fields.
    for body in ["{", "[]", "{\"authenticator_response\": 1}"] {
        let reply = t
            .request(axum::http::Method::POST, AUTH)
            .raw_body(body)
            .send()
            .await;
        assert_eq!(reply.status, 400, "{body}: {}", reply.text);
    }
    let init = ok(t.post(REGISTER_INIT, json!({})).send().await);
    let mut registration = auth.register(&init, ORIGIN);
    registration["response"]["attestation_object"] = json!("AAAA");
    t.post(REGISTER, json!({ "authenticator_response": registration }))
        .send()
        .await
        .assert_error(400, "invalid_data");
    let reply = t
        .post(UNLINK, json!({ "credential_id": 5 }))
        .bearer(&token(&session))
        .send()
        .await;
    assert_eq!(reply.status, 400, "{}", reply.text);
}

async fn unlink_rules_last_way_in_and_mfa(backend: Backend) {
    let t = start(backend).await;
    let mut auth = SoftAuthenticator::new(RP_ID);
    let session = ok(sign_up(&t, &mut auth).await);
    let token = token(&session);
    let user_id = session["user"]["id"].as_str().unwrap().to_string();
    let first = auth.last().id_b64();
    // The only way in.
    t.post(UNLINK, json!({ "credential_id": first }))
        .bearer(&token)
        .send()
        .await
        .assert_error(422, "cannot_unlink_sole_account");
    let user = ok(link(&t, &token, &mut auth).await);
    let second = auth.last().id_b64();
    assert_eq!(passkeys(&user).len(), 2);
    t.post(UNLINK, json!({ "credential_id": "AAAA" }))
        .bearer(&token)
        .send()
        .await
        .assert_error(404, "linked_account_not_found");

    // Enrolled in MFA (what the MFA enrolment does): shown, and cannot be unlinked.
    let app_id = t.app_id.clone();
    let enrolled = set_enrolled_in_mfa(
        &t.state.db,
        &app_id,
        &user_id,
        &[first.clone(), "x".into()],
        true,
    )
    .await
    .unwrap();
    assert_eq!(enrolled, 1);
    let listed = mfa_credential_ids(&t.state.db, &user_id).await.unwrap();
    assert_eq!(listed, vec![first.clone()]);
    let me = ok(t.get("/api/v1/users/me").bearer(&token).send().await);
    assert_eq!(passkey(&me["user"], &first)["enrolled_in_mfa"], true);
    assert_eq!(passkey(&me["user"], &second)["enrolled_in_mfa"], false);
    let refused = t
        .post(UNLINK, json!({ "credential_id": first }))
        .bearer(&token)
        .send()
        .await;
    refused.assert_error(400, "invalid_data");
    assert_eq!(
        refused.body["error"],
        "Cannot unlink a passkey enrolled in MFA"
    );
    // remove_as_mfa needs the MFA token only the wallet frame has.
    t.post(
        UNLINK,
        json!({ "credential_id": first, "remove_as_mfa": true }),
    )
    .bearer(&token)
    .send()
    .await
    .assert_error(403, "missing_or_invalid_mfa");
    // Still logs in (the flag survives the counter update and vice versa).
    auth.use_credential = Some(0);
    ok(log_in(&t, &mut auth).await);
    let me = ok(t.get("/api/v1/users/me").bearer(&token).send().await);
    assert_eq!(passkey(&me["user"], &first)["enrolled_in_mfa"], true);

    // Unenrolled, it can go; then the other is the last way in.
    set_enrolled_in_mfa(
        &t.state.db,
        &app_id,
        &user_id,
        std::slice::from_ref(&first),
        false,
    )
    .await
    .unwrap();
    let user = ok(t
        .post(UNLINK, json!({ "credential_id": first }))
        .bearer(&token)
        .send()
        .await);
    assert_eq!(passkeys(&user).len(), 1);
    t.post(UNLINK, json!({ "credential_id": second }))
        .bearer(&token)
        .send()
        .await
        .assert_error(422, "cannot_unlink_sole_account");
    // The unlinked passkey no longer signs in.
    auth.use_credential = Some(0);
    log_in(&t, &mut auth)
        .await
        .assert_error(401, "invalid_credentials");
}

async fn passkeys_need_the_login_method(backend: Backend) {
    let t = TestApp::start(backend).await;
    let mut auth = SoftAuthenticator::new(RP_ID);
    for path in [REGISTER_INIT, AUTH_INIT] {
        t.post(path, json!({}))
            .send()
            .await
            .assert_error(403, "disallowed_login_method");
    }
    let config = ok(t.get(&format!("/api/v1/apps/{}", t.app_id)).send().await);
    assert_eq!(config["passkey_auth"], false);
    // Enabled, signed up, then disabled again: login and link are refused.
    t.set_settings(settings(&["email", "passkey"])).await;
    let config = ok(t.get(&format!("/api/v1/apps/{}", t.app_id)).send().await);
    assert_eq!(config["passkey_auth"], true);
    let session = ok(sign_up(&t, &mut auth).await);
    let init = ok(t.post(AUTH_INIT, json!({})).send().await);
    let response = auth.assert(&init, ORIGIN);
    t.set_settings(settings(&["email"])).await;
    authenticate(&t, &init, response)
        .await
        .assert_error(403, "disallowed_login_method");
    t.post(LINK_INIT, json!({}))
        .bearer(&token(&session))
        .send()
        .await
        .assert_error(403, "disallowed_login_method");
}

async fn the_mfa_seam_binds_assertions_to_the_user(backend: Backend) {
    let t = start(backend).await;
    let mut auth = SoftAuthenticator::new(RP_ID);
    let session = ok(sign_up(&t, &mut auth).await);
    let user_id = session["user"]["id"].as_str().unwrap().to_string();
    let credential_id = auth.last().id_b64();
    let mut other = SoftAuthenticator::new(RP_ID);
    let other_session = ok(sign_up(&t, &mut other).await);
    let other_id = other_session["user"]["id"].as_str().unwrap().to_string();
    let app = t.state.db.find_app(&t.app_id).await.unwrap().unwrap();
    // The passkey ceremonies' slice of the server's state, as MFA holds it.
    let ceremonies = &PasskeyCeremonyDeps::from_ref(&t.state);
    let ids = [credential_id.clone()];

    let options = start_assertion(ceremonies, &app, Some(ORIGIN), &user_id, &ids, Purpose::Mfa)
        .await
        .unwrap();
    assert_eq!(options.allow_credentials.len(), 1);
    assert_eq!(options.allow_credentials[0].id, credential_id);
    assert_eq!(options.user_verification, "required");
    let assertion =
        |auth: &mut SoftAuthenticator, options: &Value| -> PasskeyAuthenticationResponse {
            serde_json::from_value(auth.assert(options, ORIGIN)).unwrap()
        };
    let finish =
        async |response: &PasskeyAuthenticationResponse, user: Option<&String>, purpose| {
            finish_assertion(
                ceremonies,
                &app,
                Some(ORIGIN),
                user.map(String::as_str),
                purpose,
                response,
            )
            .await
        };
    let refused = |result: Result<_, symbolon_server::error::AppError>| {
        result
            .map(|_: symbolon_server::methods::passkey::VerifiedPasskey| ())
            .unwrap_err()
    };
    let options = serde_json::to_value(&options).unwrap();
    let response = assertion(&mut auth, &options);
    // Another user cannot finish (nor spend) this user's challenge, nor is it a login challenge.
    let stolen = finish(&response, Some(&other_id), Purpose::Mfa).await;
    assert_eq!(
        refused(stolen).code,
        symbolon_protocol::ServerErrorCode::InvalidCredentials
    );
    let as_login = finish(&response, None, Purpose::Authenticate).await;
    assert_eq!(
        refused(as_login).code,
        symbolon_protocol::ServerErrorCode::InvalidCredentials
    );
    let verified = finish(&response, Some(&user_id), Purpose::Mfa)
        .await
        .unwrap();
    assert_eq!(verified.user_id, user_id);
    assert_eq!(verified.credential_id, credential_id);
    // Used once.
    let replayed = finish(&response, Some(&user_id), Purpose::Mfa).await;
    assert_eq!(
        refused(replayed).code,
        symbolon_protocol::ServerErrorCode::InvalidCredentials
    );
    // A login challenge does not pass as MFA either.
    let login = ok(t.post(AUTH_INIT, json!({})).send().await);
    let response = assertion(&mut auth, &login);
    let as_mfa = finish(&response, Some(&user_id), Purpose::Mfa).await;
    assert_eq!(
        refused(as_mfa).code,
        symbolon_protocol::ServerErrorCode::InvalidCredentials
    );
    // The other user's passkey cannot answer this user's challenge.
    let options = start_assertion(ceremonies, &app, Some(ORIGIN), &user_id, &ids, Purpose::Mfa)
        .await
        .unwrap();
    let options = serde_json::to_value(&options).unwrap();
    other.use_credential = Some(0);
    let response = assertion(&mut other, &options);
    let foreign = finish(&response, Some(&user_id), Purpose::Mfa).await;
    assert_eq!(refused(foreign).message, "Unknown passkey");
}

async fn anonymous_inits_are_limited_per_ip(backend: Backend) {
    let t = TestApp::start_with(backend, |c| c.rate_limit.ip_per_window = 3).await;
    t.set_settings(settings(&["passkey"])).await;
    for path in [REGISTER_INIT, AUTH_INIT, REGISTER_INIT] {
        ok(t.post(path, json!({})).client_ip("10.0.0.7").send().await);
    }
    for path in [REGISTER_INIT, AUTH_INIT] {
        let limited = t.post(path, json!({})).client_ip("10.0.0.7").send().await;
        limited.assert_error(429, "too_many_requests");
        assert!(limited.header("retry-after").is_some());
    }
    // The budget is the network's (a /24), and passkeys' own: another network is unaffected.
    t.post(AUTH_INIT, json!({}))
        .client_ip("10.0.0.8")
        .send()
        .await
        .assert_error(429, "too_many_requests");
    ok(t.post(AUTH_INIT, json!({}))
        .client_ip("10.0.1.8")
        .send()
        .await);
}

async fn a_challenge_expires(backend: Backend) {
    let t = start(backend).await;
    let db = &t.state.db;
    let now = t.state.clock.now();
    let challenge = PasskeyChallenge {
        challenge_hash: "ab",
        app_id: &t.app_id,
        purpose: "authenticate",
        user_id: "",
        state: "{}",
        expires_at: now + 300,
    };
    db.insert_passkey_challenge(&challenge, now).await.unwrap();
    let take = |at: i64| db.take_passkey_challenge("ab", &t.app_id, "authenticate", "", at);
    assert_eq!(take(now + 300).await.unwrap(), None);
    assert_eq!(take(now + 299).await.unwrap().as_deref(), Some("{}"));
    assert_eq!(take(now + 1).await.unwrap(), None);
}

async fn of_concurrent_links_past_four_exactly_one_wins(backend: Backend) {
    let t = Arc::new(start(backend).await);
    let mut auth = SoftAuthenticator::new(RP_ID);
    let session = ok(sign_up(&t, &mut auth).await);
    let token = token(&session);
    for _ in 2..=3 {
        ok(link(&t, &token, &mut auth).await);
    }
    // Three links finishing at once onto three passkeys: four and five pass, the sixth not.
    let mut responses = Vec::new();
    for _ in 0..3 {
        let init = ok(t.post(LINK_INIT, json!({})).bearer(&token).send().await);
        responses.push(auth.register(&init, ORIGIN));
    }
    let mut set = JoinSet::new();
    for response in responses {
        let (t, token) = (t.clone(), token.clone());
        set.spawn(async move {
            t.post(LINK, json!({ "authenticator_response": response }))
                .bearer(&token)
                .send()
                .await
        });
    }
    let mut linked = 0;
    while let Some(reply) = set.join_next().await {
        let reply = reply.unwrap();
        if reply.status == 200 {
            linked += 1;
        } else {
            reply.assert_error(422, "cannot_link_more_of_type");
        }
    }
    assert_eq!(linked, 2);
    let me = ok(t.get("/api/v1/users/me").bearer(&token).send().await);
    assert_eq!(passkeys(&me["user"]).len(), 5);
}
