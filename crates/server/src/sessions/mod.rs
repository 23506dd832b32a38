//! Sessions: issuing one at sign-in ([`issue`]), refreshing and ending it ([`routes`]).

pub mod issue;
pub mod routes;
