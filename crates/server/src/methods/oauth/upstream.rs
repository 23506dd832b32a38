//! Talking to the provider: the authorization URL and the code exchange through the `oauth2`
//! crate (over our own outbound reqwest client: timeouts, no redirects, capped bodies), and the
//! user-info call of plain OAuth 2.0 providers.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use axum::http::{HeaderValue, header};
use oauth2::basic::{
    BasicErrorResponse, BasicRevocationErrorResponse, BasicTokenIntrospectionResponse,
    BasicTokenType,
};
use oauth2::{
    AsyncHttpClient, AuthType, AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken,
    EndpointNotSet, EndpointSet, ExtraTokenFields, HttpRequest, HttpResponse, PkceCodeChallenge,
    PkceCodeVerifier, RedirectUrl, RequestTokenError, Scope, StandardRevocableToken,
    StandardTokenResponse, TokenResponse, TokenUrl,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use symbolon_protocol::session::OAuthTokens;

use crate::app_settings::oauth_providers::{ClientAuth, Provider};
use crate::outbound_http::{OutboundHttpError, read_capped};

/// Largest token or user-info answer read.
pub const MAX_UPSTREAM_BYTES: usize = 64 * 1024;

/// Token-endpoint fields beyond RFC 6749's: the OpenID ID token, and the refresh token's
/// lifetime some providers give.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct ExtraFields {
    /// OpenID Connect ID token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id_token: Option<String>,
    /// Seconds the refresh token lives.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh_token_expires_in: Option<i64>,
}

impl ExtraTokenFields for ExtraFields {}

type TokenAnswer = StandardTokenResponse<ExtraFields, BasicTokenType>;

type OAuthClient = oauth2::Client<
    BasicErrorResponse,
    TokenAnswer,
    BasicTokenIntrospectionResponse,
    StandardRevocableToken,
    BasicRevocationErrorResponse,
    EndpointSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointSet,
>;

/// Why the provider did not give us the user.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum UpstreamError {
    /// The provider says the account is suspended (`oauth_account_suspended`).
    #[error("the provider account is suspended")]
    Suspended,
    /// The provider refused the code or the token (bad, expired or already used code).
    #[error("the provider refused: {0}")]
    Refused(String),
    /// The provider could not be reached, timed out, or answered nonsense.
    #[error("the provider is unavailable: {0}")]
    Unavailable(String),
    /// Our settings for the provider are unusable (an endpoint that is not a URL).
    #[error("the provider is misconfigured: {0}")]
    Misconfigured(String),
}

/// What the code exchange gave.
#[derive(Debug, Clone)]
pub struct Exchanged {
    /// The provider's tokens, in the session response's form.
    pub tokens: OAuthTokens,
    /// The ID token, for OpenID providers.
    pub id_token: Option<String>,
}

/// The `oauth2` client; `client_secret` (opened) only where the code is exchanged.
fn client(
    provider: &Provider,
    client_secret: &str,
    redirect_uri: &str,
) -> Result<OAuthClient, UpstreamError> {
    let bad = |what: &str| UpstreamError::Misconfigured(format!("{what} is not a URL"));
    let mut client = oauth2::Client::new(ClientId::new(provider.client_id.clone()))
        .set_auth_uri(
            AuthUrl::new(provider.authorize_url.clone()).map_err(|_| bad("authorize_url"))?,
        )
        .set_token_uri(TokenUrl::new(provider.token_url.clone()).map_err(|_| bad("token_url"))?)
        .set_redirect_uri(
            RedirectUrl::new(redirect_uri.to_string()).map_err(|_| bad("public_url"))?,
        )
        .set_auth_type(match provider.client_auth {
            ClientAuth::Basic => AuthType::BasicAuth,
            ClientAuth::Body => AuthType::RequestBody,
        });
    if !client_secret.is_empty() {
        client = client.set_client_secret(ClientSecret::new(client_secret.to_string()));
    }
    Ok(client)
}

/// The provider's authorization page for one flow: our `state`, the S256 challenge of our
/// `verifier`, the OpenID `nonce`, the scopes, and our callback as `redirect_uri`.
pub fn authorize_url(
    provider: &Provider,
    redirect_uri: &str,
    state: &str,
    verifier: &str,
    nonce: Option<&str>,
) -> Result<String, UpstreamError> {
    let client = client(provider, "", redirect_uri)?;
    let challenge =
        PkceCodeChallenge::from_code_verifier_sha256(&PkceCodeVerifier::new(verifier.into()));
    let state = state.to_string();
    let mut request = client
        .authorize_url(move || CsrfToken::new(state))
        .add_scopes(provider.scopes.iter().cloned().map(Scope::new))
        .set_pkce_challenge(challenge);
    if let Some(nonce) = nonce {
        request = request.add_extra_param("nonce", nonce.to_string());
    }
    if let Some(param) = provider.client_id_param {
        request = request.add_extra_param(param, provider.client_id.clone());
    }
    if provider.form_post {
        // Apple sends name and email only with a POSTed answer.
        request = request.add_extra_param("response_mode", "form_post");
    }
    Ok(request.url().0.to_string())
}

/// Exchanges the authorization `code` (with our PKCE `verifier`) for the provider's tokens.
pub fn exchange<'a>(
    http: &'a reqwest::Client,
    provider: &'a Provider,
    client_secret: &'a str,
    redirect_uri: &'a str,
    code: &'a str,
    verifier: &'a str,
) -> Pin<Box<dyn Future<Output = Result<Exchanged, UpstreamError>> + Send + 'a>> {
    // Boxed here, where the lifetimes are concrete: the `oauth2` future's `Send` is otherwise
    // not provable for every lifetime the axum handler needs.
    Box::pin(exchange_inner(
        http,
        provider,
        client_secret,
        redirect_uri,
        code,
        verifier,
    ))
}

async fn exchange_inner(
    http: &reqwest::Client,
    provider: &Provider,
    client_secret: &str,
    redirect_uri: &str,
    code: &str,
    verifier: &str,
) -> Result<Exchanged, UpstreamError> {
    let client = client(provider, client_secret, redirect_uri)?;
    let mut request = client
        .exchange_code(AuthorizationCode::new(code.to_string()))
        .set_pkce_verifier(PkceCodeVerifier::new(verifier.to_string()));
    if let Some(param) = provider.client_id_param {
        request = request.add_extra_param(param, provider.client_id.clone());
    }
    let answer = request
        .request_async(&Upstream(http.clone()))
        .await
        .map_err(|error| match error {
            RequestTokenError::ServerResponse(refusal) => {
                let text = format!(
                    "{} {}",
                    refusal.error().as_ref(),
                    refusal
                        .error_description()
                        .map(String::as_str)
                        .unwrap_or_default()
                );
                if says_suspended(&text) {
                    UpstreamError::Suspended
                } else {
                    UpstreamError::Refused(refusal.error().as_ref().to_string())
                }
            }
            RequestTokenError::Request(error) => UpstreamError::Unavailable(error.to_string()),
            RequestTokenError::Parse(_, body) => {
                if says_suspended(&String::from_utf8_lossy(&body)) {
                    UpstreamError::Suspended
                } else {
                    UpstreamError::Unavailable(
                        "the token answer is not an OAuth token response".into(),
                    )
                }
            }
            RequestTokenError::Other(what) => UpstreamError::Unavailable(what),
        })?;
    let seconds = |d: Duration| i64::try_from(d.as_secs()).ok();
    Ok(Exchanged {
        tokens: OAuthTokens {
            provider: provider.name.clone(),
            access_token: answer.access_token().secret().clone(),
            access_token_expires_in_seconds: answer.expires_in().and_then(seconds),
            refresh_token: answer.refresh_token().map(|t| t.secret().clone()),
            refresh_token_expires_in_seconds: answer.extra_fields().refresh_token_expires_in,
            scopes: answer
                .scopes()
                .map(|scopes| scopes.iter().map(|s| s.to_string()).collect()),
        },
        id_token: answer.extra_fields().id_token.clone(),
    })
}

/// The user-info JSON, read with the access token.
pub async fn user_info(
    http: &reqwest::Client,
    url: &str,
    access_token: &str,
) -> Result<Value, UpstreamError> {
    let response = http
        .get(url)
        .bearer_auth(access_token)
        .header(header::ACCEPT, "application/json")
        .send()
        .await
        .map_err(|e| UpstreamError::Unavailable(format!("user info: {}", e.without_url())))?;
    let status = response.status();
    let body = read_capped(response, MAX_UPSTREAM_BYTES)
        .await
        .map_err(|e| UpstreamError::Unavailable(format!("user info: {e}")))?;
    if !status.is_success() {
        let text = String::from_utf8_lossy(&body);
        return Err(if says_suspended(&text) {
            UpstreamError::Suspended
        } else if status.is_client_error() {
            UpstreamError::Refused(format!("user info answered HTTP {}", status.as_u16()))
        } else {
            UpstreamError::Unavailable(format!("user info answered HTTP {}", status.as_u16()))
        });
    }
    serde_json::from_slice(&body)
        .map_err(|_| UpstreamError::Unavailable("user info is not JSON".into()))
}

/// Providers say "suspended" in their refusals (Twitter's `detail`, GitHub's `message`, our
/// stand-ins' `error_description`): the one signal they share.
fn says_suspended(text: &str) -> bool {
    text.to_ascii_lowercase().contains("suspended")
}

/// The `oauth2` crate's HTTP client: ours, with a `Send` future (axum handlers must be `Send`).
struct Upstream(reqwest::Client);

type SendFuture<'c> =
    Pin<Box<dyn Future<Output = Result<HttpResponse, OutboundHttpError>> + Send + 'c>>;

impl<'c> AsyncHttpClient<'c> for Upstream {
    type Error = OutboundHttpError;
    type Future = SendFuture<'c>;

    fn call(&'c self, request: HttpRequest) -> Self::Future {
        Box::pin(send(&self.0, request))
    }
}

/// One request of the `oauth2` crate, sent with our client (timeouts, no redirects) and read
/// up to [`MAX_UPSTREAM_BYTES`].
async fn send(
    http: &reqwest::Client,
    request: HttpRequest,
) -> Result<HttpResponse, OutboundHttpError> {
    let (parts, body) = request.into_parts();
    let response = http
        .request(parts.method, parts.uri.to_string())
        .headers(parts.headers)
        .body(body)
        .send()
        .await
        .map_err(|e| OutboundHttpError::Transport(e.without_url().to_string()))?;
    let status = response.status();
    let content_type = response.headers().get(header::CONTENT_TYPE).cloned();
    let body = read_capped(response, MAX_UPSTREAM_BYTES).await?;
    let mut answer = HttpResponse::new(body);
    *answer.status_mut() = status;
    answer.headers_mut().insert(
        header::CONTENT_TYPE,
        content_type.unwrap_or(HeaderValue::from_static("application/json")),
    );
    Ok(answer)
}
