//! The main server's side of the signer (`symbolon signer`, docs/delegation.md): JSON over HTTP to
//! the configured `signer_url`. The server forwards sealed consents and signed requests; it cannot
//! open the one or forge the other. A refusal comes back with its spec code and is answered as is.

use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::errors::ErrorResponse;
use symbolon_signer::wire::{
    CONSENTS_PATH, PUBLIC_KEY_PATH, PublicKeyResponse, REVOKE_PATH, RegisteredConsent,
    RevokeConsents, SIGN_PATH, SealedConsent, SignRequest, SignResponse,
};
use tokio::sync::OnceCell;

use crate::error::AppError;

/// The refusal when no signer is configured.
pub const NO_SIGNER: &str = "Delegated actions are not enabled on this server (it runs without a signer: set SYMBOLON_SIGNER_URL)";
/// The refusal when the signer does not answer.
pub const SIGNER_DOWN: &str = "The signer did not answer; try again";

/// A client of the signer.
#[derive(Clone)]
pub struct SignerClient {
    base: String,
    http: reqwest::Client,
    public_key: std::sync::Arc<OnceCell<String>>,
}

impl SignerClient {
    /// A client of the signer at `base` (`http://127.0.0.1:8790`).
    pub fn new(base: &str) -> Result<Self, reqwest::Error> {
        crate::outbound_http::install_tls_provider();
        Ok(Self {
            base: base.trim_end_matches('/').to_string(),
            http: reqwest::Client::builder()
                .connect_timeout(Duration::from_secs(2))
                .timeout(Duration::from_secs(10))
                .build()?,
            public_key: std::sync::Arc::default(),
        })
    }

    /// Where it is.
    pub fn base(&self) -> &str {
        &self.base
    }

    async fn call<B: Serialize, T: DeserializeOwned>(
        &self,
        path: &str,
        body: Option<&B>,
    ) -> Result<T, AppError> {
        let url = format!("{}{path}", self.base);
        let request = match body {
            Some(body) => self.http.post(url).json(body),
            None => self.http.get(url),
        };
        let response = request.send().await.map_err(|e| {
            tracing::warn!(error = %e.without_url(), "signer unreachable");
            AppError::new(ServerErrorCode::InternalError, SIGNER_DOWN)
        })?;
        let status = response.status();
        let bytes = response.bytes().await.map_err(|e| {
            tracing::warn!(error = %e.without_url(), "signer answer cut");
            AppError::new(ServerErrorCode::InternalError, SIGNER_DOWN)
        })?;
        if status.is_success() {
            return serde_json::from_slice(&bytes).map_err(|e| AppError::internal(&e));
        }
        match serde_json::from_slice::<ErrorResponse>(&bytes) {
            Ok(refusal) => Err(AppError::new(refusal.code, refusal.error)),
            Err(e) => Err(AppError::internal(&e)),
        }
    }

    /// The signer's HPKE public key (asked once).
    pub async fn public_key(&self) -> Result<String, AppError> {
        self.public_key
            .get_or_try_init(|| async {
                let answer: PublicKeyResponse = self.call::<(), _>(PUBLIC_KEY_PATH, None).await?;
                Ok(answer.public_key)
            })
            .await
            .cloned()
    }

    /// Opens and registers a consent.
    pub async fn register(&self, sealed: &SealedConsent) -> Result<RegisteredConsent, AppError> {
        self.call(CONSENTS_PATH, Some(sealed)).await
    }

    /// Refuses these consents from now on.
    pub async fn revoke(&self, consent_ids: Vec<String>) -> Result<(), AppError> {
        let _: serde_json::Value = self
            .call(REVOKE_PATH, Some(&RevokeConsents { consent_ids }))
            .await?;
        Ok(())
    }

    /// Signs a wallet-API request.
    pub async fn sign(&self, request: &SignRequest) -> Result<SignResponse, AppError> {
        self.call(SIGN_PATH, Some(request)).await
    }
}

/// The configured signer, or the refusal that delegated actions are off.
pub fn require(signer: &Option<SignerClient>) -> Result<&SignerClient, AppError> {
    signer
        .as_ref()
        .ok_or_else(|| AppError::new(ServerErrorCode::FeatureNotEnabled, NO_SIGNER))
}
