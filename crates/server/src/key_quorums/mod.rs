//! Key quorums (`/v1/key_quorums`, docs/policies.md "Owners"): P-256 keys, and how many of them
//! must sign a change to what the quorum owns. [`service`] keeps them and judges signed requests
//! against an owner (no HTTP); [`routes`] serves them with the app secret.

pub mod deps;
pub mod routes;
pub mod service;
