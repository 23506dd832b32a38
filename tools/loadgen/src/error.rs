//! The load generator's one error type.

/// Why a call made by the load generator failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadgenError {
    /// The request did not complete (connection refused, reset, timeout).
    #[error("request failed: {0}")]
    Http(#[from] reqwest::Error),
    /// The server answered with a non-success status.
    #[error("{path} answered {status}: {body}")]
    Status {
        /// The API path called.
        path: String,
        /// The HTTP status.
        status: u16,
        /// The start of the response body.
        body: String,
    },
    /// A success response lacked a field the scenario needs.
    #[error("unexpected response from {path}: {detail}")]
    Protocol {
        /// The API path called.
        path: String,
        /// What was missing.
        detail: String,
    },
    /// No login code reached the mailbox in time.
    #[error("no code in the mailbox for {0}")]
    NoCode(String),
}

/// Result of a load generator call.
pub type Result<T> = std::result::Result<T, LoadgenError>;
