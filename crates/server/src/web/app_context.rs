//! The calling app: `privy-app-id`, `privy-client-id` and `Origin` checks.

use axum::extract::FromRequestParts;
use axum::http::HeaderMap;
use axum::http::request::Parts;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::{HEADER_APP_ID, HEADER_CLIENT_ID};

use crate::db::apps::AppRecord;
use crate::error::AppError;
use crate::origin::normalize_origin;
use crate::state::AppState;
use crate::web::routes::MatchedRoute;

/// The app a request is made for, with its origin already checked against the app.
#[derive(Debug, Clone)]
pub struct AppContext {
    /// The app.
    pub app: AppRecord,
    /// The request's `Origin`, if any (already known to be allowed).
    pub origin: Option<String>,
}

impl AppContext {
    /// Resolves `app_id` and checks the request's client id and origin against it.
    pub async fn resolve(
        state: &AppState,
        app_id: Option<&str>,
        headers: &HeaderMap,
    ) -> Result<Self, AppError> {
        let app_id = app_id
            .map(str::trim)
            .filter(|id| !id.is_empty())
            .ok_or_else(|| {
                AppError::new(
                    ServerErrorCode::MissingOrInvalidPrivyAppId,
                    format!("Missing {HEADER_APP_ID} header"),
                )
            })?;
        let app = state.db.find_app(app_id).await?.ok_or_else(|| {
            AppError::new(
                ServerErrorCode::MissingOrInvalidPrivyAppId,
                "Invalid app id",
            )
        })?;
        check_client_id(&app, headers)?;
        let origin = header(headers, "origin").map(str::to_string);
        // A provider app's consent and signing pages run on the server's own origin.
        let own_page = |origin: &str| {
            app.settings.cross_app.allow_as_provider && origin == state.config.public_origin()
        };
        if let Some(origin) = &origin
            && !origin_allowed(&app, origin)
            && !own_page(origin)
        {
            return Err(AppError::new(
                ServerErrorCode::InvalidOrigin,
                "Origin not allowed for this app",
            ));
        }
        Ok(Self { app, origin })
    }

    /// Refuses calls without `Origin`: browser-only calls (login, refresh, logout) always carry one.
    pub fn require_origin(&self) -> Result<(), AppError> {
        match self.origin {
            Some(_) => Ok(()),
            None => Err(AppError::new(
                ServerErrorCode::MissingOrigin,
                "Missing Origin header",
            )),
        }
    }

    /// The request's origin and its host (with the port, if any): the URI and `domain` a
    /// sign-in message (SIWE, SIWS, Sign In With Farcaster) must name. Required: a message for
    /// one site must not sign a user into another.
    pub fn site(&self) -> Result<(String, String), AppError> {
        self.require_origin()?;
        let origin = self.origin.clone().unwrap_or_default();
        let url = url::Url::parse(&origin).map_err(|_| AppError::invalid_data("Invalid Origin"))?;
        let host = url
            .host_str()
            .ok_or_else(|| AppError::invalid_data("Invalid Origin"))?;
        let domain = match url.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_string(),
        };
        Ok((origin, domain))
    }
}

/// Refuses a `privy-client-id` the app does not know; an absent or empty one is accepted (the
/// client sends it only when the host set a client id). The one client-id check of the server.
pub fn check_client_id(app: &AppRecord, headers: &HeaderMap) -> Result<(), AppError> {
    match header(headers, HEADER_CLIENT_ID).filter(|c| !c.is_empty()) {
        Some(client_id) if !app.client_ids.iter().any(|c| c == client_id) => Err(AppError::new(
            ServerErrorCode::MissingOrInvalidPrivyClientId,
            "Invalid client id",
        )),
        _ => Ok(()),
    }
}

/// Whether `origin` (a request's `Origin`) is one of the app's: compared in normal form, so case
/// and an explicit default port do not matter. Stored origins are already normal.
pub fn origin_allowed(app: &AppRecord, origin: &str) -> bool {
    let Some(origin) = normalize_origin(origin) else {
        return false;
    };
    app.allowed_origins.contains(&origin)
}

/// A header as text, if present and valid UTF-8.
pub fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

impl FromRequestParts<AppState> for AppContext {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let app_id = header(&parts.headers, HEADER_APP_ID).map(str::to_string);
        let ctx = Self::resolve(state, app_id.as_deref(), &parts.headers).await?;
        // The route's row declares who may call it: an `Origin` for browser-only calls, and the
        // login method the app must enable.
        if let Some(MatchedRoute(route)) = parts.extensions.get::<MatchedRoute>() {
            if route.needs_origin() {
                ctx.require_origin()?;
            }
            if let Some(method) = route.method {
                ctx.app.settings.require(method)?;
            }
        }
        Ok(ctx)
    }
}
