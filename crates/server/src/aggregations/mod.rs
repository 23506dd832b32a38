//! Aggregations (`/v1/aggregations`, docs/policies.md "Aggregations"): a wallet's transaction
//! values summed over a rolling window, which a policy condition `{field_source: "reference",
//! field: "aggregation.{id}"}` compares (the vendor's per-day limits). [`service`] keeps an app's
//! aggregations (no HTTP) and refuses what the signer would not sum; [`routes`] serves them with
//! the app secret. The signer sums by the copies sealed in a consent (`symbolon_signer::store`).

pub mod deps;
pub mod routes;
pub mod service;
