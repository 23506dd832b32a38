//! Policies (`/v1/policies`, `docs/policies.md`): what a signature made for a host's back end must
//! pass, in the spec vendor's rule format. [`check`] says what a policy may contain, [`evaluate`]
//! gives the verdict on a wallet request, [`service`] keeps an app's policies (no HTTP), [`routes`]
//! serves them with the app secret.

pub mod check;
pub mod deps;
pub mod evaluate;
pub mod routes;
pub mod service;
