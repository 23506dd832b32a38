//! Delegated actions, the user's side (docs/delegation.md): what delegating would let whom do
//! (`terms`), the consent the wallet frame sealed to the signer (stored, never opened here) and
//! revoking. The signing itself is the wallet API's (`wallet_api`), through the signer.

pub mod deps;
pub mod routes;
pub mod service;
