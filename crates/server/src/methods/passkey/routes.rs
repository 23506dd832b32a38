//! Passkeys: the route table and its mounts.

use crate::app_settings::login_methods::LoginMethod;
use crate::rate_limit::Budget;
use crate::web::routes::Access::{AppOrigin, UserOrigin};
use crate::web::routes::Verb::Post;
use crate::web::routes::{Body, Mount, Route, Routes, json, r};
use symbolon_protocol::passkey::{
    PasskeyAuthenticateRequest, PasskeyAuthenticationInitResponse, PasskeyInitRequest,
    PasskeyRegisterRequest, PasskeyRegistrationInitResponse, PasskeyUnlinkRequest,
};
use symbolon_protocol::session::SessionResponse;
use symbolon_protocol::user::User;

/// Passkeys: every route, one line each (the OpenAPI document is built from these), and how
/// they are mounted. [`Mount`] refuses a route missing from the table.
pub const ROUTES: Routes = Routes {
    table: TABLE,
    mount,
};

#[rustfmt::skip]
const TABLE: &[Route] = &[
    r(Post, "/api/v1/passkeys/register/init", "WebAuthn creation options (single-use challenge) to sign up with a new passkey", Some(json::<PasskeyInitRequest>), Body::Json(json::<PasskeyRegistrationInitResponse>), AppOrigin, &[409, 429]).gated(LoginMethod::Passkey).limited(Budget::Passkey),
    r(Post, "/api/v1/passkeys/register", "Sign up with a new passkey (attestation none, user verification required)", Some(json::<PasskeyRegisterRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 409, 422, 429]).gated(LoginMethod::Passkey).limited(Budget::Authenticate),
    r(Post, "/api/v1/passkeys/authenticate/init", "WebAuthn request options for a discoverable passkey login", Some(json::<PasskeyInitRequest>), Body::Json(json::<PasskeyAuthenticationInitResponse>), AppOrigin, &[409, 429]).gated(LoginMethod::Passkey).limited(Budget::Passkey),
    r(Post, "/api/v1/passkeys/authenticate", "Log in with a passkey assertion", Some(json::<PasskeyAuthenticateRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 409, 422, 429]).gated(LoginMethod::Passkey).limited(Budget::Authenticate),
    r(Post, "/api/v1/passkeys/link/init", "WebAuthn creation options to add a passkey (excluding the user's own; at most 5)", Some(json::<PasskeyInitRequest>), Body::Json(json::<PasskeyRegistrationInitResponse>), UserOrigin, &[409]).gated(LoginMethod::Passkey),
    r(Post, "/api/v1/passkeys/link", "Link a new passkey to the signed-in user", Some(json::<PasskeyRegisterRequest>), Body::Json(json::<User>), UserOrigin, &[401, 409, 422]).gated(LoginMethod::Passkey),
    r(Post, "/api/v1/passkeys/unlink", "Unlink a passkey (never one enrolled in MFA, never the last way in)", Some(json::<PasskeyUnlinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
];

fn mount(routes: Mount) -> Mount {
    routes
        .post("/api/v1/passkeys/register/init", super::register_init)
        .post("/api/v1/passkeys/register", super::register)
        .post(
            "/api/v1/passkeys/authenticate/init",
            super::authenticate_init,
        )
        .post("/api/v1/passkeys/authenticate", super::authenticate)
        .post("/api/v1/passkeys/link/init", super::link_init)
        .post("/api/v1/passkeys/link", super::link)
        .post("/api/v1/passkeys/unlink", super::unlink)
}
