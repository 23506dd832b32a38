//! Email code login: the route table and its mounts.

use crate::app_settings::login_methods::LoginMethod;
use crate::rate_limit::Budget;
use crate::web::routes::Access::{AppOrigin, UserOrigin};
use crate::web::routes::Verb::Post;
use crate::web::routes::{Body, Mount, Route, Routes, json, r};
use symbolon_protocol::accounts::{
    EmailTransferRequest, PasswordlessLinkRequest, PasswordlessUnlinkRequest,
    PasswordlessUpdateRequest,
};
use symbolon_protocol::session::{
    PasswordlessAuthenticateRequest, PasswordlessInitRequest, SessionResponse, SuccessResponse,
};
use symbolon_protocol::user::User;

/// Email code login: every route, one line each (the OpenAPI document is built from these), and how
/// they are mounted. [`Mount`] refuses a route missing from the table.
pub const ROUTES: Routes = Routes {
    table: TABLE,
    mount,
};

#[rustfmt::skip]
const TABLE: &[Route] = &[
    r(Post, "/api/v1/passwordless/init", "Send an email login code", Some(json::<PasswordlessInitRequest>), Body::Json(json::<SuccessResponse>), AppOrigin, &[409, 429]).gated(LoginMethod::Email).limited(Budget::Email),
    r(Post, "/api/v1/passwordless/authenticate", "Log in with an email code", Some(json::<PasswordlessAuthenticateRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 409, 422, 429]).limited(Budget::Authenticate),
    r(Post, "/api/v1/passwordless/link", "Link an email proven by its code", Some(json::<PasswordlessLinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422, 429]).limited(Budget::Authenticate),
    r(Post, "/api/v1/passwordless/unlink", "Unlink an email (never the last way in)", Some(json::<PasswordlessUnlinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
    r(Post, "/api/v1/passwordless/update", "Replace the user's email by one proven by its code", Some(json::<PasswordlessUpdateRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422, 429]).limited(Budget::Authenticate),
    r(Post, "/api/v1/passwordless/transfer", "Move an email from its owner, with the nonce of account_transfer_required", Some(json::<EmailTransferRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
];

fn mount(routes: Mount) -> Mount {
    routes
        .post("/api/v1/passwordless/init", super::init)
        .post("/api/v1/passwordless/authenticate", super::authenticate)
        .post("/api/v1/passwordless/link", super::link)
        .post("/api/v1/passwordless/unlink", super::unlink)
        .post("/api/v1/passwordless/update", super::update)
        .post("/api/v1/passwordless/transfer", super::transfer)
}
