//! The HTTP/1.1 serve loop: a cap on open connections, header/idle, body and whole-request
//! timeouts, and graceful shutdown.
//!
//! - **Connections**: a semaphore permit is taken before each `accept`; with `max_connections`
//!   open, new connections wait in the kernel's listen backlog until one closes.
//! - **Headers and idle keep-alive**: hyper closes a connection whose request head is not complete
//!   `header_timeout_s` after it started waiting for one, which also ends idle keep-alive
//!   connections (no response is possible: there is no request yet).
//! - **Body**: a request body not fully received `body_timeout_s` after the request arrived is
//!   answered `408` `invalid_data`; hyper then closes the connection (the body was not drained).
//! - **Whole request**: a request not answered within `request_timeout_s` gets `503`
//!   `internal_error` (clients retry 503).
//!
//! Every one of these answers has the JSON error body (wire notes). HTTP/2 is not served: browsers
//! use it only over TLS, which a reverse proxy terminates, and plain-text HTTP/2 would need its own
//! stream and keep-alive limits.

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{Request, State};
use axum::http::HeaderMap;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use http_body::{Frame, SizeHint};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use symbolon_protocol::ServerErrorCode;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio::time::Sleep;
use tower::Service;

use crate::clock::Clock;
use crate::config::HttpConfig;
use crate::db::Db;
use crate::error::{AppError, Status};

/// How long open connections may finish their requests after a shutdown signal.
const DRAIN: Duration = Duration::from_secs(10);

/// After `accept` fails (e.g. out of file descriptors), wait this long before the next try.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// Body and whole-request deadlines, applied by [`with_timeouts`].
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    /// The whole body must have arrived this long after the request did.
    pub body: Duration,
    /// The answer must be ready this long after the request arrived.
    pub request: Duration,
}

impl Timeouts {
    /// The deadlines of `config`.
    pub fn from_config(config: &HttpConfig) -> Self {
        Self {
            body: Duration::from_secs(config.body_timeout_s),
            request: Duration::from_secs(config.request_timeout_s),
        }
    }
}

/// Wraps `router` in the body and whole-request deadlines ([`crate::app`] applies them to every
/// route, inside the CORS layer).
pub fn with_timeouts<S: Clone + Send + Sync + 'static>(
    router: Router<S>,
    timeouts: Timeouts,
) -> Router<S> {
    router.layer(middleware::from_fn_with_state(timeouts, enforce_timeouts))
}

async fn enforce_timeouts(
    State(timeouts): State<Timeouts>,
    request: Request,
    next: Next,
) -> Response {
    let expired = Arc::new(AtomicBool::new(false));
    let request = request.map(|body| {
        Body::new(DeadlineBody {
            inner: body,
            deadline: Box::pin(tokio::time::sleep(timeouts.body)),
            expired: Arc::clone(&expired),
        })
    });
    match tokio::time::timeout(timeouts.request, next.run(request)).await {
        Ok(response) if expired.load(Ordering::Relaxed) => {
            // The handler answered the failed body read; say what happened instead, keeping the
            // CORS headers so a browser can read the answer.
            let mut timeout = AppError::invalid_data("Request body not received in time")
                .with_status(Status::RequestTimeout)
                .into_response();
            copy_cors_headers(response.headers(), timeout.headers_mut());
            timeout
        }
        Ok(response) => response,
        Err(_) => {
            tracing::warn!(timeout_s = timeouts.request.as_secs(), "request timed out");
            AppError::new(ServerErrorCode::InternalError, "Request timed out")
                .with_status(Status::ServiceUnavailable)
                .into_response()
        }
    }
}

fn copy_cors_headers(from: &HeaderMap, to: &mut HeaderMap) {
    for (name, value) in from {
        if name.as_str().starts_with("access-control-") || name == "vary" {
            to.append(name.clone(), value.clone());
        }
    }
}

/// A request body that fails once its deadline passes before the last frame arrived.
struct DeadlineBody {
    inner: Body,
    deadline: Pin<Box<Sleep>>,
    expired: Arc<AtomicBool>,
}

/// The request body did not arrive in time.
#[derive(Debug, thiserror::Error)]
#[error("request body not received in time")]
struct BodyTimeout;

impl HttpBody for DeadlineBody {
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => {
                self.expired.store(true, Ordering::Relaxed);
                Poll::Ready(Some(Err(BodyTimeout.into())))
            }
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// How often the expiry sweeper runs.
pub const SWEEP_INTERVAL: Duration = Duration::from_secs(60);

/// Starts the expiry sweeper: every [`SWEEP_INTERVAL`] it deletes the expired rows of the
/// challenge store and the other expiring tables ([`Db::sweep_expired`]). Only space depends on
/// it: every take and read checks expiry itself, so a late or failed sweep changes no answer.
/// Several instances over one database may each run one (a delete of expired rows is idempotent).
pub fn spawn_expiry_sweeper(db: Db, clock: Clock) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(SWEEP_INTERVAL);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            match db.sweep_expired(clock.now()).await {
                Ok(deleted) => tracing::debug!(deleted, "expired rows swept"),
                Err(error) => tracing::warn!(%error, "expiry sweep failed; retrying next interval"),
            }
        }
    })
}

/// Serves `router` on `listener` until `shutdown` completes, then lets open connections finish
/// (up to a bound) and returns.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    config: &HttpConfig,
    shutdown: impl Future<Output = ()>,
) {
    let mut make_service = router.into_make_service_with_connect_info::<SocketAddr>();
    let permits = Arc::new(Semaphore::new(config.max_connections));
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(Duration::from_secs(config.header_timeout_s))
        .keep_alive(true);
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            permit = Arc::clone(&permits).acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
            () = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    tracing::warn!(%error, "accept failed");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, "cannot set TCP_NODELAY");
        }
        let Ok(service) = make_service.call(peer).await;
        let connection =
            http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, %peer, "connection ended with an error");
            }
            drop(permit);
        });
    }
    drop(listener);
    if tokio::time::timeout(DRAIN, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("connections still open after the shutdown grace period; closing them");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;
    use axum::routing::{get, post};
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    /// A body whose bytes never come.
    struct Stalled;

    impl HttpBody for Stalled {
        type Data = Bytes;
        type Error = std::io::Error;

        fn poll_frame(
            self: Pin<&mut Self>,
            _cx: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
            Poll::Pending
        }
    }

    fn router() -> Router {
        let app = Router::new()
            .route(
                "/slow",
                get(|| async {
                    tokio::time::sleep(Duration::from_secs(3_600)).await;
                    "late"
                }),
            )
            .route("/echo", post(|body: String| async move { body }));
        with_timeouts(
            app,
            Timeouts {
                body: Duration::from_millis(200),
                request: Duration::from_millis(400),
            },
        )
    }

    async fn json(response: Response) -> (StatusCode, serde_json::Value) {
        let status = response.status();
        let bytes = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes();
        (status, serde_json::from_slice(&bytes).unwrap_or_default())
    }

    #[tokio::test]
    async fn a_stalled_body_is_answered_408_with_the_json_error() {
        let request = Request::post("/echo")
            .body(Body::new(Stalled))
            .expect("request");
        let response = router().oneshot(request).await.expect("infallible");
        let (status, body) = json(response).await;
        assert_eq!(status, StatusCode::REQUEST_TIMEOUT);
        assert_eq!(body["code"], "invalid_data");
        assert!(body["error"].is_string());
        // A body that does arrive is untouched.
        let request = Request::post("/echo")
            .body(Body::from("hello"))
            .expect("request");
        let response = router().oneshot(request).await.expect("infallible");
        assert_eq!(response.status(), StatusCode::OK);
    }

    #[tokio::test]
    async fn a_request_over_the_deadline_is_answered_503_with_the_json_error() {
        let request = Request::get("/slow").body(Body::empty()).expect("request");
        let response = router().oneshot(request).await.expect("infallible");
        let (status, body) = json(response).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(body["code"], "internal_error");
    }
}
