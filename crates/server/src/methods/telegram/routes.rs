//! Telegram: the route table and its mounts.

use crate::app_settings::login_methods::LoginMethod;
use crate::rate_limit::Budget;
use crate::web::routes::Access::{AppOrigin, Public, UserOrigin};
use crate::web::routes::Verb::{Get, Post};
use crate::web::routes::{Body, Mount, Route, Routes, json, r};
use symbolon_protocol::session::SessionResponse;
use symbolon_protocol::telegram::{
    TelegramAuthenticateRequest, TelegramLinkRequest, TelegramTransferRequest,
    TelegramUnlinkRequest,
};
use symbolon_protocol::user::User;

/// Telegram: every route, one line each (the OpenAPI document is built from these), and how
/// they are mounted. [`Mount`] refuses a route missing from the table.
pub const ROUTES: Routes = Routes {
    table: TABLE,
    mount,
};

#[rustfmt::skip]
const TABLE: &[Route] = &[
    r(Post, "/api/v1/telegram/authenticate", "Log in with Telegram Login Widget data or Mini App initData", Some(json::<TelegramAuthenticateRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 403, 409, 422, 429]).gated(LoginMethod::Telegram).limited(Budget::Authenticate),
    r(Post, "/api/v1/telegram/link", "Link a Telegram account proven by the widget or initData", Some(json::<TelegramLinkRequest>), Body::Json(json::<User>), UserOrigin, &[401, 404, 409, 422, 429]).gated(LoginMethod::Telegram).limited(Budget::Authenticate),
    r(Post, "/api/v1/telegram/unlink", "Unlink a Telegram account (never the last way in)", Some(json::<TelegramUnlinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
    r(Post, "/api/v1/telegram/transfer", "Move a Telegram account from its owner, with the nonce of account_transfer_required", Some(json::<TelegramTransferRequest>), Body::Json(json::<User>), UserOrigin, &[401, 404, 409, 422, 429]).gated(LoginMethod::Telegram).limited(Budget::Authenticate),
    r(Get, "/js/telegram-login.js", "The Telegram Login Widget's auth() for host pages", None, Body::Asset, Public, &[]),
];

fn mount(routes: Mount) -> Mount {
    routes
        .post("/api/v1/telegram/authenticate", super::authenticate)
        .post("/api/v1/telegram/link", super::link)
        .post("/api/v1/telegram/unlink", super::unlink)
        .post("/api/v1/telegram/transfer", super::transfer)
        .get("/js/telegram-login.js", super::widget_script::script)
}
