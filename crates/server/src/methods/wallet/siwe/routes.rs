//! Sign-In With Ethereum: the route table and its mounts.

use crate::app_settings::login_methods::LoginMethod;
use crate::rate_limit::Budget;
use crate::web::routes::Access::{AppOrigin, UserOrigin};
use crate::web::routes::Verb::Post;
use crate::web::routes::{Body, Mount, Route, Routes, json, r};
use symbolon_protocol::session::SessionResponse;
use symbolon_protocol::siwe::{
    SiweAuthenticateRequest, SiweInitRequest, SiweInitResponse, SiweLinkRequest,
    SiweLinkSmartWalletRequest, SiweTransferRequest, SiweUnlinkRequest,
};
use symbolon_protocol::user::User;

/// Sign-In With Ethereum: every route, one line each (the OpenAPI document is built from these), and how
/// they are mounted. [`Mount`] refuses a route missing from the table.
pub const ROUTES: Routes = Routes {
    table: TABLE,
    mount,
};

#[rustfmt::skip]
const TABLE: &[Route] = &[
    r(Post, "/api/v1/siwe/init", "A single-use nonce for one Sign-In With Ethereum message of an address", Some(json::<SiweInitRequest>), Body::Json(json::<SiweInitResponse>), AppOrigin, &[409, 429]).gated(LoginMethod::Wallet).limited(Budget::Wallet),
    r(Post, "/api/v1/siwe/authenticate", "Log in with a signed EIP-4361 message (EOA, EIP-1271 or EIP-6492 signature)", Some(json::<SiweAuthenticateRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 409, 422, 429, 502]).gated(LoginMethod::Wallet).limited(Budget::Authenticate),
    r(Post, "/api/v1/siwe/link", "Link the wallet of a signed EIP-4361 message", Some(json::<SiweLinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422, 429, 502]).gated(LoginMethod::Wallet).limited(Budget::Authenticate),
    r(Post, "/api/v1/siwe/link_smart_wallet", "Link a smart wallet proven by a signed EIP-4361 message (EIP-1271 or EIP-6492)", Some(json::<SiweLinkSmartWalletRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422, 429, 502]).gated(LoginMethod::Wallet).limited(Budget::Authenticate),
    r(Post, "/api/v1/siwe/unlink", "Unlink an external Ethereum wallet (never an embedded one, never the last way in)", Some(json::<SiweUnlinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
    r(Post, "/api/v1/siwe/transfer", "Move an Ethereum wallet from its owner, with the nonce of account_transfer_required", Some(json::<SiweTransferRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
];

fn mount(routes: Mount) -> Mount {
    routes
        .post("/api/v1/siwe/init", super::init)
        .post("/api/v1/siwe/authenticate", super::authenticate)
        .post("/api/v1/siwe/link", super::link)
        .post("/api/v1/siwe/link_smart_wallet", super::link_smart_wallet)
        .post("/api/v1/siwe/unlink", super::unlink)
        .post("/api/v1/siwe/transfer", super::transfer)
}
