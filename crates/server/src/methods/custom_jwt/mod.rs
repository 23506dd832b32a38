//! Sign-in with the host app's own JWT (`customAuth`).

pub mod verifier;
