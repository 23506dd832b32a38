//! Users as the wire shows them ([`view`]) and the signed-in user's own routes ([`routes`]),
//! which read the slice [`deps::UserDeps`].

pub mod deps;
pub mod routes;
pub mod view;
