//! Guest login: the route table and its mounts.

use crate::rate_limit::Budget;
use crate::web::routes::Access::AppOrigin;
use crate::web::routes::Verb::Post;
use crate::web::routes::{Body, Mount, Route, Routes, json, r};
use symbolon_protocol::accounts::GuestAuthenticateRequest;
use symbolon_protocol::session::SessionResponse;

/// Guest login: every route, one line each (the OpenAPI document is built from these), and how
/// they are mounted. [`Mount`] refuses a route missing from the table.
pub const ROUTES: Routes = Routes {
    table: TABLE,
    mount,
};

#[rustfmt::skip]
const TABLE: &[Route] = &[
    r(Post, "/api/v1/guest/authenticate", "Log in as the guest of a client-held credential", Some(json::<GuestAuthenticateRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[409, 429]).limited(Budget::Authenticate),
];

fn mount(routes: Mount) -> Mount {
    routes.post("/api/v1/guest/authenticate", super::authenticate)
}
