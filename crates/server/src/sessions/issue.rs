//! Building session responses (login and refresh) and the refresh-marker cookie.

use axum::Json;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use symbolon_protocol::constants::{REFRESH_MARKER_COOKIE, REFRESH_TOKEN_TTL_DAYS};
use symbolon_protocol::session::{OAuthTokens, SessionResponse, SessionUpdateAction};
use symbolon_protocol::user::User;

use super::deps::SessionIssuer;
use crate::db::sessions::SessionRecord;
use crate::db::users::UserRecord;
use crate::error::AppError;
use crate::random::random_id;
use crate::tokens::refresh::new_refresh_token;
use crate::users::view::user_view;

/// Seconds a session (and its refresh tokens) lives.
pub const SESSION_TTL_S: i64 = REFRESH_TOKEN_TTL_DAYS as i64 * 86_400;

/// Starts a new session for `user` and answers with its tokens. `fresh_since` is when its proof
/// was made if the sign-in counts as fresh (`accounts::Proof::fresh_since`), else `None`.
pub async fn start_session(
    issuer: &SessionIssuer,
    user: &UserRecord,
    is_new_user: bool,
    fresh_since: Option<i64>,
) -> Result<Response, AppError> {
    start_session_with(issuer, user, is_new_user, fresh_since, None).await
}

/// [`start_session`], answering the OAuth provider's tokens too (`oauth_tokens`).
pub async fn start_session_with(
    issuer: &SessionIssuer,
    user: &UserRecord,
    is_new_user: bool,
    fresh_since: Option<i64>,
    oauth_tokens: Option<OAuthTokens>,
) -> Result<Response, AppError> {
    let now = issuer.clock.now();
    let session = SessionRecord {
        id: random_id(25)?,
        app_id: user.app_id.clone(),
        user_id: user.id.clone(),
        expires_at: now + SESSION_TTL_S,
        revoked_at: None,
        fresh_since,
    };
    let (refresh_token, hash) = new_refresh_token()?;
    issuer.db.create_session(&session, &hash, now).await?;
    tracing::info!(session = %session.id, user = %user.id, is_new_user, "session started");
    let wire_user = user_view(&issuer.db, user).await?;
    let mut body = session_body(
        issuer,
        &user.app_id,
        wire_user,
        &session.id,
        refresh_token,
        is_new_user,
    )?;
    // Only logins answer provider tokens; refreshes never do.
    body.oauth_tokens = oauth_tokens;
    Ok(respond(issuer, body))
}

/// The session response for `session_id` of `wire_user` in `app_id` carrying `refresh_token`,
/// with the marker cookie set.
pub fn session_response(
    issuer: &SessionIssuer,
    app_id: &str,
    wire_user: User,
    session_id: &str,
    refresh_token: String,
    is_new_user: bool,
) -> Result<Response, AppError> {
    let body = session_body(
        issuer,
        app_id,
        wire_user,
        session_id,
        refresh_token,
        is_new_user,
    )?;
    Ok(respond(issuer, body))
}

fn session_body(
    issuer: &SessionIssuer,
    app_id: &str,
    wire_user: User,
    session_id: &str,
    refresh_token: String,
    is_new_user: bool,
) -> Result<SessionResponse, AppError> {
    let now = issuer.clock.now();
    Ok(SessionResponse {
        token: Some(
            issuer
                .tokens
                .access_token(app_id, &wire_user.id, session_id, now)?,
        ),
        identity_token: Some(issuer.tokens.identity_token(app_id, &wire_user, now)?),
        user: wire_user,
        privy_access_token: None,
        refresh_token: Some(refresh_token),
        session_update_action: SessionUpdateAction::Set,
        is_new_user,
        oauth_tokens: None,
    })
}

/// The body as JSON with the marker cookie set.
fn respond(issuer: &SessionIssuer, body: SessionResponse) -> Response {
    let mut response = Json(body).into_response();
    response
        .headers_mut()
        .append(header::SET_COOKIE, marker_cookie(issuer, true));
    response
}

/// `privy-session=t` for 30 days (set) or an expired one (clear). It marks, it holds no secret.
pub fn marker_cookie(issuer: &SessionIssuer, set: bool) -> HeaderValue {
    let secure = if issuer.config.is_https() {
        "; Secure"
    } else {
        ""
    };
    let cookie = if set {
        format!("{REFRESH_MARKER_COOKIE}=t; Path=/; Max-Age={SESSION_TTL_S}; SameSite=Lax{secure}")
    } else {
        format!("{REFRESH_MARKER_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax{secure}")
    };
    HeaderValue::from_str(&cookie)
        .unwrap_or_else(|_| HeaderValue::from_static("privy-session=; Path=/; Max-Age=0"))
}
