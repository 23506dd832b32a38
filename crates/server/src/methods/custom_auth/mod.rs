//! Sign-in with the host app's own JWT (`customAuth`):
//! `POST /custom_jwt_account/authenticate {token, mode?}` and `/custom_jwt_account/link {token}`.
//!
//! The host signs its users in itself and hands us a JWT; we check it against the host's keys
//! ([`crate::jwt_verifier`]) and the token's subject becomes a `custom_auth` account.

pub mod deps;
pub mod routes;

use axum::Json;
use axum::extract::State;
use axum::response::Response;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::accounts::{CustomJwtAuthenticateRequest, CustomJwtLinkRequest};
use symbolon_protocol::user::User;

use super::{link_to, sign_in_with};
use crate::accounts::{self, VerifiedIdentity};
use crate::app_settings::login_methods::LoginMethod;
use crate::db::apps::AppRecord;
use crate::error::AppError;
use crate::jwt_verifier::{CustomJwtError, verify_custom_jwt_dated};
use crate::methods::custom_auth::deps::CustomAuthDeps;
use crate::web::auth::{LoginCaller, SignedIn};
use crate::web::client_ip::ClientIp;
use crate::web::json_body::JsonBody;

/// The linked-account type.
pub const CUSTOM_AUTH: &str = "custom_auth";

/// Signs in (or up) the host's user named by the token.
pub async fn authenticate(
    State(deps): State<CustomAuthDeps>,
    caller: LoginCaller,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<CustomJwtAuthenticateRequest>,
) -> Result<Response, AppError> {
    let app = &caller.ctx.app;
    let (identity, issued_at) = verify(&deps, app, &body.token, &client_ip).await?;
    // A host's token replays until it expires: only one issued within the window signs in
    // freshly (a token without `iat` only when it creates the user).
    let proof = issued_at.map_or(accounts::Proof::Replayable, accounts::Proof::MadeAt);
    sign_in_with(&deps.login, &caller, &identity, body.mode, proof).await
}

/// Links the host's user named by the token to the signed-in user.
pub async fn link(
    State(deps): State<CustomAuthDeps>,
    signed_in: SignedIn,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<CustomJwtLinkRequest>,
) -> Result<Json<User>, AppError> {
    let app = &signed_in.ctx.app;
    let (identity, _) = verify(&deps, app, &body.token, &client_ip).await?;
    link_to(&deps.login, &signed_in, &identity).await
}

/// Checks the token against the app's keys (limited per client IP like code checks); returns
/// the `custom_auth` identity and the token's `iat`, if any.
async fn verify(
    deps: &CustomAuthDeps,
    app: &AppRecord,
    token: &str,
    client_ip: &ClientIp,
) -> Result<(VerifiedIdentity, Option<i64>), AppError> {
    let Some(settings) = &app.settings.custom_auth else {
        return Err(AppError::new(
            ServerErrorCode::FeatureNotEnabled,
            "Custom auth is not configured for this app",
        ));
    };
    let now = deps.clock.now();
    client_ip.spend(&deps.ip_limits, now).await?;
    let (subject, issued_at) = verify_custom_jwt_dated(&deps.jwks_cache, settings, token, now)
        .await
        .map_err(|error| match error {
            CustomJwtError::Invalid { reason } => {
                tracing::info!(app = %app.id, %reason, "custom auth token refused");
                AppError::new(
                    ServerErrorCode::InvalidCredentials,
                    format!("Invalid custom auth token: {reason}"),
                )
            }
            CustomJwtError::NotConfigured => AppError::new(
                ServerErrorCode::FeatureNotEnabled,
                "Custom auth is not configured for this app",
            ),
            other => AppError::internal(&other),
        })?;
    let identity = VerifiedIdentity::new(LoginMethod::CustomAuth, CUSTOM_AUTH, subject);
    Ok((identity, issued_at))
}
