//! Aggregations, without HTTP: create, read and delete an app's aggregations. Only what the signer
//! sums is stored: the values of a wallet's transactions (`eth_signTransaction` and
//! `eth_sendTransaction` alike) over a rolling window of 1 to 72 hours; everything else of the
//! vendor's format (filters, buckets, other metrics, owners) is refused by name, so a stored
//! aggregation is one the signer measures exactly. An aggregation a policy names cannot go.

use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::policies::{
    AGGREGATION_MAX_WINDOW_SECONDS, AGGREGATION_MIN_WINDOW_SECONDS, AGGREGATION_WINDOW_ROLLING,
    Aggregation, AggregationInput, AggregationMetric, AggregationWindow,
};

use super::deps::AggregationDeps;
use crate::db::aggregations::AggregationRecord;
use crate::db::{Db, DbError};
use crate::error::AppError;
use crate::random::random_id;

/// The refusal of an aggregation the app does not have.
pub const AGGREGATION_NOT_FOUND: &str = "Aggregation not found";
/// The refusal of a delete while a policy names the aggregation.
pub const AGGREGATION_IN_USE: &str =
    "A policy names this aggregation (aggregation.{id}); remove those conditions first";
/// The methods an aggregation may count (both count signed and sent transactions).
pub const AGGREGATION_METHODS: &[&str] = &["eth_signTransaction", "eth_sendTransaction"];
/// Longest name.
pub const MAX_NAME: usize = 50;

fn not_found() -> AppError {
    AppError::new(ServerErrorCode::NotFound, AGGREGATION_NOT_FOUND)
}

/// Creates an aggregation of `app_id`.
pub async fn create(
    deps: &AggregationDeps,
    app_id: &str,
    input: &AggregationInput,
) -> Result<Aggregation, AppError> {
    check(input)?;
    let record = AggregationRecord {
        id: random_id(24)?,
        app_id: app_id.to_string(),
        name: input.name.clone(),
        method: input.method.clone(),
        metric: serde_json::to_string(&input.metric).map_err(|e| AppError::internal(&e))?,
        window_seconds: i64::try_from(input.window.seconds).map_err(|e| AppError::internal(&e))?,
        created_at: deps.clock.now().saturating_mul(1000),
    };
    deps.db.insert_aggregation(&record).await?;
    view(&record)
}

/// `app_id`'s aggregation `id`.
pub async fn get(deps: &AggregationDeps, app_id: &str, id: &str) -> Result<Aggregation, AppError> {
    find(&deps.db, app_id, id).await?.ok_or_else(not_found)
}

/// `app_id`'s aggregation `id`, if it has one (the policies' check and the delegation terms).
pub async fn find(db: &Db, app_id: &str, id: &str) -> Result<Option<Aggregation>, AppError> {
    db.find_aggregation(app_id, id)
        .await?
        .as_ref()
        .map(view)
        .transpose()
}

/// Deletes the aggregation unless a policy names it (one conditional statement).
pub async fn delete(deps: &AggregationDeps, app_id: &str, id: &str) -> Result<(), AppError> {
    match deps.db.delete_unused_aggregation(app_id, id).await? {
        Some(true) => Ok(()),
        Some(false) => Err(AppError::invalid_data(AGGREGATION_IN_USE)),
        None => Err(not_found()),
    }
}

/// What the signer sums, and nothing else.
pub fn check(input: &AggregationInput) -> Result<(), AppError> {
    let refuse = |why: String| Err(AppError::invalid_data(why));
    let name = input.name.trim().chars().count();
    if name == 0 || input.name.chars().count() > MAX_NAME {
        return refuse(format!("name must be 1 to {MAX_NAME} characters"));
    }
    if !AGGREGATION_METHODS.contains(&input.method.as_str()) {
        return refuse(format!(
            "method {:?} is not supported: aggregations count transactions (eth_signTransaction, which here covers eth_sendTransaction too)",
            input.method
        ));
    }
    let AggregationMetric {
        field_source,
        field,
        function,
        abi,
    } = &input.metric;
    if field_source != "ethereum_transaction" || field != "value" || abi.is_some() {
        return refuse(format!(
            "metric {field_source}.{field} is not supported: the metric is ethereum_transaction.value (wei)"
        ));
    }
    if function != "sum" {
        return refuse(format!(
            "metric function {function:?} is not supported: it is sum"
        ));
    }
    let AggregationWindow { kind, seconds } = &input.window;
    if kind != AGGREGATION_WINDOW_ROLLING {
        return refuse(format!(
            "window type {kind:?} is not supported: it is rolling"
        ));
    }
    if !(AGGREGATION_MIN_WINDOW_SECONDS..=AGGREGATION_MAX_WINDOW_SECONDS).contains(seconds) {
        return refuse(format!(
            "window.seconds must be {AGGREGATION_MIN_WINDOW_SECONDS} to {AGGREGATION_MAX_WINDOW_SECONDS} (1 to 72 hours)"
        ));
    }
    if input.conditions.as_ref().is_some_and(|c| !c.is_empty()) {
        return refuse(
            "conditions on aggregations are not supported yet: every transaction of the wallet counts"
                .into(),
        );
    }
    if input.group_by.as_ref().is_some_and(|g| !g.is_empty()) {
        return refuse("group_by is not supported yet".into());
    }
    if input.owner.as_ref().is_some_and(|o| !o.is_null()) || input.owner_id.is_some() {
        return refuse("Owners of aggregations are not supported yet".into());
    }
    Ok(())
}

/// The aggregation as the API answers it.
fn view(record: &AggregationRecord) -> Result<Aggregation, AppError> {
    Ok(Aggregation {
        id: record.id.clone(),
        created_at: record.created_at,
        name: record.name.clone(),
        method: record.method.clone(),
        metric: serde_json::from_str(&record.metric)
            .map_err(|e| AppError::internal(&DbError::corrupt(e)))?,
        window: AggregationWindow {
            kind: AGGREGATION_WINDOW_ROLLING.into(),
            seconds: u64::try_from(record.window_seconds)
                .map_err(|e| AppError::internal(&DbError::corrupt(e)))?,
        },
        owner_id: None,
    })
}
