//! Webhook endpoints and the outbox (`crate::webhooks`): an event and one delivery per endpoint
//! that hears its kind are written inside the transaction of the change they report
//! ([`record_events`]), so a change that committed is delivered even if the process dies before
//! sending it. A worker claims due deliveries with one conditional write (several workers, or
//! servers on one Postgres, never send the same attempt twice) and records every attempt.

use std::collections::HashMap;

use sqlx::any::AnyRow;
use sqlx::{Any, FromRow, Row, Transaction};

use super::{Db, DbError};

/// How long an event whose deliveries are all finished is kept (for `webhooks deliveries` and
/// replays): 30 days.
pub const KEPT_S: i64 = 30 * 24 * 60 * 60;

/// An event to record with a change, in its transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEvent {
    /// `msg_…`.
    pub id: String,
    /// The app whose endpoints hear it.
    pub app_id: String,
    /// `user.created`, …
    pub event_type: &'static str,
    /// The user it is about.
    pub user_id: String,
    /// What the change knew, a JSON object.
    pub body: String,
}

impl NewEvent {
    /// The event with `fields` (a JSON object) added to its body: what only the change's
    /// transaction learns (a transfer's former owner).
    pub fn with_fields(mut self, fields: serde_json::Value) -> Result<Self, DbError> {
        let mut body: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&self.body).map_err(DbError::corrupt)?;
        if let serde_json::Value::Object(fields) = fields {
            body.extend(fields);
        }
        self.body = serde_json::Value::Object(body).to_string();
        Ok(self)
    }
}

/// A stored endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndpointRecord {
    /// `we_…`.
    pub id: String,
    /// Its app.
    pub app_id: String,
    /// Where deliveries are POSTed.
    pub url: String,
    /// `*` or `,kind,kind,`.
    pub events: String,
    /// The sealed signing secret.
    pub secret: String,
    /// Unix seconds.
    pub created_at: i64,
}

/// A delivery a worker holds until its claim runs out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimedDelivery {
    /// `<event id>.<endpoint id>`.
    pub id: String,
    /// The event.
    pub event_id: String,
    /// The endpoint.
    pub endpoint_id: String,
    /// Attempts so far, this one included.
    pub attempt: i64,
}

/// A stored event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRecord {
    /// `msg_…`.
    pub id: String,
    /// Its app.
    pub app_id: String,
    /// `user.created`, …
    pub event_type: String,
    /// The user it is about.
    pub user_id: String,
    /// What the change knew.
    pub body: String,
    /// The body as sent, once prepared.
    pub payload: Option<String>,
    /// Unix seconds.
    pub created_at: i64,
}

/// How an attempt ended, and what happens next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttemptOutcome {
    /// The endpoint's HTTP status, if it answered.
    pub response_status: Option<u16>,
    /// Why it failed (transport error, or the status), if it did.
    pub error: Option<String>,
    /// How long the attempt took.
    pub duration_ms: i64,
    /// `delivered`, `pending` (retry at `next_attempt_at`), `failed` or `skipped`.
    pub status: &'static str,
    /// Unix seconds of the next attempt (for `pending`).
    pub next_attempt_at: i64,
}

/// A delivery as `symbolon webhooks deliveries` lists it (read by column name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryRecord {
    /// `<event id>.<endpoint id>`.
    pub id: String,
    /// The event's kind.
    pub event_type: String,
    /// The endpoint's URL.
    pub url: String,
    /// pending, delivered, failed, skipped.
    pub status: String,
    /// Attempts so far.
    pub attempts: i64,
    /// The last HTTP status.
    pub last_response: Option<i64>,
    /// The last failure.
    pub last_error: Option<String>,
    /// Unix seconds.
    pub next_attempt_at: i64,
    /// Unix seconds.
    pub created_at: i64,
}

impl<'r> FromRow<'r, AnyRow> for DeliveryRecord {
    fn from_row(row: &'r AnyRow) -> Result<Self, sqlx::Error> {
        Ok(Self {
            id: row.try_get("id")?,
            event_type: row.try_get("event_type")?,
            url: row.try_get("url")?,
            status: row.try_get("status")?,
            attempts: row.try_get("attempts")?,
            last_response: row.try_get("last_response")?,
            last_error: row.try_get("last_error")?,
            next_attempt_at: row.try_get("next_attempt_at")?,
            created_at: row.try_get("created_at")?,
        })
    }
}

/// Whether an endpoint hears `$2` (`events` is `*` or lists the kind between commas).
const HEARS: &str = "(e.events = '*' OR e.events LIKE '%,' || $2 || ',%')";

/// Writes `events` and their deliveries inside `tx`: one delivery per endpoint of the event's
/// app that hears its kind; an event nobody hears is not stored. True when a delivery was
/// written (the caller wakes the worker after committing).
pub(super) async fn record_events(
    tx: &mut Transaction<'static, Any>,
    events: &[NewEvent],
    now: i64,
) -> Result<bool, DbError> {
    const INSERT_EVENT: &str =
        "INSERT INTO webhook_events (id, app_id, event_type, user_id, body, created_at)
         SELECT $3, $1, $2, $4, $5, $6
         WHERE EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.app_id = $1
                       AND (e.events = '*' OR e.events LIKE '%,' || $2 || ',%'))";
    const INSERT_DELIVERIES: &str = "INSERT INTO webhook_deliveries
           (id, event_id, endpoint_id, app_id, status, attempts, next_attempt_at, claimed_until, created_at)
         SELECT $3 || '.' || e.id, $3, e.id, $1, 'pending', 0, $4, 0, $4
         FROM webhook_endpoints e WHERE e.app_id = $1
           AND (e.events = '*' OR e.events LIKE '%,' || $2 || ',%')";
    debug_assert!(INSERT_EVENT.contains(HEARS) && INSERT_DELIVERIES.contains(HEARS));
    let mut any = false;
    for event in events {
        let stored = sqlx::query(INSERT_EVENT)
            .bind(&event.app_id)
            .bind(event.event_type)
            .bind(&event.id)
            .bind(&event.user_id)
            .bind(&event.body)
            .bind(now)
            .execute(&mut **tx)
            .await?;
        if stored.rows_affected() == 0 {
            continue;
        }
        sqlx::query(INSERT_DELIVERIES)
            .bind(&event.app_id)
            .bind(event.event_type)
            .bind(&event.id)
            .bind(now)
            .execute(&mut **tx)
            .await?;
        any = true;
    }
    Ok(any)
}

type EndpointRow = (String, String, String, String, String, i64);
type EventRow = (String, String, String, String, String, Option<String>, i64);

fn endpoint((id, app_id, url, events, secret, created_at): EndpointRow) -> EndpointRecord {
    EndpointRecord {
        id,
        app_id,
        url,
        events,
        secret,
        created_at,
    }
}

impl Db {
    /// Commits `tx` and, when it wrote deliveries, wakes the delivery worker.
    pub(super) async fn commit_with_events(
        &self,
        tx: Transaction<'static, Any>,
        delivered: bool,
    ) -> Result<(), DbError> {
        tx.commit().await?;
        if delivered {
            self.outbox.notify_one();
        }
        Ok(())
    }

    /// Records `events` on their own (changes with no other write: a login of a known account
    /// records only the event).
    pub async fn record_events(&self, events: &[NewEvent], now: i64) -> Result<(), DbError> {
        if events.is_empty() {
            return Ok(());
        }
        let mut tx = self.writer().begin().await?;
        let delivered = record_events(&mut tx, events, now).await?;
        self.commit_with_events(tx, delivered).await
    }

    /// Waits until a change wrote a delivery (or `timeout` passes).
    pub async fn outbox_written(&self, timeout: std::time::Duration) {
        let _ = tokio::time::timeout(timeout, self.outbox.notified()).await;
    }

    /// Stores an endpoint.
    pub async fn insert_webhook_endpoint(&self, endpoint: &EndpointRecord) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO webhook_endpoints (id, app_id, url, events, secret, created_at)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&endpoint.id)
        .bind(&endpoint.app_id)
        .bind(&endpoint.url)
        .bind(&endpoint.events)
        .bind(&endpoint.secret)
        .bind(endpoint.created_at)
        .execute(self.writer())
        .await?;
        Ok(())
    }

    /// The app's endpoints, oldest first.
    pub async fn webhook_endpoints(&self, app_id: &str) -> Result<Vec<EndpointRecord>, DbError> {
        let rows: Vec<EndpointRow> = sqlx::query_as(
            "SELECT id, app_id, url, events, secret, created_at FROM webhook_endpoints
             WHERE app_id = $1 ORDER BY created_at, id",
        )
        .bind(app_id)
        .fetch_all(self.pool())
        .await?;
        Ok(rows.into_iter().map(endpoint).collect())
    }

    /// One endpoint.
    pub async fn webhook_endpoint(&self, id: &str) -> Result<Option<EndpointRecord>, DbError> {
        let row: Option<EndpointRow> = sqlx::query_as(
            "SELECT id, app_id, url, events, secret, created_at FROM webhook_endpoints WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(endpoint))
    }

    /// Deletes the app's endpoint and its deliveries; false when the app has no such endpoint.
    pub async fn delete_webhook_endpoint(&self, app_id: &str, id: &str) -> Result<bool, DbError> {
        let done = sqlx::query("DELETE FROM webhook_endpoints WHERE app_id = $1 AND id = $2")
            .bind(app_id)
            .bind(id)
            .execute(self.writer())
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Claims up to `limit` deliveries due at `now` for `lease_s` seconds, counting the attempt:
    /// one conditional write, so of concurrent workers exactly one gets each.
    pub async fn claim_webhook_deliveries(
        &self,
        now: i64,
        lease_s: i64,
        limit: i64,
    ) -> Result<Vec<ClaimedDelivery>, DbError> {
        let rows: Vec<(String, String, String, i64)> = sqlx::query_as(
            "UPDATE webhook_deliveries SET claimed_until = $2, attempts = attempts + 1
             WHERE id IN (SELECT id FROM webhook_deliveries
                          WHERE status = 'pending' AND next_attempt_at <= $1 AND claimed_until <= $1
                          ORDER BY next_attempt_at, event_id LIMIT $3)
               AND status = 'pending' AND claimed_until <= $1
             RETURNING id, event_id, endpoint_id, attempts",
        )
        .bind(now)
        .bind(now + lease_s)
        .bind(limit)
        .fetch_all(self.writer())
        .await?;
        Ok(rows
            .into_iter()
            .map(|(id, event_id, endpoint_id, attempt)| ClaimedDelivery {
                id,
                event_id,
                endpoint_id,
                attempt,
            })
            .collect())
    }

    /// The earliest time a pending delivery is due (claimed ones at their claim's end).
    pub async fn next_webhook_due(&self) -> Result<Option<i64>, DbError> {
        let (due,): (Option<i64>,) = sqlx::query_as(
            "SELECT MIN(CASE WHEN claimed_until > next_attempt_at THEN claimed_until ELSE next_attempt_at END)
             FROM webhook_deliveries WHERE status = 'pending'",
        )
        .fetch_one(self.pool())
        .await?;
        Ok(due)
    }

    /// One event.
    pub async fn webhook_event(&self, id: &str) -> Result<Option<EventRecord>, DbError> {
        let row: Option<EventRow> = sqlx::query_as(
            "SELECT id, app_id, event_type, user_id, body, payload, created_at
                 FROM webhook_events WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(
            |(id, app_id, event_type, user_id, body, payload, created_at)| EventRecord {
                id,
                app_id,
                event_type,
                user_id,
                body,
                payload,
                created_at,
            },
        ))
    }

    /// Sets each event's payload unless one is set, in one transaction; the payload each event
    /// has then (what every delivery of it sends).
    pub async fn fix_webhook_payloads(
        &self,
        payloads: &[(String, String)],
    ) -> Result<HashMap<String, String>, DbError> {
        let mut stored = HashMap::new();
        if payloads.is_empty() {
            return Ok(stored);
        }
        let mut tx = self.writer().begin().await?;
        for (id, payload) in payloads {
            sqlx::query("UPDATE webhook_events SET payload = $2 WHERE id = $1 AND payload IS NULL")
                .bind(id)
                .bind(payload)
                .execute(&mut *tx)
                .await?;
            let (kept,): (Option<String>,) =
                sqlx::query_as("SELECT payload FROM webhook_events WHERE id = $1")
                    .bind(id)
                    .fetch_one(&mut *tx)
                    .await?;
            if let Some(kept) = kept {
                stored.insert(id.clone(), kept);
            }
        }
        tx.commit().await?;
        Ok(stored)
    }

    /// Records the attempts of a pass and what follows each, in one transaction.
    pub async fn finish_webhook_attempts(
        &self,
        attempts: &[(ClaimedDelivery, AttemptOutcome)],
        now: i64,
    ) -> Result<(), DbError> {
        if attempts.is_empty() {
            return Ok(());
        }
        let mut tx = self.writer().begin().await?;
        for (delivery, outcome) in attempts {
            sqlx::query(
                "INSERT INTO webhook_attempts (delivery_id, attempt, at, response_status, error, duration_ms)
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(&delivery.id)
            .bind(delivery.attempt)
            .bind(now)
            .bind(outcome.response_status.map(i64::from))
            .bind(outcome.error.as_deref())
            .bind(outcome.duration_ms)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "UPDATE webhook_deliveries SET status = $2, next_attempt_at = $3, claimed_until = 0,
                        last_response = $4, last_error = $5,
                        delivered_at = CASE WHEN $2 = 'delivered' THEN $6 ELSE delivered_at END
                 WHERE id = $1",
            )
            .bind(&delivery.id)
            .bind(outcome.status)
            .bind(outcome.next_attempt_at)
            .bind(outcome.response_status.map(i64::from))
            .bind(outcome.error.as_deref())
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The app's deliveries, newest first (`status` filters).
    pub async fn webhook_deliveries(
        &self,
        app_id: &str,
        status: Option<&str>,
        limit: i64,
    ) -> Result<Vec<DeliveryRecord>, DbError> {
        Ok(sqlx::query_as(
            "SELECT d.id, v.event_type, e.url, d.status, d.attempts, d.last_response, d.last_error,
                    d.next_attempt_at, d.created_at
             FROM webhook_deliveries d JOIN webhook_events v ON v.id = d.event_id
                  JOIN webhook_endpoints e ON e.id = d.endpoint_id
             WHERE d.app_id = $1 AND ($2 = '' OR d.status = $2)
             ORDER BY d.created_at DESC, d.id DESC LIMIT $3",
        )
        .bind(app_id)
        .bind(status.unwrap_or(""))
        .bind(limit)
        .fetch_all(self.pool())
        .await?)
    }

    /// The attempts of a delivery, first first: `(attempt, at, response status, error, ms)`.
    pub async fn webhook_attempts(
        &self,
        delivery_id: &str,
    ) -> Result<Vec<(i64, i64, Option<i64>, Option<String>, i64)>, DbError> {
        Ok(sqlx::query_as(
            "SELECT attempt, at, response_status, error, duration_ms FROM webhook_attempts
             WHERE delivery_id = $1 ORDER BY attempt",
        )
        .bind(delivery_id)
        .fetch_all(self.pool())
        .await?)
    }

    /// Sends the app's delivery again now (whatever its status; the attempt count goes on).
    /// False when the app has no such delivery.
    pub async fn replay_webhook_delivery(
        &self,
        app_id: &str,
        id: &str,
        now: i64,
    ) -> Result<bool, DbError> {
        let done = sqlx::query(
            "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $3, claimed_until = 0
             WHERE app_id = $1 AND id = $2",
        )
        .bind(app_id)
        .bind(id)
        .bind(now)
        .execute(self.writer())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Deletes events older than `before` whose deliveries are all finished (their deliveries and
    /// attempts go with them); the expiry sweeper calls it.
    pub async fn sweep_webhook_events(&self, before: i64) -> Result<u64, DbError> {
        let done = sqlx::query(
            "DELETE FROM webhook_events WHERE created_at < $1
               AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                               WHERE d.event_id = webhook_events.id AND d.status = 'pending')",
        )
        .bind(before)
        .execute(self.writer())
        .await?;
        Ok(done.rows_affected())
    }
}
