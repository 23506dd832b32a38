//! SMS code login: the route table and its mounts.

use crate::app_settings::login_methods::LoginMethod;
use crate::rate_limit::Budget;
use crate::web::routes::Access::{AppOrigin, UserOrigin};
use crate::web::routes::Verb::Post;
use crate::web::routes::{Body, Mount, Route, Routes, json, r};
use symbolon_protocol::accounts::{
    SmsAuthenticateRequest, SmsInitRequest, SmsLinkRequest, SmsTransferRequest, SmsUnlinkRequest,
    SmsUpdateRequest,
};
use symbolon_protocol::session::{SessionResponse, SuccessResponse};
use symbolon_protocol::user::User;

/// SMS code login: every route, one line each (the OpenAPI document is built from these), and how
/// they are mounted. [`Mount`] refuses a route missing from the table.
pub const ROUTES: Routes = Routes {
    table: TABLE,
    mount,
};

#[rustfmt::skip]
const TABLE: &[Route] = &[
    r(Post, "/api/v1/passwordless_sms/init", "Text a login code", Some(json::<SmsInitRequest>), Body::Json(json::<SuccessResponse>), AppOrigin, &[409, 429]).gated(LoginMethod::Sms).limited(Budget::Sms),
    r(Post, "/api/v1/passwordless_sms/authenticate", "Log in with a texted code", Some(json::<SmsAuthenticateRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 409, 429]).limited(Budget::Authenticate),
    r(Post, "/api/v1/passwordless_sms/link", "Link a phone number proven by its code", Some(json::<SmsLinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422, 429]).limited(Budget::Authenticate),
    r(Post, "/api/v1/passwordless_sms/unlink", "Unlink a phone number (never the last way in)", Some(json::<SmsUnlinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
    r(Post, "/api/v1/passwordless_sms/update", "Replace the user's phone number by one proven by its code", Some(json::<SmsUpdateRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422, 429]).limited(Budget::Authenticate),
    r(Post, "/api/v1/passwordless_sms/transfer", "Move a phone number from its owner, with the nonce of account_transfer_required", Some(json::<SmsTransferRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
];

fn mount(routes: Mount) -> Mount {
    routes
        .post("/api/v1/passwordless_sms/init", super::init)
        .post("/api/v1/passwordless_sms/authenticate", super::authenticate)
        .post("/api/v1/passwordless_sms/link", super::link)
        .post("/api/v1/passwordless_sms/unlink", super::unlink)
        .post("/api/v1/passwordless_sms/update", super::update)
        .post("/api/v1/passwordless_sms/transfer", super::transfer)
}
