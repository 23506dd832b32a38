//! The Symbolon wire contract: every request and response body, error code and shared constant.
//!
//! This crate is the one source of these names. The server uses the Rust types directly; the
//! TypeScript client gets a generated copy (`packages/core/src/generated/protocol.ts`, written by
//! `cargo run -p symbolon-protocol --bin gen-ts`), and a test fails when that copy is stale.
//! Names follow the spec's wire (`../shared/spec.md` §7–§9), so a host app written for the
//! spec's client talks to our server unchanged.

pub mod accounts;
pub mod app;
pub mod constants;
pub mod cross_app;
pub mod delegation;
pub mod errors;
pub mod farcaster;
pub mod frame;
pub mod key_quorums;
pub mod login_methods;
pub mod mfa;
pub mod oauth;
pub mod passkey;
pub mod policies;
pub mod server_api;
pub mod session;
pub mod siwe;
pub mod telegram;
pub mod typescript;
pub mod user;
pub mod wallet;
pub mod wallet_api;
pub mod webhooks;

pub use errors::{ClientErrorCode, ErrorResponse, ServerErrorCode};
