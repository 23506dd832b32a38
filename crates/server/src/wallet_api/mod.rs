//! The wallet API for host back ends (`/v1/wallets`, the vendor's wire, docs/delegation.md): list
//! and read the app's embedded wallets, and — for a wallet its user delegated — sign and send
//! through the signer. This server checks the app secret and the wallet's delegation; the signer
//! checks the authorization signatures and the consented policies, so neither decides alone.

pub mod chain;
pub mod deps;
pub mod routes;
pub mod service;
