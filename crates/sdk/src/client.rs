//! The client: options, authenticated requests and retries.

use std::sync::Arc;
use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde::Serialize;
use serde::de::DeserializeOwned;
use symbolon_protocol::ErrorResponse;

use crate::error::{Error, ErrorCode, Result};
use crate::tokens::KeyCache;
use crate::users::Users;

/// The tokens' issuer a server uses unless configured otherwise.
pub const DEFAULT_ISSUER: &str = "privy.io";
/// How a call retries a `429`, a `503` or a connection error (a `POST` only with an idempotency
/// key): up to `max_retries` more tries, waiting the answer's `Retry-After` (at most
/// `max_retry_after`) or else `base_backoff` times the try's number, doubled each time when
/// `exponential`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RetryPolicy {
    max_retries: u32,
    max_retry_after: Duration,
    base_backoff: Duration,
    exponential: bool,
}

impl RetryPolicy {
    /// One call of an app: two quick retries, then the error.
    pub(crate) const CALL: Self = Self {
        max_retries: 2,
        max_retry_after: Duration::from_secs(5),
        base_backoff: Duration::from_millis(250),
        exponential: false,
    };

    /// A bulk job (an import): it waits out rate limits (the hosted product allows 240 user
    /// creations a minute) rather than fail: 8 retries, `Retry-After` up to a minute, else 1 s
    /// doubling.
    pub(crate) const BULK: Self = Self {
        max_retries: 8,
        max_retry_after: Duration::from_secs(60),
        base_backoff: Duration::from_secs(1),
        exponential: true,
    };

    fn backoff(&self, attempt: u32) -> Duration {
        if self.exponential {
            self.base_backoff * 2u32.saturating_pow(attempt.saturating_sub(1))
        } else {
            self.base_backoff * attempt
        }
    }
}

/// How to reach the server.
#[derive(Debug, Clone)]
pub struct ClientOptions {
    /// The server's public origin, without `/v1` (a trailing slash is ignored).
    pub api_url: String,
    /// The app's id.
    pub app_id: String,
    /// An app secret (`symbolon apps secret create`).
    pub app_secret: String,
    /// The tokens' expected `iss` (default [`DEFAULT_ISSUER`]).
    pub issuer: String,
    /// Timeout of each HTTP request.
    pub timeout: Duration,
}

impl ClientOptions {
    /// Options with the default issuer and a 10 s timeout.
    pub fn new(
        api_url: impl Into<String>,
        app_id: impl Into<String>,
        app_secret: impl Into<String>,
    ) -> Self {
        Self {
            api_url: api_url.into(),
            app_id: app_id.into(),
            app_secret: app_secret.into(),
            issuer: DEFAULT_ISSUER.into(),
            timeout: Duration::from_secs(10),
        }
    }
}

pub(crate) struct Inner {
    pub(crate) http: reqwest::Client,
    pub(crate) base: String,
    pub(crate) app_id: String,
    app_secret: String,
    pub(crate) issuer: String,
    pub(crate) keys: KeyCache,
}

/// A client of one app; cheap to clone (shares its connection pool and key cache).
#[derive(Clone)]
pub struct Client {
    pub(crate) inner: Arc<Inner>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("api_url", &self.inner.base)
            .field("app_id", &self.inner.app_id)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// A client for `options`. Installs ring as the process's rustls provider if none is.
    pub fn new(options: ClientOptions) -> Result<Self> {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let base = options.api_url.trim_end_matches('/').to_string();
        if !(base.starts_with("https://") || base.starts_with("http://")) {
            return Err(Error::Config("api_url must be an http(s) URL".into()));
        }
        let http = reqwest::Client::builder()
            .timeout(options.timeout)
            .build()
            .map_err(|e| Error::Config(e.to_string()))?;
        Ok(Self {
            inner: Arc::new(Inner {
                http,
                base,
                app_id: options.app_id,
                app_secret: options.app_secret,
                issuer: options.issuer,
                keys: KeyCache::default(),
            }),
        })
    }

    /// The users API.
    pub fn users(&self) -> Users<'_> {
        Users { client: self }
    }

    /// The app id.
    pub fn app_id(&self) -> &str {
        &self.inner.app_id
    }

    /// Sends an authenticated `/v1` call and parses the JSON answer (`None` for `204`). `GET`
    /// and `DELETE` are retried on 429/503 and connection errors; a `POST` only with an
    /// idempotency key.
    pub(crate) async fn call<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        body: Option<&B>,
        idempotency_key: Option<&str>,
    ) -> Result<Option<T>> {
        self.call_with(RetryPolicy::CALL, method, path, body, idempotency_key)
            .await
    }

    /// [`Self::call`] with another retry policy.
    pub(crate) async fn call_with<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        policy: RetryPolicy,
        method: Method,
        path: &str,
        body: Option<&B>,
        idempotency_key: Option<&str>,
    ) -> Result<Option<T>> {
        let retriable = method != Method::POST || idempotency_key.is_some();
        let url = format!("{}{}", self.inner.base, path);
        let mut attempt = 0;
        loop {
            let mut request = self
                .inner
                .http
                .request(method.clone(), &url)
                .basic_auth(&self.inner.app_id, Some(&self.inner.app_secret))
                .header("privy-app-id", &self.inner.app_id);
            if let Some(key) = idempotency_key {
                request = request.header("privy-idempotency-key", key);
            }
            if let Some(body) = body {
                request = request.json(body);
            }
            let response = match request.send().await {
                Ok(response) => response,
                Err(error) => {
                    if retriable
                        && attempt < policy.max_retries
                        && (error.is_connect() || error.is_timeout())
                    {
                        attempt += 1;
                        tokio::time::sleep(policy.backoff(attempt)).await;
                        continue;
                    }
                    return Err(Error::Transport(error.without_url().to_string()));
                }
            };
            let status = response.status();
            if retriable
                && attempt < policy.max_retries
                && matches!(
                    status,
                    StatusCode::TOO_MANY_REQUESTS | StatusCode::SERVICE_UNAVAILABLE
                )
            {
                attempt += 1;
                let wait = retry_after(response.headers(), policy.max_retry_after)
                    .unwrap_or_else(|| policy.backoff(attempt));
                tokio::time::sleep(wait).await;
                continue;
            }
            let bytes = response
                .bytes()
                .await
                .map_err(|e| Error::Transport(e.without_url().to_string()))?;
            if !status.is_success() {
                return Err(api_error(status.as_u16(), &bytes));
            }
            if status == StatusCode::NO_CONTENT {
                return Ok(None);
            }
            return serde_json::from_slice(&bytes)
                .map(Some)
                .map_err(|e| Error::Transport(format!("unexpected answer: {e}")));
        }
    }
}

/// `Retry-After` in seconds, capped at `max`.
fn retry_after(headers: &reqwest::header::HeaderMap, max: Duration) -> Option<Duration> {
    let seconds: u64 = headers
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()?;
    Some(Duration::from_secs(seconds).min(max))
}

/// The error of a non-success answer: `{error, code}` when it parses.
fn api_error(status: u16, bytes: &[u8]) -> Error {
    #[derive(serde::Deserialize)]
    struct Loose {
        error: String,
        code: String,
    }
    if let Ok(body) = serde_json::from_slice::<ErrorResponse>(bytes) {
        return Error::Api {
            status,
            code: ErrorCode::Known(body.code),
            message: body.error,
        };
    }
    match serde_json::from_slice::<Loose>(bytes) {
        Ok(body) => Error::Api {
            status,
            code: ErrorCode::parse(&body.code),
            message: body.error,
        },
        Err(_) => Error::Api {
            status,
            code: ErrorCode::Other(String::new()),
            message: String::from_utf8_lossy(bytes).chars().take(200).collect(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bulk_backoff_doubles_and_calls_grow_linearly() {
        assert_eq!(RetryPolicy::BULK.backoff(1), Duration::from_secs(1));
        assert_eq!(RetryPolicy::BULK.backoff(4), Duration::from_secs(8));
        assert_eq!(RetryPolicy::CALL.backoff(2), Duration::from_millis(500));
    }

    #[test]
    fn retry_after_is_capped_and_only_seconds() {
        let mut headers = reqwest::header::HeaderMap::new();
        headers.insert(
            reqwest::header::RETRY_AFTER,
            "2".parse().unwrap_or_else(|_| unreachable!()),
        );
        assert_eq!(
            retry_after(&headers, RetryPolicy::CALL.max_retry_after),
            Some(Duration::from_secs(2))
        );
        headers.insert(
            reqwest::header::RETRY_AFTER,
            "3600".parse().unwrap_or_else(|_| unreachable!()),
        );
        assert_eq!(
            retry_after(&headers, RetryPolicy::CALL.max_retry_after),
            Some(Duration::from_secs(5))
        );
        assert_eq!(
            retry_after(&headers, RetryPolicy::BULK.max_retry_after),
            Some(Duration::from_secs(60))
        );
        headers.insert(
            reqwest::header::RETRY_AFTER,
            "soon".parse().unwrap_or_else(|_| unreachable!()),
        );
        assert_eq!(
            retry_after(&headers, RetryPolicy::CALL.max_retry_after),
            None
        );
    }

    #[test]
    fn error_bodies_parse_known_and_unknown_codes() {
        let known = api_error(404, br#"{"error":"User not found","code":"not_found"}"#);
        assert!(known.is_not_found());
        let other = api_error(400, br#"{"error":"x","code":"from_the_future"}"#);
        assert_eq!(
            other.code(),
            Some(&ErrorCode::Other("from_the_future".into()))
        );
        let plain = api_error(502, b"bad gateway");
        assert!(matches!(plain, Error::Api { status: 502, .. }));
    }
}
