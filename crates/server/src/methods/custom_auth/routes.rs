//! The host app's JWT: the route table and its mounts.

use crate::app_settings::login_methods::LoginMethod;
use crate::rate_limit::Budget;
use crate::web::routes::Access::{AppOrigin, UserOrigin};
use crate::web::routes::Verb::Post;
use crate::web::routes::{Body, Mount, Route, Routes, json, r};
use symbolon_protocol::accounts::{CustomJwtAuthenticateRequest, CustomJwtLinkRequest};
use symbolon_protocol::session::SessionResponse;
use symbolon_protocol::user::User;

/// The host app's JWT: every route, one line each (the OpenAPI document is built from these), and how
/// they are mounted. [`Mount`] refuses a route missing from the table.
pub const ROUTES: Routes = Routes {
    table: TABLE,
    mount,
};

#[rustfmt::skip]
const TABLE: &[Route] = &[
    r(Post, "/api/v1/custom_jwt_account/authenticate", "Log in with the host app's JWT", Some(json::<CustomJwtAuthenticateRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 409, 429]).gated(LoginMethod::CustomAuth).limited(Budget::Authenticate),
    r(Post, "/api/v1/custom_jwt_account/link", "Link the host app's user named by its JWT", Some(json::<CustomJwtLinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422, 429]).gated(LoginMethod::CustomAuth).limited(Budget::Authenticate),
];

fn mount(routes: Mount) -> Mount {
    routes
        .post(
            "/api/v1/custom_jwt_account/authenticate",
            super::authenticate,
        )
        .post("/api/v1/custom_jwt_account/link", super::link)
}
