//! The delivery worker: claims due deliveries from the outbox, renders each event once (the
//! change's fields plus the user as they are now), signs it for the endpoint and POSTs it,
//! records the attempt, and retries failures on Svix's schedule.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use serde_json::Value;
use symbolon_protocol::webhooks::WebhookEventType;
use tokio::task::JoinSet;

use super::deps::WebhookDeps;
use super::endpoints::secret_field;
use super::signing::sign;
use crate::app_secrets::SealedSecret;
use crate::db::DbError;
use crate::db::webhooks::{AttemptOutcome, ClaimedDelivery};
use crate::users::view::user_view;

/// Seconds a worker holds a delivery it is sending: longer than a request may take, so a worker
/// that died lets its deliveries go after this.
pub const CLAIM_S: i64 = 60;

/// The wait after each failed attempt (Svix's schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
/// 10 h); the attempt after the last is the final one.
pub const RETRY_DELAYS_S: [i64; 7] = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000];

/// How often the worker looks for deliveries written by other processes (a replay from the
/// command line, another instance); its own process's changes wake it at once.
const POLL: Duration = Duration::from_secs(2);

/// Deliveries claimed at a time.
const BATCH: i64 = 64;

/// How long a woken worker waits for more changes before it claims (the delay a delivery may
/// add to its change).
const GATHER: Duration = Duration::from_millis(50);

/// Bytes of an endpoint's answer kept (for the attempt's error).
const ANSWER_KEPT: usize = 200;

/// Starts the worker. Several servers over one database may each run one: claims are exclusive.
pub fn spawn_worker(deps: WebhookDeps) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            match deliver_due(&deps).await {
                // A full batch: more are waiting.
                Ok(claimed) if claimed >= BATCH as usize => continue,
                Ok(_) => {}
                Err(error) => tracing::warn!(%error, "webhook delivery pass failed; retrying"),
            }
            let wait = match deps.db.next_webhook_due().await {
                Ok(Some(due)) => {
                    Duration::from_secs(due.saturating_sub(deps.clock.now()).max(0) as u64)
                        .clamp(Duration::from_millis(200), POLL)
                }
                _ => POLL,
            };
            deps.db.outbox_written(wait).await;
            // Let the changes of the next moments join this pass: under load a pass then sends
            // many deliveries for its three commits instead of one or two.
            tokio::time::sleep(GATHER).await;
        }
    })
}

/// Sends every delivery due now: each endpoint's in the order their events happened (message
/// ids sort by time), the endpoints at once (one slow endpoint holds up no other). A pass
/// commits three times whatever its size: the claim, the newly rendered payloads, the
/// attempts. The number claimed.
pub async fn deliver_due(deps: &WebhookDeps) -> Result<usize, DbError> {
    let claimed = deps
        .db
        .claim_webhook_deliveries(deps.clock.now(), CLAIM_S, BATCH)
        .await?;
    let count = claimed.len();
    if count == 0 {
        return Ok(0);
    }
    let prepared = prepare(deps, &claimed).await?;
    let mut by_endpoint: BTreeMap<String, Vec<(ClaimedDelivery, Prepared)>> = BTreeMap::new();
    for (delivery, prepared) in claimed.into_iter().zip(prepared) {
        by_endpoint
            .entry(delivery.endpoint_id.clone())
            .or_default()
            .push((delivery, prepared));
    }
    let mut sending = JoinSet::new();
    for (_, mut deliveries) in by_endpoint {
        deliveries.sort_by(|(a, _), (b, _)| a.event_id.cmp(&b.event_id));
        let deps = deps.clone();
        sending.spawn(async move {
            let mut outcomes = Vec::with_capacity(deliveries.len());
            for (delivery, prepared) in deliveries {
                let outcome = attempt(&deps, &delivery, prepared).await;
                outcomes.push((delivery, outcome));
            }
            outcomes
        });
    }
    let mut outcomes = Vec::with_capacity(count);
    while let Some(done) = sending.join_next().await {
        match done {
            Ok(sent) => outcomes.extend(sent),
            // Its deliveries are retried when their claim ends.
            Err(error) => tracing::error!(%error, "webhook sender panicked"),
        }
    }
    deps.db
        .finish_webhook_attempts(&outcomes, deps.clock.now())
        .await?;
    Ok(count)
}

/// What a claimed delivery sends, or why it sends nothing.
enum Prepared {
    Send {
        url: String,
        secret: Option<zeroize::Zeroizing<String>>,
        message_id: String,
        payload: String,
    },
    Skip(String),
}

/// Sends one prepared delivery; what follows it.
async fn attempt(
    deps: &WebhookDeps,
    delivery: &ClaimedDelivery,
    prepared: Prepared,
) -> AttemptOutcome {
    let started = Instant::now();
    let (status_code, error) = match prepared {
        Prepared::Skip(reason) => {
            return AttemptOutcome {
                response_status: None,
                error: Some(reason),
                duration_ms: 0,
                status: "skipped",
                next_attempt_at: deps.clock.now(),
            };
        }
        Prepared::Send { secret: None, .. } => (
            None,
            Some(
                "the endpoint's signing secret does not open under this server's sealing key"
                    .into(),
            ),
        ),
        Prepared::Send {
            url,
            secret: Some(secret),
            message_id,
            payload,
        } => send(deps, &url, &secret, &message_id, payload).await,
    };
    let now = deps.clock.now();
    let delivered = status_code.is_some_and(|s| (200..300).contains(&s));
    let retry_in = usize::try_from(delivery.attempt - 1)
        .ok()
        .and_then(|n| RETRY_DELAYS_S.get(n));
    let (status, next_attempt_at) = match (delivered, retry_in) {
        (true, _) => ("delivered", now),
        (false, Some(delay)) => ("pending", now + delay),
        (false, None) => ("failed", now),
    };
    if !delivered {
        tracing::info!(delivery = %delivery.id, attempt = delivery.attempt, status, error = error.as_deref().unwrap_or(""), "webhook not delivered");
    }
    AttemptOutcome {
        response_status: status_code,
        error,
        duration_ms: i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX),
        status,
        next_attempt_at,
    }
}

/// What each claimed delivery sends: its event's payload (rendered now, for all events sent
/// the first time, and fixed in one transaction), its endpoint's URL and opened secret.
async fn prepare(
    deps: &WebhookDeps,
    claimed: &[ClaimedDelivery],
) -> Result<Vec<Prepared>, DbError> {
    let mut events = HashMap::new();
    let mut rendered = Vec::new();
    for delivery in claimed {
        if events.contains_key(&delivery.event_id) {
            continue;
        }
        let event = deps.db.webhook_event(&delivery.event_id).await?;
        if let Some(event) = &event
            && event.payload.is_none()
            && let Some(payload) = render(
                deps,
                &event.app_id,
                &event.event_type,
                &event.user_id,
                &event.body,
            )
            .await?
        {
            rendered.push((event.id.clone(), payload));
        }
        events.insert(delivery.event_id.clone(), event);
    }
    // Another worker may have fixed some first: every delivery sends what is stored.
    let fixed = deps.db.fix_webhook_payloads(&rendered).await?;
    let mut prepared = Vec::with_capacity(claimed.len());
    for delivery in claimed {
        let Some(Some(event)) = events.get(&delivery.event_id) else {
            prepared.push(Prepared::Skip("the event is gone".into()));
            continue;
        };
        let Some(payload) = event
            .payload
            .clone()
            .or_else(|| fixed.get(&event.id).cloned())
        else {
            prepared.push(Prepared::Skip(
                "the user was deleted before this event was first sent (user.deleted reports them)"
                    .into(),
            ));
            continue;
        };
        let Some(endpoint) = deps.db.webhook_endpoint(&delivery.endpoint_id).await? else {
            prepared.push(Prepared::Skip("the endpoint was deleted".into()));
            continue;
        };
        let secret = deps
            .app_secrets
            .try_open(
                &endpoint.app_id,
                &secret_field(&endpoint.id),
                &SealedSecret::from(endpoint.secret),
            )
            .ok();
        prepared.push(Prepared::Send {
            url: endpoint.url,
            secret,
            message_id: event.id.clone(),
            payload,
        });
    }
    Ok(prepared)
}

/// The event's payload: `type`, what the change recorded, and the user as they are now in the
/// field the kind names; `None` when that user is gone.
async fn render(
    deps: &WebhookDeps,
    app_id: &str,
    event_type: &str,
    user_id: &str,
    body: &str,
) -> Result<Option<String>, DbError> {
    let mut payload = match serde_json::from_str::<Value>(body) {
        Ok(Value::Object(fields)) => fields,
        _ => return Err(DbError::corrupt("webhook event body is not a JSON object")),
    };
    payload.insert("type".into(), Value::String(event_type.to_string()));
    if let Some(field) = WebhookEventType::parse(event_type).and_then(WebhookEventType::user_field)
    {
        let Some(user) = deps.db.find_user(app_id, user_id).await? else {
            return Ok(None);
        };
        let view = user_view(&deps.db, &user)
            .await
            .map_err(|e| DbError::corrupt(format!("{e:?}")))?;
        payload.insert(
            field.into(),
            serde_json::to_value(view).map_err(DbError::corrupt)?,
        );
    }
    Ok(Some(Value::Object(payload).to_string()))
}

/// POSTs `payload` signed for the endpoint: the answer's status, and what went wrong if it was
/// not a success.
async fn send(
    deps: &WebhookDeps,
    url: &str,
    secret: &str,
    message_id: &str,
    payload: String,
) -> (Option<u16>, Option<String>) {
    let timestamp = deps.clock.now();
    let Some(signature) = sign(secret, message_id, timestamp, &payload) else {
        return (
            None,
            Some("the endpoint's signing secret is malformed".into()),
        );
    };
    let answer = deps
        .outbound
        .post(url)
        .header("content-type", "application/json")
        .header("svix-id", message_id)
        .header("svix-timestamp", timestamp.to_string())
        .header("svix-signature", signature)
        .body(payload)
        .send()
        .await;
    match answer {
        Ok(response) if response.status().is_success() => (Some(response.status().as_u16()), None),
        Ok(response) => {
            let status = response.status().as_u16();
            let text = response.text().await.unwrap_or_default();
            let kept: String = text.chars().take(ANSWER_KEPT).collect();
            (Some(status), Some(format!("HTTP {status}: {kept}")))
        }
        Err(error) => (None, Some(error.without_url().to_string())),
    }
}
