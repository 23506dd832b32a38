//! The MFA routes (`docs/server.md` "MFA"). Host routes (CORS, bearer): sending an SMS code and
//! the passkey options. Frame routes (bearer, `Origin` = the server's own, checked by
//! [`FrameCaller`] like the share endpoints): verify (hands out the MFA token), enrol, unenrol.

use axum::Json;
use axum::extract::State;
use symbolon_protocol::mfa::{
    MfaPasskeyEnrollRequest, MfaPasskeyInitResponse, MfaSmsAction, MfaSmsEnrollRequest,
    MfaSmsInitRequest, MfaTokenResponse, MfaUnenrollRequest, MfaUserResponse, MfaVerifyRequest,
    TotpEnrollRequest, TotpInitResponse,
};
use symbolon_protocol::passkey::PasskeyUnlinkRequest;
use symbolon_protocol::session::SuccessResponse;
use symbolon_protocol::user::User;

use super::deps::MfaDeps;
use super::guard::{mfa_required, token_refused};
use super::notice::{self, Change};
use super::token::{presented, token_hash};
use super::{MfaMethodType, not_enrolled, offered, passkey, sms, token, totp};
use crate::db::mfa::{ChangeOutcome, MfaChange};
use crate::error::AppError;
use crate::rate_limit::Budget;
use crate::users::view::user_view;
use crate::web::auth::{Authenticated, require_recent_sign_in};
use crate::web::client_ip::ClientIp;
use crate::web::frame_caller::FrameCaller;
use crate::web::json_body::JsonBody;
use crate::web::routes::Access::{Frame, UserOrigin};
use crate::web::routes::Verb::Post;
use crate::web::routes::{Body, Mount, Route, Routes, json, r};

/// `POST /mfa/passwordless_sms/init`: texts a code to the enrolled MFA number (`verify`) or to a
/// number being enrolled (`enroll`).
pub async fn sms_init(
    State(deps): State<MfaDeps>,
    caller: Authenticated,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<MfaSmsInitRequest>,
) -> Result<Json<SuccessResponse>, AppError> {
    let app = &caller.ctx.app;
    let user_id = caller.claims.sub.as_str();
    let phone = match body.action {
        MfaSmsAction::Verify => sms::enrolled_phone(&deps, user_id).await?,
        MfaSmsAction::Enroll => {
            offered(app, MfaMethodType::Sms)?;
            // A first second factor only within the account-change window (see `required_token`).
            if deps.db.mfa_methods(user_id).await?.is_empty() {
                require_recent_sign_in(&deps.db, &deps.clock, &caller.claims.sid).await?;
            }
            let raw = body.phone_number.as_deref().ok_or_else(|| {
                AppError::invalid_data("phoneNumber is required to enroll a number")
            })?;
            sms::normalize(app, raw)?
        }
    };
    sms::send(&deps, app, user_id, &phone, &client_ip).await?;
    Ok(Json(SuccessResponse { success: true }))
}

/// `POST /mfa/passkeys/init`: assertion options for the user's MFA passkeys.
pub async fn passkeys_init(
    State(deps): State<MfaDeps>,
    caller: Authenticated,
) -> Result<Json<MfaPasskeyInitResponse>, AppError> {
    let ctx = &caller.ctx;
    let options =
        passkey::options(&deps, &ctx.app, ctx.origin.as_deref(), &caller.claims.sub).await?;
    Ok(Json(MfaPasskeyInitResponse { options }))
}

/// `POST /mfa/verify`: checks a TOTP or SMS code (or a passkey assertion) and hands the frame a
/// single-use MFA token for this session.
pub async fn verify(
    State(deps): State<MfaDeps>,
    caller: FrameCaller,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<MfaVerifyRequest>,
) -> Result<Json<MfaTokenResponse>, AppError> {
    let app = &caller.app;
    let user_id = caller.user.id.as_str();
    let kind = body.method;
    let code = || {
        body.code
            .as_deref()
            .ok_or_else(|| AppError::invalid_data("Invalid MFA code"))
    };
    let checked = match kind {
        MfaMethodType::Totp => match code() {
            Ok(code) => totp::verify(&deps, app, user_id, code).await,
            Err(error) => Err(error),
        },
        MfaMethodType::Sms => match code() {
            Ok(code) => sms::verify(&deps, app, user_id, code, &client_ip).await,
            Err(error) => Err(error),
        },
        MfaMethodType::Passkey => match body.authenticator_response.as_ref() {
            Some(response) => passkey::verify(&deps, app, user_id, response).await,
            None => Err(AppError::invalid_data(
                "A passkey verification needs authenticator_response",
            )),
        },
    };
    let outcome = match &checked {
        Ok(()) => "verified",
        Err(error) => error.code.as_str(),
    };
    tracing::info!(
        target: "symbolon::audit",
        app = %app.id,
        user = %user_id,
        session = %caller.claims.sid,
        ip = %client_ip.ip(),
        method = kind.as_str(),
        action = "mfa_verify",
        outcome,
        "mfa audit"
    );
    checked?;
    let (token, expires_at) = token::issue(&deps, &caller, kind).await?;
    Ok(Json(MfaTokenResponse { token, expires_at }))
}

/// `POST /mfa/totp/init`: a pending secret and its `otpauth://` URL.
pub async fn totp_init(
    State(deps): State<MfaDeps>,
    caller: FrameCaller,
) -> Result<Json<TotpInitResponse>, AppError> {
    offered(&caller.app, MfaMethodType::Totp)?;
    // A first second factor only within the account-change window (see `required_token`); with
    // one enrolled, the enrolment itself needs an MFA token.
    if deps.db.mfa_methods(&caller.user.id).await?.is_empty() {
        require_recent_sign_in(&deps.db, &deps.clock, &caller.claims.sid).await?;
    }
    let accounts = deps.db.linked_accounts(&caller.user.id).await?;
    // The user as the authenticator app lists them: an email or number, else the user id.
    let account = ["email", "phone"]
        .iter()
        .find_map(|kind| accounts.iter().find(|a| a.account_type == *kind))
        .map_or(caller.user.id.as_str(), |a| a.subject.as_str());
    let enrolment = totp::init(&deps, &caller.app, &caller.user.id, account).await?;
    Ok(Json(TotpInitResponse {
        secret: enrolment.secret,
        auth_url: enrolment.auth_url,
    }))
}

/// `POST /mfa/totp/enroll`: the first code of the pending secret enrols it.
pub async fn totp_enroll(
    State(deps): State<MfaDeps>,
    caller: FrameCaller,
    JsonBody(body): JsonBody<TotpEnrollRequest>,
) -> Result<Json<MfaUserResponse>, AppError> {
    offered(&caller.app, MfaMethodType::Totp)?;
    let token = required_token(&deps, &caller, body.mfa_token.as_deref()).await?;
    let (pending, step) =
        totp::check_pending(&deps, &caller.app, &caller.user.id, &body.code).await?;
    let change = MfaChange::EnrollTotp {
        pending: &pending,
        step,
    };
    self::change(&deps, &caller, change, token.as_deref()).await?;
    notify(&deps, &caller, Change::Added, MfaMethodType::Totp, None).await;
    answer(&deps, &caller).await
}

/// `POST /mfa/passwordless_sms/enroll`: the code texted to the number enrols it.
pub async fn sms_enroll(
    State(deps): State<MfaDeps>,
    caller: FrameCaller,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<MfaSmsEnrollRequest>,
) -> Result<Json<MfaUserResponse>, AppError> {
    offered(&caller.app, MfaMethodType::Sms)?;
    let phone = sms::normalize(&caller.app, &body.phone_number)?;
    let token = required_token(&deps, &caller, body.mfa_token.as_deref()).await?;
    sms::redeem(
        &deps,
        &caller.app,
        (&caller.user.id, &phone),
        &body.code,
        &client_ip,
    )
    .await?;
    let change = MfaChange::EnrollSms {
        phone_number: &phone,
    };
    self::change(&deps, &caller, change, token.as_deref()).await?;
    let number = Some(phone.as_str());
    notify(&deps, &caller, Change::Added, MfaMethodType::Sms, number).await;
    answer(&deps, &caller).await
}

/// `POST /mfa/passkeys/enroll`: the full set of the user's MFA passkeys afterwards; passkeys
/// dropped from it leave MFA (and are unlinked with `remove_for_login`).
pub async fn passkeys_enroll(
    State(deps): State<MfaDeps>,
    caller: FrameCaller,
    JsonBody(body): JsonBody<MfaPasskeyEnrollRequest>,
) -> Result<Json<MfaUserResponse>, AppError> {
    offered(&caller.app, MfaMethodType::Passkey)?;
    let dropped = passkey::check_set(&deps, &caller.user.id, &body.credential_ids).await?;
    let token = required_token(&deps, &caller, body.mfa_token.as_deref()).await?;
    let before = passkey::mfa_passkeys(&deps, &caller.user.id).await?;
    change(&deps, &caller, MfaChange::EnrollPasskey, token.as_deref()).await?;
    let set = (body.credential_ids.as_slice(), dropped.as_slice());
    let remove = body.remove_for_login == Some(true);
    passkey::apply_set(&deps, &caller.app, &caller.user.id, set, remove).await?;
    let kind = MfaMethodType::Passkey;
    if body.credential_ids.iter().any(|id| !before.contains(id)) {
        notify(&deps, &caller, Change::Added, kind, None).await;
    }
    if !dropped.is_empty() {
        notify(&deps, &caller, Change::Removed, kind, None).await;
    }
    answer(&deps, &caller).await
}

/// `POST /mfa/unenroll`: removes a method, with an MFA token (passkeys: every MFA passkey, and
/// unlinked too with `remove_for_login`, never the last way in).
pub async fn unenroll(
    State(deps): State<MfaDeps>,
    caller: FrameCaller,
    JsonBody(body): JsonBody<MfaUnenrollRequest>,
) -> Result<Json<MfaUserResponse>, AppError> {
    let kind = body.method;
    let token = body.mfa_token.as_deref().filter(|t| !t.trim().is_empty());
    let unenroll = MfaChange::Unenroll {
        method: kind.as_str(),
    };
    let phone = match kind {
        MfaMethodType::Sms => sms::enrolled_phone(&deps, &caller.user.id).await.ok(),
        _ => None,
    };
    change(&deps, &caller, unenroll, token).await?;
    notify(&deps, &caller, Change::Removed, kind, phone.as_deref()).await;
    if kind == MfaMethodType::Passkey {
        let enrolled = passkey::mfa_passkeys(&deps, &caller.user.id).await?;
        let remove = body.remove_for_login == Some(true);
        let set = (&[][..], enrolled.as_slice());
        passkey::apply_set(&deps, &caller.app, &caller.user.id, set, remove).await?;
    }
    answer(&deps, &caller).await
}

/// `POST /mfa/passkeys/unlink` (the frame's `privy:auth:unlink-passkey`): unlinks a passkey; one
/// enrolled in MFA only with `remove_as_mfa` and a fresh MFA token, which takes it out of MFA
/// first; without one, only within the account-change window of a fresh sign-in, as on the host
/// route. The account rules (never the last way in) are `accounts::unlink`'s.
pub async fn passkeys_unlink(
    State(deps): State<MfaDeps>,
    caller: FrameCaller,
    JsonBody(body): JsonBody<PasskeyUnlinkRequest>,
) -> Result<Json<User>, AppError> {
    let credential_id = body.credential_id.trim();
    let second_factor = passkey::mfa_passkeys(&deps, &caller.user.id)
        .await?
        .iter()
        .any(|id| id == credential_id);
    if second_factor && body.remove_as_mfa == Some(true) {
        let token = body
            .mfa_token
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty());
        let hash = token.map(token_hash);
        let now = deps.clock.now();
        let presented = hash.as_deref().map(|h| presented(&caller, h, now));
        passkey::remove_one(&deps, &caller.app, presented, credential_id).await?;
        notify(
            &deps,
            &caller,
            Change::Removed,
            MfaMethodType::Passkey,
            None,
        )
        .await;
    } else {
        // Without a second factor this is the host route's unlink: same account-change window.
        require_recent_sign_in(&deps.db, &deps.clock, &caller.claims.sid).await?;
    }
    crate::accounts::unlink(&deps.accounts, &caller.user, "passkey", credential_id).await?;
    Ok(Json(user_view(&deps.db, &caller.user).await?))
}

/// The presented token when the user already has a method (then one is required and must be
/// live), checked before any code is spent; the change itself uses it up. A first second factor
/// needs no token but a session within the account-change window: a stolen access token of an
/// older session must not lock the user out of export, recovery and signing with the intruder's
/// authenticator or phone. (Either way one of the two holds: a method enrolled meanwhile makes
/// `change_mfa` ask for the token.)
async fn required_token(
    deps: &MfaDeps,
    caller: &FrameCaller,
    token: Option<&str>,
) -> Result<Option<String>, AppError> {
    if deps.db.mfa_methods(&caller.user.id).await?.is_empty() {
        require_recent_sign_in(&deps.db, &deps.clock, &caller.claims.sid).await?;
        return Ok(token.map(str::to_string));
    }
    let token = token
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(mfa_required)?;
    let hash = token_hash(token);
    if !deps
        .db
        .mfa_token_valid(presented(caller, &hash, deps.clock.now()))
        .await?
    {
        return Err(token_refused());
    }
    Ok(Some(token.to_string()))
}

/// Applies `change` (spending `token` when one is needed).
async fn change(
    deps: &MfaDeps,
    caller: &FrameCaller,
    change: MfaChange<'_>,
    token: Option<&str>,
) -> Result<(), AppError> {
    let hash = token.map(token_hash);
    let now = deps.clock.now();
    let presented = hash.as_deref().map(|h| presented(caller, h, now));
    let reported = super::change_events(&caller.app.id, &caller.user.id, &change)?;
    match deps
        .db
        .change_mfa(&caller.user.id, change, presented, now, &reported)
        .await?
    {
        ChangeOutcome::Done => {}
        ChangeOutcome::TokenRequired => return Err(mfa_required()),
        ChangeOutcome::TokenRefused => return Err(token_refused()),
        ChangeOutcome::NothingToChange => {
            return Err(match change {
                MfaChange::Unenroll { method } | MfaChange::Authorize { method } => {
                    not_enrolled(MfaMethodType::parse(method).unwrap_or(MfaMethodType::Totp))
                }
                _ => AppError::invalid_data("No authenticator setup is pending: start it again"),
            });
        }
    }
    tracing::info!(app = %caller.app.id, user = %caller.user.id, "MFA methods changed");
    Ok(())
}

/// Tells the user of `caller` about a change of their methods (mail and SMS to their linked
/// email and phone).
async fn notify(
    deps: &MfaDeps,
    caller: &FrameCaller,
    change: Change,
    method: MfaMethodType,
    phone: Option<&str>,
) {
    notice::notify(deps, &caller.app, &caller.user.id, change, method, phone).await;
}

/// The user, `mfa_methods` as they are now.
async fn answer(deps: &MfaDeps, caller: &FrameCaller) -> Result<Json<MfaUserResponse>, AppError> {
    Ok(Json(MfaUserResponse {
        user: user_view(&deps.db, &caller.user).await?,
    }))
}

/// Second factors: every route, one line each (the OpenAPI document is built from these), and how
/// they are mounted. [`Mount`] refuses a route missing from the table.
pub const ROUTES: Routes = Routes {
    table: TABLE,
    mount,
};

#[rustfmt::skip]
const TABLE: &[Route] = &[
    r(Post, "/api/v1/mfa/passwordless_sms/init", "Text an MFA code: to the enrolled number (verify) or to a number being enrolled", Some(json::<MfaSmsInitRequest>), Body::Json(json::<SuccessResponse>), UserOrigin, &[429]).limited(Budget::MfaSms),
    r(Post, "/api/v1/mfa/passkeys/init", "WebAuthn request options for the user's MFA passkeys", None, Body::Json(json::<MfaPasskeyInitResponse>), UserOrigin, &[]),
    r(Post, "/api/v1/mfa/verify", "Verify a second factor: an MFA token for this session (one export, recovery or factor change; or up to 10 signatures within 120 s)", Some(json::<MfaVerifyRequest>), Body::Json(json::<MfaTokenResponse>), Frame, &[429]).limited(Budget::Authenticate),
    r(Post, "/api/v1/mfa/totp/init", "A pending authenticator-app secret and its otpauth URL", None, Body::Json(json::<TotpInitResponse>), Frame, &[]),
    r(Post, "/api/v1/mfa/totp/enroll", "Enrol the pending authenticator-app secret with its first code", Some(json::<TotpEnrollRequest>), Body::Json(json::<MfaUserResponse>), Frame, &[429]),
    r(Post, "/api/v1/mfa/passwordless_sms/enroll", "Enrol a number for MFA with the code texted to it", Some(json::<MfaSmsEnrollRequest>), Body::Json(json::<MfaUserResponse>), Frame, &[429]).limited(Budget::Authenticate),
    r(Post, "/api/v1/mfa/passkeys/enroll", "Set the user's MFA passkeys (the whole set; dropped ones leave MFA, unlinked with remove_for_login)", Some(json::<MfaPasskeyEnrollRequest>), Body::Json(json::<MfaUserResponse>), Frame, &[422, 429]),
    r(Post, "/api/v1/mfa/unenroll", "Remove a second factor (needs an MFA token)", Some(json::<MfaUnenrollRequest>), Body::Json(json::<MfaUserResponse>), Frame, &[]),
    r(Post, "/api/v1/mfa/passkeys/unlink", "Unlink a passkey from the wallet frame; one enrolled in MFA with remove_as_mfa and an MFA token", Some(json::<PasskeyUnlinkRequest>), Body::Json(json::<User>), Frame, &[404, 422]),
];

fn mount(routes: Mount) -> Mount {
    routes
        .post("/api/v1/mfa/passwordless_sms/init", sms_init)
        .post("/api/v1/mfa/passkeys/init", passkeys_init)
        .post("/api/v1/mfa/verify", verify)
        .post("/api/v1/mfa/totp/init", totp_init)
        .post("/api/v1/mfa/totp/enroll", totp_enroll)
        .post("/api/v1/mfa/passwordless_sms/enroll", sms_enroll)
        .post("/api/v1/mfa/passkeys/enroll", passkeys_enroll)
        .post("/api/v1/mfa/unenroll", unenroll)
        .post("/api/v1/mfa/passkeys/unlink", passkeys_unlink)
}
