//! Sign-In With Solana: the route table and its mounts.

use crate::app_settings::login_methods::LoginMethod;
use crate::rate_limit::Budget;
use crate::web::routes::Access::{AppOrigin, UserOrigin};
use crate::web::routes::Verb::Post;
use crate::web::routes::{Body, Mount, Route, Routes, json, r};
use symbolon_protocol::session::SessionResponse;
use symbolon_protocol::siwe::{
    SiweInitRequest, SiweInitResponse, SiweTransferRequest, SiweUnlinkRequest,
    SiwsAuthenticateRequest, SiwsLinkRequest,
};
use symbolon_protocol::user::User;

/// Sign-In With Solana: every route, one line each (the OpenAPI document is built from these), and how
/// they are mounted. [`Mount`] refuses a route missing from the table.
pub const ROUTES: Routes = Routes {
    table: TABLE,
    mount,
};

#[rustfmt::skip]
const TABLE: &[Route] = &[
    r(Post, "/api/v1/siws/init", "A single-use nonce for one Sign-In With Solana message of an address", Some(json::<SiweInitRequest>), Body::Json(json::<SiweInitResponse>), AppOrigin, &[409, 429]).gated(LoginMethod::Wallet).limited(Budget::Wallet),
    r(Post, "/api/v1/siws/authenticate", "Log in with a signed Sign-In With Solana message", Some(json::<SiwsAuthenticateRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 409, 422, 429]).gated(LoginMethod::Wallet).limited(Budget::Authenticate),
    r(Post, "/api/v1/siws/link", "Link the Solana wallet of a signed Sign-In With Solana message", Some(json::<SiwsLinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422, 429]).gated(LoginMethod::Wallet).limited(Budget::Authenticate),
    r(Post, "/api/v1/siws/unlink", "Unlink a Solana wallet (never the last way in)", Some(json::<SiweUnlinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
    r(Post, "/api/v1/siws/transfer", "Move a Solana wallet from its owner, with the nonce of account_transfer_required", Some(json::<SiweTransferRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
];

fn mount(routes: Mount) -> Mount {
    routes
        .post("/api/v1/siws/init", super::init)
        .post("/api/v1/siws/authenticate", super::authenticate)
        .post("/api/v1/siws/link", super::link)
        .post("/api/v1/siws/unlink", super::unlink)
        .post("/api/v1/siws/transfer", super::transfer)
}
