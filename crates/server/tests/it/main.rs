//! The integration tests, one module per capability, linked into one binary: one link and one set of
//! shared services (mail and SMS catchers, Postgres, the OAuth providers) for all of them. `logs.rs` stays
//! a binary of its own because it installs a process-wide TRACE subscriber.

#[path = "../common/mod.rs"]
#[macro_use]
mod common;

mod accounts;
mod api;
mod app_secrets;
pub(crate) mod binary;
mod challenges;
mod codes;
mod cross_app;
mod custom_auth;
mod delegation;
mod edge;
mod email;
pub(crate) mod embedded_wallets;
mod farcaster;
mod jwt_verifier;
mod limiter;
pub(crate) mod mfa;
mod module_graph;
mod oauth;
mod openapi;
mod passkey;
pub(crate) mod policies;
mod pregenerated_wallets;
mod sdk;
mod server_api;
mod sessions;
mod sms;
mod sms_gateway;
mod storage;
mod telegram;
pub(crate) mod wallet;
mod wallet_moves;
mod webhooks;
