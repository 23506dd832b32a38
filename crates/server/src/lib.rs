//! The Symbolon server: apps, login methods, accounts, sessions, second factors and embedded
//! wallets over the spec's wire.
//!
//! [`app`] builds the HTTP router from an [`AppState`]; `main.rs` wires configuration, the
//! database, the signing keys and the mailer into that state. The modules form layers that depend
//! one way (edge → capabilities → request support → store and support): docs/architecture.md,
//! "The server's layers". See `docs/server.md`.

pub mod accounts;
pub mod aggregations;
pub mod api_secrets;
pub mod app_secrets;
pub mod app_settings;
pub mod chain_rpc;
pub mod cli;
pub mod clock;
pub mod config;
pub mod db;
pub mod delegation;
pub mod digest;
pub mod error;
pub mod html;
pub mod http;
pub mod identifiers;
pub mod jwt_verifier;
pub mod key_quorums;
pub mod keys;
pub mod mail;
pub mod methods;
pub mod mfa;
pub mod origin;
pub mod otp;
pub mod outbound_http;
pub mod policies;
pub mod provider_app;
pub mod random;
pub mod rate_limit;
pub mod serve;
pub mod server_api;
pub mod sessions;
pub mod signer_client;
pub mod sms;
pub mod state;
pub mod tokens;
pub mod users;
pub mod wallet_api;
pub mod wallets;
pub mod web;
pub mod webhooks;

pub use http::app;
pub use state::AppState;
