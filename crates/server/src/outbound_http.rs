//! Outbound HTTP for the adapters that call third parties (the SMS gateway, custom-auth JWKS):
//! one client shape — rustls with ring, short timeouts, no redirects — a capped body read, and
//! which URLs may be called.

use std::time::Duration;

/// How long connecting (TCP and TLS) to a third party may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long one whole request to a third party may take.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// Why an outbound call failed. Messages name no secrets and no URLs' query strings.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OutboundHttpError {
    /// The HTTP client could not be built (TLS set-up).
    #[error("cannot build the HTTP client: {0}")]
    Build(String),
    /// Connecting, sending or reading failed, or timed out.
    #[error("request failed: {0}")]
    Transport(String),
    /// The response body is larger than the caller allows.
    #[error("response body over {0} bytes")]
    TooLarge(usize),
}

/// Whether a third party's URL may be called: `https://`, or `http://` to a loopback host (a
/// stand-in in development and tests).
pub fn is_https_or_loopback(url: &url::Url) -> bool {
    let loopback = match url.host() {
        Some(url::Host::Domain(host)) => host == "localhost",
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    };
    match url.scheme() {
        "https" => true,
        "http" => loopback,
        _ => false,
    }
}

/// Installs ring as the process's rustls crypto provider. Idempotent: a provider that is already
/// installed (by us or anyone else) is kept.
pub fn install_tls_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// A client for third-party APIs: connect timeout 5 s, whole request 10 s, redirects refused
/// (a redirect from a gateway or JWKS host is not followed anywhere).
pub fn outbound_client() -> Result<reqwest::Client, OutboundHttpError> {
    install_tls_provider();
    reqwest::Client::builder()
        .connect_timeout(CONNECT_TIMEOUT)
        .timeout(REQUEST_TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("symbolon/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|error| OutboundHttpError::Build(error.to_string()))
}

/// Reads `response`'s body, refusing (without reading further) once it passes `max` bytes.
pub async fn read_capped(
    mut response: reqwest::Response,
    max: usize,
) -> Result<Vec<u8>, OutboundHttpError> {
    if response
        .content_length()
        .is_some_and(|length| length > max as u64)
    {
        return Err(OutboundHttpError::TooLarge(max));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|error| OutboundHttpError::Transport(error.without_url().to_string()))?
    {
        if body.len() + chunk.len() > max {
            return Err(OutboundHttpError::TooLarge(max));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}
