//! Passkeys (WebAuthn; spec §3, §4, §5, §7): `POST /passkeys/{register/init, register,
//! authenticate/init, authenticate, link/init, link, unlink}`, and the assertion seam MFA uses
//! ([`start_assertion`], [`finish_assertion`]).
//!
//! Each `init` stores a single-use challenge ([`ceremony`]) bound to the app, a purpose and (link,
//! MFA) the user; the finishing call finds it by the challenge inside `client_data_json` and uses
//! it up before anything else is checked. webauthn-rs checks origin, RP id, user verification and
//! signatures; the sign counter moves on by compare-and-swap. The proven identity is a `passkey`
//! account whose subject is the credential id (base64url); its details hold the credential.
//! Registration only ever creates: a credential id someone already has is refused, never signed
//! in ([`accounts::register`]).

pub mod ceremony;
pub mod deps;
pub mod device;
pub mod routes;
pub mod wire;

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::http::header::USER_AGENT;
use axum::response::Response;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::MAX_PASSKEYS_PER_USER;
use symbolon_protocol::passkey::{
    PasskeyAuthenticateRequest, PasskeyAuthenticationInitResponse, PasskeyAuthenticationResponse,
    PasskeyInitRequest, PasskeyRegisterRequest, PasskeyRegistrationInitResponse,
    PasskeyRegistrationResponse, PasskeyRequestOptions, PasskeyUnlinkRequest,
};
use symbolon_protocol::user::User;
use webauthn_rs::prelude::{DiscoverableAuthentication, PasskeyRegistration};

use self::ceremony::{
    Purpose, RelyingParty, record_assertion, store_challenge, stored_credential, take_challenge,
    unknown_passkey,
};
use self::wire::{b64_encode, descriptor};
use super::{current_user, link_to, sign_in};
use crate::accounts::{self, VerifiedIdentity, messages};
use crate::app_settings::login_methods::LoginMethod;
use crate::db::account_details::PasskeyDetails;
use crate::db::apps::AppRecord;
use crate::db::passkeys::PASSKEY;
use crate::error::{AppError, Status};
use crate::methods::deps::PasskeyCeremonyDeps;
use crate::methods::passkey::deps::PasskeyDeps;
use crate::sessions::issue::start_session;
use crate::web::app_context::AppContext;
use crate::web::auth::{LoginCaller, SignedIn};
use crate::web::client_ip::ClientIp;
use crate::web::json_body::JsonBody;

/// A passkey assertion that held: whose passkey, and which.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedPasskey {
    /// The passkey's owner.
    pub user_id: String,
    /// Its credential id (base64url).
    pub credential_id: String,
}

/// Options to create a passkey for a new user.
pub async fn register_init(
    State(deps): State<PasskeyDeps>,
    caller: LoginCaller,
    client_ip: ClientIp,
    JsonBody(_body): JsonBody<PasskeyInitRequest>,
) -> Result<Json<PasskeyRegistrationInitResponse>, AppError> {
    let ctx = &caller.ctx;
    client_ip.spend(&deps.ip_limits, deps.clock.now()).await?;
    issue_registration(&deps.ceremonies, ctx, Purpose::Register, None, Vec::new()).await
}

/// Signs up with a new passkey.
pub async fn register(
    State(deps): State<PasskeyDeps>,
    caller: LoginCaller,
    client_ip: ClientIp,
    headers: HeaderMap,
    JsonBody(body): JsonBody<PasskeyRegisterRequest>,
) -> Result<Response, AppError> {
    let ctx = &caller.ctx;
    client_ip.spend(&deps.ip_limits, deps.clock.now()).await?;
    let identity = registered_identity(
        &deps.ceremonies,
        ctx,
        Purpose::Register,
        None,
        &body.authenticator_response,
        &headers,
    )
    .await?;
    let signed_up = accounts::register(
        &deps.login.accounts,
        &ctx.app,
        &identity,
        caller.current.as_ref(),
    )
    .await?;
    start_session(
        &deps.login.sessions,
        &signed_up.user,
        signed_up.is_new_user,
        Some(deps.clock.now()),
    )
    .await
}

/// Options to log in with any passkey of this RP (discoverable credentials).
pub async fn authenticate_init(
    State(deps): State<PasskeyDeps>,
    caller: LoginCaller,
    client_ip: ClientIp,
    JsonBody(_body): JsonBody<PasskeyInitRequest>,
) -> Result<Json<PasskeyAuthenticationInitResponse>, AppError> {
    let ctx = &caller.ctx;
    client_ip.spend(&deps.ip_limits, deps.clock.now()).await?;
    let origin = ctx.origin.as_deref();
    let options = issue_assertion(
        &deps.ceremonies,
        &ctx.app,
        origin,
        None,
        &[],
        Purpose::Authenticate,
    )
    .await?;
    Ok(Json(PasskeyAuthenticationInitResponse {
        relying_party: relying_party_url(&options.rp_id),
        options,
    }))
}

/// Logs in with a passkey assertion.
pub async fn authenticate(
    State(deps): State<PasskeyDeps>,
    caller: LoginCaller,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<PasskeyAuthenticateRequest>,
) -> Result<Response, AppError> {
    let ctx = &caller.ctx;
    client_ip.spend(&deps.ip_limits, deps.clock.now()).await?;
    let verified = finish_assertion(
        &deps.ceremonies,
        &ctx.app,
        ctx.origin.as_deref(),
        None,
        Purpose::Authenticate,
        &body.authenticator_response,
    )
    .await?;
    let identity = VerifiedIdentity::new(LoginMethod::Passkey, PASSKEY, verified.credential_id);
    sign_in(&deps.login, &caller, &identity, None).await
}

/// Options to add a passkey to the signed-in user (excluding the ones they have).
pub async fn link_init(
    State(deps): State<PasskeyDeps>,
    signed_in: SignedIn,
    JsonBody(_body): JsonBody<PasskeyInitRequest>,
) -> Result<Json<PasskeyRegistrationInitResponse>, AppError> {
    let ctx = &signed_in.ctx;
    let existing = deps.db.user_passkeys(&signed_in.user.id).await?;
    // Checked again, atomically, when the passkey is linked; here it saves a useless ceremony.
    if existing.len() >= MAX_PASSKEYS_PER_USER as usize {
        return Err(AppError::new(
            ServerErrorCode::CannotLinkMoreOfType,
            messages::CANNOT_LINK_MORE_PASSKEYS,
        ));
    }
    let exclude = existing.iter().map(|p| p.credential_id.clone()).collect();
    let user_id = signed_in.user.id.as_str();
    issue_registration(&deps.ceremonies, ctx, Purpose::Link, Some(user_id), exclude).await
}

/// Links a new passkey to the signed-in user.
pub async fn link(
    State(deps): State<PasskeyDeps>,
    signed_in: SignedIn,
    headers: HeaderMap,
    JsonBody(body): JsonBody<PasskeyRegisterRequest>,
) -> Result<Json<User>, AppError> {
    let ctx = &signed_in.ctx;
    let user_id = signed_in.user.id.as_str();
    let response = &body.authenticator_response;
    let identity = registered_identity(
        &deps.ceremonies,
        ctx,
        Purpose::Link,
        Some(user_id),
        response,
        &headers,
    )
    .await?;
    link_to(&deps.login, &signed_in, &identity).await
}

/// Unlinks a passkey; never one enrolled in MFA (spec §5), never the last way in.
pub async fn unlink(
    State(deps): State<PasskeyDeps>,
    signed_in: SignedIn,
    JsonBody(body): JsonBody<PasskeyUnlinkRequest>,
) -> Result<Json<User>, AppError> {
    if body.remove_as_mfa == Some(true) {
        // Unenrolling takes a fresh MFA token, which only the wallet frame holds: it calls
        // `/mfa/passkeys/unlink` (`mfa::routes::passkeys_unlink`) instead.
        return Err(AppError::new(
            ServerErrorCode::MissingOrInvalidMfa,
            "MFA verification is required",
        )
        .with_status(Status::Forbidden));
    }
    accounts::unlink(
        &deps.login.accounts,
        &signed_in.user,
        PASSKEY,
        body.credential_id.trim(),
    )
    .await?;
    current_user(&deps.login, &signed_in).await
}

/// Options for an assertion by `user_id` with one of `credential_ids` (MFA), under a challenge
/// bound to that user and `purpose`.
pub async fn start_assertion(
    ceremonies: &PasskeyCeremonyDeps,
    app: &AppRecord,
    origin: Option<&str>,
    user_id: &str,
    credential_ids: &[String],
    purpose: Purpose,
) -> Result<PasskeyRequestOptions, AppError> {
    issue_assertion(
        ceremonies,
        app,
        origin,
        Some(user_id),
        credential_ids,
        purpose,
    )
    .await
}

/// Checks an assertion answering a challenge of `purpose` (bound to `user_id` when given: the
/// passkey must then be that user's): uses the challenge up, verifies origin, RP id, user
/// verification and signature, and moves the counter on (refusing one that did not grow) and
/// `latest_verified_at`. The caller decides what the passkey may do (e.g. MFA: enrolled).
pub async fn finish_assertion(
    ceremonies: &PasskeyCeremonyDeps,
    app: &AppRecord,
    origin: Option<&str>,
    user_id: Option<&str>,
    purpose: Purpose,
    response: &PasskeyAuthenticationResponse,
) -> Result<VerifiedPasskey, AppError> {
    let relying_party = RelyingParty::of(app, origin)?;
    let (credential, client_data) = wire::assertion(response)?;
    let ceremony: DiscoverableAuthentication =
        take_challenge(ceremonies, &app.id, purpose, user_id, &client_data).await?;
    let credential_id = b64_encode(&credential.raw_id);
    let stored = ceremonies
        .db
        .find_passkey(&app.id, &credential_id)
        .await?
        .filter(|p| user_id.is_none_or(|id| p.user_id == id))
        .ok_or_else(unknown_passkey)?;
    let (_, key) = stored_credential(&stored)?;
    let result = relying_party.finish_assertion(&credential, ceremony, &key)?;
    let user_id = stored.user_id.clone();
    record_assertion(ceremonies, &app.id, stored, &result).await?;
    Ok(VerifiedPasskey {
        user_id,
        credential_id,
    })
}

async fn issue_registration(
    ceremonies: &PasskeyCeremonyDeps,
    ctx: &AppContext,
    purpose: Purpose,
    user_id: Option<&str>,
    exclude: Vec<String>,
) -> Result<Json<PasskeyRegistrationInitResponse>, AppError> {
    let relying_party = RelyingParty::of(&ctx.app, ctx.origin.as_deref())?;
    let exclude_raw = exclude.iter().filter_map(|id| wire::b64(id).ok()).collect();
    let (ccr, registration) = relying_party.start_registration(&ctx.app.name, exclude_raw)?;
    let challenge = &ccr.public_key.challenge;
    store_challenge(
        ceremonies,
        &ctx.app.id,
        purpose,
        user_id,
        challenge,
        &registration,
    )
    .await?;
    let exclude = exclude.iter().map(|id| descriptor(id, None)).collect();
    Ok(Json(PasskeyRegistrationInitResponse {
        options: wire::creation_options(&ccr, exclude),
        relying_party: relying_party_url(&relying_party.rp_id),
    }))
}

async fn issue_assertion(
    ceremonies: &PasskeyCeremonyDeps,
    app: &AppRecord,
    origin: Option<&str>,
    user_id: Option<&str>,
    credential_ids: &[String],
    purpose: Purpose,
) -> Result<PasskeyRequestOptions, AppError> {
    let relying_party = RelyingParty::of(app, origin)?;
    let (rcr, ceremony) = relying_party.start_assertion()?;
    let challenge = &rcr.public_key.challenge;
    store_challenge(ceremonies, &app.id, purpose, user_id, challenge, &ceremony).await?;
    let allow = credential_ids
        .iter()
        .map(|id| descriptor(id, None))
        .collect();
    Ok(wire::request_options(&rcr, allow))
}

/// The passkey a registration proves, with where it was made.
async fn registered_identity(
    ceremonies: &PasskeyCeremonyDeps,
    ctx: &AppContext,
    purpose: Purpose,
    user_id: Option<&str>,
    response: &PasskeyRegistrationResponse,
    headers: &HeaderMap,
) -> Result<VerifiedIdentity, AppError> {
    let relying_party = RelyingParty::of(&ctx.app, ctx.origin.as_deref())?;
    let (credential, client_data, attestation) = wire::registration(response)?;
    let registration: PasskeyRegistration =
        take_challenge(ceremonies, &ctx.app.id, purpose, user_id, &client_data).await?;
    let key = relying_party.finish_registration(&credential, &registration)?;
    let aaguid = device::aaguid(&attestation);
    let agent = headers
        .get(USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let (browser, os, kind) = device::user_agent(agent);
    let details = PasskeyDetails {
        credential: serde_json::to_value(&key).map_err(|e| AppError::internal(&e))?,
        authenticator_name: aaguid
            .as_deref()
            .and_then(device::authenticator_name)
            .map(str::to_string),
        aaguid,
        created_with_browser: browser.map(str::to_string),
        created_with_os: os.map(str::to_string),
        created_with_device: kind.map(str::to_string),
        enrolled_in_mfa: Some(false),
        ..PasskeyDetails::default()
    };
    Ok(VerifiedIdentity::with_details(
        LoginMethod::Passkey,
        PASSKEY,
        b64_encode(&key.cred_id),
        &details,
    )?)
}

/// The relying party as the published clients' schema has it: a URL (`https://{rp id}`); the
/// WebAuthn options carry the RP id itself.
fn relying_party_url(rp_id: &str) -> String {
    format!("https://{rp_id}")
}
