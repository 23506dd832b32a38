//! The `/v1` API a host app's back end calls with an app secret (HTTP Basic), in the shapes the
//! vendor's server SDK (`@privy-io/node`) sends and parses (docs/server-api.md). Its routes stay
//! thin; the rules are in [`users`] and [`wallets`].

pub mod apps;
pub mod batch;
pub mod deps;
pub mod export;
pub mod routes;
pub mod search;
pub mod users;
pub mod wallets;
