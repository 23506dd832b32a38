//! Policies (`/v1/policies`, `docs/policies.md`): what a signature made for a host's back end must
//! pass, in the spec vendor's rule format. [`check`] says what a policy may contain (so that the
//! signer's evaluator, `symbolon_signer::policy`, understands every stored policy whole), [`service`] keeps an app's policies (no HTTP), [`routes`]
//! serves them with the app secret.

pub mod check;
pub mod deps;
pub mod routes;
pub mod service;
