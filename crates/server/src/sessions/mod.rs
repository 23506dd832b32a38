//! Sessions: issuing one at sign-in ([`issue`]), refreshing and ending it ([`routes`]); what
//! each reads is [`deps`].

pub mod deps;
pub mod issue;
pub mod routes;
