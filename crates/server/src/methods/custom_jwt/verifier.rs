//! Custom auth: verifying the host app's own JWTs.
