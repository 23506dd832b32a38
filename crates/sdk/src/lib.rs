//! A client for a host app's back end talking to a Symbolon server: the `/v1` users API (with
//! app-secret authentication, idempotency keys and bounded retries) and verification of the
//! access and identity tokens the server issues, against its JWKS (fetched and cached), and of
//! the webhooks it sends ([`webhooks::verify`]).
//!
//! ```no_run
//! # async fn run() -> Result<(), symbolon_sdk::Error> {
//! use symbolon_sdk::{Client, ClientOptions};
//!
//! let client = Client::new(ClientOptions::new(
//!     "https://auth.example.com",
//!     "my-app-id",
//!     "sk_…",
//! ))?;
//! let access = client.verify_access_token("eyJ…").await?;
//! let user = client.users().get(&access.user_id).await?;
//! println!("{} has {} accounts", user.id, user.linked_accounts.len());
//! # Ok(()) }
//! ```
//!
//! reqwest is built with rustls but without a default crypto provider: [`Client::new`] installs
//! ring as the process's provider when none is installed yet.

mod client;
mod error;
mod tokens;
mod users;
pub mod webhooks;

pub use client::{Client, ClientOptions, DEFAULT_ISSUER};
pub use error::{Error, ErrorCode};
pub use tokens::{IdentityUser, VerifiedAccess};
pub use users::{UsernameProvider, Users};

pub use symbolon_protocol as protocol;
