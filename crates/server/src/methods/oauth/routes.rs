//! OAuth: the route table and its mounts.

use crate::rate_limit::Budget;
use crate::web::routes::Access::{AppOrigin, Public, UserOrigin};
use crate::web::routes::Verb::{Get, Post};
use crate::web::routes::{Body, Mount, Route, Routes, json, r};
use symbolon_protocol::oauth::{
    OAuthAuthenticateRequest, OAuthInitRequest, OAuthInitResponse, OAuthLinkRequest,
    OAuthTransferRequest, OAuthUnlinkRequest,
};
use symbolon_protocol::session::SessionResponse;
use symbolon_protocol::user::User;

/// OAuth: every route, one line each (the OpenAPI document is built from these), and how
/// they are mounted. [`Mount`] refuses a route missing from the table.
pub const ROUTES: Routes = Routes {
    table: TABLE,
    mount,
};

#[rustfmt::skip]
const TABLE: &[Route] = &[
    r(Post, "/api/v1/oauth/init", "Start an OAuth login or link (PKCE S256): the provider's authorization URL", Some(json::<OAuthInitRequest>), Body::Json(json::<OAuthInitResponse>), AppOrigin, &[409, 429]).limited(Budget::OAuth),
    r(Get, "/api/v1/oauth/callback", "The provider's return: redirects to the app's page with privy_oauth_code, privy_oauth_state, privy_oauth_provider", None, Body::Redirect, Public, &[400]),
    r(Post, "/api/v1/oauth/callback", "The provider's return as a POSTed form (response_mode=form_post)", None, Body::Redirect, Public, &[400]),
    r(Post, "/api/v1/oauth/authenticate", "Log in with the provider's code and the PKCE verifier", Some(json::<OAuthAuthenticateRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 409, 429, 502]).limited(Budget::Authenticate),
    r(Post, "/api/v1/oauth/link", "Link the provider account of the code", Some(json::<OAuthLinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422, 429, 502]).limited(Budget::Authenticate),
    r(Post, "/api/v1/oauth/unlink", "Unlink a provider account (never the last way in)", Some(json::<OAuthUnlinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
    r(Post, "/api/v1/oauth/transfer", "Move a provider account from its owner, with the nonce of account_transfer_required", Some(json::<OAuthTransferRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
];

fn mount(routes: Mount) -> Mount {
    routes
        .post("/api/v1/oauth/init", super::init)
        .get("/api/v1/oauth/callback", super::callback)
        .post("/api/v1/oauth/callback", super::callback_form)
        .post("/api/v1/oauth/authenticate", super::authenticate)
        .post("/api/v1/oauth/link", super::link)
        .post("/api/v1/oauth/unlink", super::unlink)
        .post("/api/v1/oauth/transfer", super::transfer)
}
