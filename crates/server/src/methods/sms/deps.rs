//! What sms sign-in reads: its slice of the state, declared with the method.

use std::sync::Arc;

use axum::extract::FromRef;

use crate::methods::deps::{CodeDeps, LoginDeps};
use crate::sms::SmsSender;
use crate::state::AppState;

/// SMS codes.
#[derive(Clone)]
pub struct SmsDeps {
    /// Sign-in and link.
    pub login: LoginDeps,
    /// The code engine.
    pub codes: CodeDeps,
    /// Texts the codes.
    pub sms: Arc<dyn SmsSender>,
}

impl FromRef<AppState> for SmsDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            login: LoginDeps::from_ref(state),
            codes: CodeDeps::from_ref(state),
            sms: Arc::clone(&state.sms),
        }
    }
}
