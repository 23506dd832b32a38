//! Policies in the vendor's rule format, judged by the signer on the copies the user consented to.
//! What a policy may contain is checked by the server before it is stored (`policies::check`), so
//! every stored policy is one this evaluator understands whole.

pub mod calldata;
mod evaluate;
mod facts;

pub use evaluate::{
    RequestFacts, TransactionFacts, Verdict, evaluate, missing_aggregations, parse_number,
};
pub use facts::looks_like_transaction;
