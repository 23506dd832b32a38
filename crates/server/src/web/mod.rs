//! What route handlers take from a request: the app it is for ([`app_context`]), the signed-in
//! user ([`auth`]), the wallet frame as caller ([`frame_caller`]), the client's network
//! ([`client_ip`]) and bodies and path values that fail with the spec's `invalid_data`; and the
//! route tables each capability lists its routes in ([`routes`]), whose rows' policy the
//! extractors enforce. Every capability's routes use these; they depend only on the store and
//! support modules below them.

pub mod app_context;
pub mod auth;
pub mod authorization_signature;
pub mod back_end;
pub mod built_pages;
pub mod client_ip;
pub mod frame_caller;
pub mod idempotency;
pub mod json_body;
pub mod path_param;
pub mod raw_body;
pub mod routes;
