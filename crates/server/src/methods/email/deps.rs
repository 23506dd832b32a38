//! What email sign-in reads: its slice of the state, declared with the method.

use std::sync::Arc;

use axum::extract::FromRef;

use crate::mail::Mailer;
use crate::methods::deps::{CodeDeps, LoginDeps};
use crate::state::AppState;

/// Email codes.
#[derive(Clone)]
pub struct EmailDeps {
    /// Sign-in and link.
    pub login: LoginDeps,
    /// The code engine.
    pub codes: CodeDeps,
    /// Delivers the codes.
    pub mailer: Arc<dyn Mailer>,
}

impl FromRef<AppState> for EmailDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            login: LoginDeps::from_ref(state),
            codes: CodeDeps::from_ref(state),
            mailer: Arc::clone(&state.mailer),
        }
    }
}
