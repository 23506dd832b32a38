//! Webhooks: what a host back end hears about its users (`docs/webhooks.md`). A change records
//! its events in its own transaction (`db::webhooks`, built by [`events`]); the worker
//! ([`delivery`]) sends them to the app's endpoints ([`endpoints`]), signed the way the vendor's
//! SDK verifies ([`signing`]), and retries until they are taken.

pub mod delivery;
pub mod deps;
pub mod endpoints;
pub mod events;
pub mod signing;

pub use self::deps::WebhookDeps;
