//! Users as the wire shows them ([`view`]) and the signed-in user's own routes ([`routes`]).

pub mod routes;
pub mod view;
