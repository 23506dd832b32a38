//! Farcaster: the route table and its mounts.

use crate::app_settings::login_methods::LoginMethod;
use crate::rate_limit::Budget;
use crate::web::routes::Access::{AppOrigin, UserOrigin};
use crate::web::routes::Verb::{Get, Post};
use crate::web::routes::{Body, Mount, Route, Routes, json, r};
use symbolon_protocol::farcaster::{
    FarcasterAuthenticateRequest, FarcasterInitRequest, FarcasterInitResponse,
    FarcasterLinkRequest, FarcasterSignerRequest, FarcasterSignerResponse, FarcasterStatusResponse,
    FarcasterTransferRequest, FarcasterUnlinkRequest, FarcasterV2AuthenticateRequest,
    FarcasterV2InitResponse,
};
use symbolon_protocol::session::SessionResponse;
use symbolon_protocol::user::User;

/// Farcaster: every route, one line each (the OpenAPI document is built from these), and how
/// they are mounted. [`Mount`] refuses a route missing from the table.
pub const ROUTES: Routes = Routes {
    table: TABLE,
    mount,
};

#[rustfmt::skip]
const TABLE: &[Route] = &[
    r(Post, "/api/v1/farcaster/init", "Open a Farcaster relay channel for Sign In With Farcaster", Some(json::<FarcasterInitRequest>), Body::Json(json::<FarcasterInitResponse>), AppOrigin, &[409, 429, 502]).gated(LoginMethod::Farcaster).limited(Budget::Farcaster),
    r(Get, "/api/v1/farcaster/status", "The relay channel's state (header farcaster-channel-token)", None, Body::Json(json::<FarcasterStatusResponse>), AppOrigin, &[401, 502]),
    r(Post, "/api/v1/farcaster/authenticate", "Log in with the completed channel's signed message", Some(json::<FarcasterAuthenticateRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 409, 422, 429, 502]).gated(LoginMethod::Farcaster).limited(Budget::Authenticate),
    r(Post, "/api/v1/farcaster/link", "Link a Farcaster account proven by the completed channel", Some(json::<FarcasterLinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422, 429, 502]).gated(LoginMethod::Farcaster).limited(Budget::Authenticate),
    r(Post, "/api/v1/farcaster/unlink", "Unlink a Farcaster account (never the last way in)", Some(json::<FarcasterUnlinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
    r(Post, "/api/v1/farcaster/transfer", "Move a Farcaster account from its owner, with the nonce of account_transfer_required", Some(json::<FarcasterTransferRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
    r(Post, "/api/v2/farcaster/init", "A nonce for a Farcaster Mini App sign-in", None, Body::Json(json::<FarcasterV2InitResponse>), AppOrigin, &[409, 429]).gated(LoginMethod::Farcaster).limited(Budget::Farcaster),
    r(Post, "/api/v2/farcaster/authenticate", "Log in with a Mini App's signed Sign In With Farcaster message", Some(json::<FarcasterV2AuthenticateRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 409, 422, 429, 502]).gated(LoginMethod::Farcaster).limited(Budget::Authenticate),
    r(Post, "/api/v1/farcaster/signer/init", "Request a Farcaster signer for the user's fid (signed key request)", Some(json::<FarcasterSignerRequest>), Body::Json(json::<FarcasterSignerResponse>), UserOrigin, &[404, 409, 502]),
    r(Post, "/api/v1/farcaster/signer/status", "The Farcaster signer's approval state", Some(json::<FarcasterSignerRequest>), Body::Json(json::<FarcasterSignerResponse>), UserOrigin, &[404, 409, 502]),
];

fn mount(routes: Mount) -> Mount {
    routes
        .post("/api/v1/farcaster/init", super::init)
        .get("/api/v1/farcaster/status", super::status)
        .post("/api/v1/farcaster/authenticate", super::authenticate)
        .post("/api/v1/farcaster/link", super::link)
        .post("/api/v1/farcaster/unlink", super::unlink)
        .post("/api/v1/farcaster/transfer", super::transfer)
        .post("/api/v2/farcaster/init", super::init_v2)
        .post("/api/v2/farcaster/authenticate", super::authenticate_v2)
        .post("/api/v1/farcaster/signer/init", super::signer::init)
        .post("/api/v1/farcaster/signer/status", super::signer::status)
}
