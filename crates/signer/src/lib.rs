//! The signer (docs/delegation.md): a process of its own, with a key of its own, that signs for a
//! user's delegated embedded wallet — and only a request that carries authorization signatures by
//! keys the user consented to and that the policies the user consented to allow.
//!
//! The wallet frame seals the wallet's key with what the user consented to (the app's signer keys
//! and the policies, whole) to this signer's HPKE public key ([`consent`]); the main server stores
//! only that ciphertext and forwards it with each request ([`wire`]). So neither a copy of the
//! main server's database, nor its keys, nor a user's stolen access token can make the signer sign.
//! What the signer keeps itself ([`store`]): which consents are live or revoked and which signed
//! requests were used.

pub mod authorization;
pub mod consent;
pub mod error;
pub mod methods;
pub mod policy;
pub mod service;
pub mod store;
pub mod wire;
