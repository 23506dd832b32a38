//! `GET /users/me` and `POST /users/me/accept_terms`.

use axum::Json;
use axum::extract::State;
use symbolon_protocol::session::CurrentUserResponse;
use symbolon_protocol::user::User;

use super::deps::UserDeps;
use crate::db::users::UserRecord;
use crate::error::AppError;
use crate::users::view::user_view;
use crate::web::auth::Authenticated;
use crate::web::routes::Access::{User as Bearer, UserOrigin};
use crate::web::routes::Verb::{Get, Post};
use crate::web::routes::{Body, Mount, Route, Routes, json, r};

async fn load_user(deps: &UserDeps, auth: &Authenticated) -> Result<UserRecord, AppError> {
    deps.db
        .find_user(&auth.ctx.app.id, &auth.claims.sub)
        .await?
        .ok_or_else(|| AppError::invalid_token("User no longer exists"))
}

/// The caller's user and a fresh identity token.
pub async fn me(
    State(deps): State<UserDeps>,
    auth: Authenticated,
) -> Result<Json<CurrentUserResponse>, AppError> {
    let record = load_user(&deps, &auth).await?;
    let user = user_view(&deps.db, &record).await?;
    let identity_token = deps
        .tokens
        .identity_token(&record.app_id, &user, deps.clock.now())?;
    Ok(Json(CurrentUserResponse {
        user,
        identity_token: Some(identity_token),
    }))
}

/// Records that the caller accepted the app's terms; answers the updated user.
pub async fn accept_terms(
    State(deps): State<UserDeps>,
    auth: Authenticated,
) -> Result<Json<User>, AppError> {
    deps.db.accept_terms(&auth.claims.sub).await?;
    let record = load_user(&deps, &auth).await?;
    Ok(Json(user_view(&deps.db, &record).await?))
}

/// The signed-in user: every route, one line each (the OpenAPI document is built from these), and how
/// they are mounted. [`Mount`] refuses a route missing from the table.
pub const ROUTES: Routes = Routes {
    table: TABLE,
    mount,
};

#[rustfmt::skip]
const TABLE: &[Route] = &[
    r(Get, "/api/v1/users/me", "The signed-in user and a fresh identity token", None, Body::Json(json::<CurrentUserResponse>), Bearer, &[]),
    r(Post, "/api/v1/users/me/accept_terms", "Accept the app's terms", None, Body::Json(json::<User>), UserOrigin, &[409]),
];

fn mount(routes: Mount) -> Mount {
    routes
        .get("/api/v1/users/me", me)
        .post("/api/v1/users/me/accept_terms", accept_terms)
}
