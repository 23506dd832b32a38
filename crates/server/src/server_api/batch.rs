//! `POST /v1/users/import`: many users at once, each created as `POST /v1/users` creates one and
//! reported on its own: a malformed or refused user fails alone, the others are created.

use symbolon_protocol::server_api::{CreateUserRequest, ImportUserResult, ImportUsersRequest};

use super::deps::ServerApiDeps;
use super::users::create;
use crate::db::apps::AppRecord;
use crate::error::AppError;

/// Most users one import request may carry.
pub const MAX_BATCH: usize = 100;

/// The refusal of an empty or too large batch (nothing is created).
pub const BATCH_SIZE: &str = "users must list 1 to 100 users";

/// Creates each user of `request` in order; one result per user.
pub async fn import_many(
    deps: &ServerApiDeps,
    app: &AppRecord,
    request: &ImportUsersRequest,
) -> Result<Vec<ImportUserResult>, AppError> {
    if request.users.is_empty() || request.users.len() > MAX_BATCH {
        return Err(AppError::invalid_data(BATCH_SIZE));
    }
    let mut results = Vec::with_capacity(request.users.len());
    for (index, user) in request.users.iter().enumerate() {
        let outcome = match serde_json::from_value::<CreateUserRequest>(user.clone()) {
            Ok(user) => create(deps, app, &user).await,
            Err(error) => Err(AppError::invalid_data(format!("Invalid user: {error}"))),
        };
        results.push(match outcome {
            Ok(created) => ImportUserResult {
                action: "create".into(),
                index,
                success: true,
                id: Some(created.id),
                code: None,
                error: None,
            },
            Err(refused) => ImportUserResult {
                action: "create".into(),
                index,
                success: false,
                id: None,
                code: Some(refused.code.as_str().to_string()),
                error: Some(refused.message),
            },
        });
    }
    Ok(results)
}
