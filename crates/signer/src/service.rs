//! The signer's HTTP service (loopback only: the main server is its one caller) and its start-up.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use sha2::{Digest, Sha256};
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::{DELEGATION_HPKE_SUITE, HEADER_APP_ID};
use symbolon_protocol::delegation::ConsentedSigner;
use symbolon_protocol::policies::Aggregation;

use crate::authorization::{AuthorizationError, Owner, SignedRequest, parse_public_key};
use crate::consent::SignerKey;
use crate::error::SignerError;
use crate::methods::{Call, Route, prepare, sign};
use crate::policy::{RequestFacts, Verdict, evaluate, missing_aggregations};
use crate::store::{ConsentState, Store, Tally};
use crate::wire::{
    CONSENTS_PATH, PUBLIC_KEY_PATH, PublicKeyResponse, REVOKE_PATH, RegisteredConsent,
    RevokeConsents, SIGN_PATH, SealedConsent, SignRequest, SignResponse,
};

/// The furthest ahead a signed request's `privy-request-expiry` may be (the SDK sets 15 min): each
/// used request is remembered until then, and a captured one is useless after it.
pub const MAX_EXPIRY_AHEAD_MS: i64 = 60 * 60 * 1000;

/// The refusal of a request for a revoked or unknown delegation.
pub const NOT_DELEGATED: &str = "The user has not delegated this wallet (or revoked it)";
/// The refusal of signatures by keys the user did not consent to.
pub const NOT_CONSENTED_KEYS: &str =
    "The authorization signatures are not by the keys the user consented to for this wallet";
/// The refusal of a signed request sent again.
pub const ALREADY_USED: &str = "This signed request was already used; sign a new one";
/// The refusal of a request without a deadline.
pub const EXPIRY_REQUIRED: &str =
    "A delegated wallet signs only requests with privy-request-expiry (at most 1 hour ahead)";
/// The refusal of a deadline too far ahead.
pub const EXPIRY_TOO_FAR: &str = "privy-request-expiry is more than 1 hour ahead";
/// The refusal of a request signed for another wallet, route or app.
pub const NOT_THIS_WALLET: &str =
    "The signed request is not a wallet-API request for this wallet and app";

/// Milliseconds since the Unix epoch.
pub type Clock = Arc<dyn Fn() -> i64 + Send + Sync>;

/// The system clock.
pub fn system_clock() -> Clock {
    Arc::new(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
            .unwrap_or_default()
    })
}

/// What the handlers share.
#[derive(Clone)]
pub struct Signer {
    key: Arc<SignerKey>,
    store: Store,
    clock: Clock,
}

impl Signer {
    /// A signer with `key`, `store` and `clock`.
    pub fn new(key: SignerKey, store: Store, clock: Clock) -> Self {
        Self {
            key: Arc::new(key),
            store,
            clock,
        }
    }

    /// Its routes.
    pub fn router(self) -> Router {
        Router::new()
            .route(PUBLIC_KEY_PATH, get(public_key))
            .route(CONSENTS_PATH, post(register))
            .route(REVOKE_PATH, post(revoke))
            .route(SIGN_PATH, post(sign_request))
            .with_state(self)
    }

    /// The public key as the terms carry it.
    pub fn public_text(&self) -> String {
        self.key.public_text()
    }

    /// Opens and registers a consent.
    pub async fn register(&self, sealed: &SealedConsent) -> Result<RegisteredConsent, SignerError> {
        let open = self.key.open(sealed)?;
        let consent = &open.consent;
        let state = self
            .store
            .register(
                &consent.consent_id,
                &consent.app_id,
                &consent.address,
                (self.clock)(),
            )
            .await?;
        if state != ConsentState::Live {
            return Err(SignerError::new(
                ServerErrorCode::UserHasNotDelegatedWallet,
                "This delegation was revoked; the user must delegate again",
            ));
        }
        Ok(RegisteredConsent {
            consent_id: consent.consent_id.clone(),
            user_id: consent.user_id.clone(),
            address: consent.address.clone(),
            wallet_id: consent.wallet_id.clone(),
            chain_type: consent.chain_type.clone(),
            signer_ids: consent
                .signers
                .iter()
                .map(|s| s.signer_id.clone())
                .collect(),
        })
    }

    /// Signs a wallet-API request for a delegated wallet, or says why not.
    pub async fn sign(&self, request: &SignRequest) -> Result<SignResponse, SignerError> {
        let now = (self.clock)();
        let open = self.key.open(&request.sealed)?;
        let consent = &open.consent;
        if self.store.state(&consent.consent_id).await? != ConsentState::Live {
            return Err(SignerError::new(
                ServerErrorCode::UserHasNotDelegatedWallet,
                NOT_DELEGATED,
            ));
        }
        let signed = &request.request;
        let route = route_of(signed, &consent.wallet_id)
            .filter(|_| signed.headers.get(HEADER_APP_ID) == Some(&consent.app_id))
            .ok_or_else(|| SignerError::unauthorized(NOT_THIS_WALLET))?;
        let deadline = signed
            .expiry_ms()?
            .ok_or_else(|| SignerError::invalid(EXPIRY_REQUIRED))?;
        if deadline > now + MAX_EXPIRY_AHEAD_MS {
            return Err(SignerError::invalid(EXPIRY_TOO_FAR));
        }
        let signer = authorized_signer(&consent.signers, signed, now)?;
        let digest = Sha256::digest(signed.payload()?);
        if !self.store.use_request(&digest, deadline).await? {
            return Err(SignerError::unauthorized(ALREADY_USED));
        }
        let (call, mut facts) =
            prepare(route, &signed.body, request.completion.as_ref(), now / 1000)?;
        let missing = missing_aggregations(&signer.policies, &signer.aggregations);
        if !missing.is_empty() {
            return Err(SignerError::new(
                ServerErrorCode::PolicyViolation,
                format!(
                    "The consented policies name aggregations the consent does not carry ({}); the user must delegate again",
                    missing.join(", ")
                ),
            ));
        }
        // Judges and signs; for a transaction, within the spend transaction (below), so the spend
        // is recorded only when this returns Ok.
        let decide = |facts: &RequestFacts| -> Result<SignResponse, SignerError> {
            let allowed_by = allowed_by(&signer.policies, facts)?;
            let (method, data) = sign(&call, &open.key)?;
            Ok(SignResponse {
                method,
                data,
                allowed_by,
            })
        };
        let tallies = tallies(&consent.signers);
        let spend = facts
            .transaction
            .as_ref()
            .map(|tx| tx.value)
            .filter(|_| is_transaction(&call) && !tallies.is_empty());
        let response = match spend {
            // A transaction counts toward every aggregation of the consent: read the window's
            // sums, judge with this request's value added, record the spend only if it is signed,
            // in one transaction of the signer's store (concurrent requests one after another).
            Some(value) => {
                self.store
                    .spend_within(&consent.address, &tallies, value, now, |sums| {
                        facts.aggregations = sums
                            .iter()
                            .map(|(id, sum)| (id.clone(), sum.saturating_add(value)))
                            .collect();
                        let outcome = decide(&facts);
                        (outcome.is_ok(), outcome)
                    })
                    .await??
            }
            None => decide(&facts)?,
        };
        tracing::info!(wallet = %consent.wallet_id, method = %response.method, rule = %response.allowed_by, "signed for a delegated wallet");
        Ok(response)
    }
}

/// Whether `call` signs a transaction (`eth_signTransaction`, `eth_sendTransaction`): only those
/// count toward aggregations.
fn is_transaction(call: &Call) -> bool {
    matches!(call, Call::Transaction { .. })
}

/// The aggregations of every consented signer (a wallet's transactions count toward each, whoever
/// signed them), once each.
fn tallies(signers: &[ConsentedSigner]) -> Vec<Tally> {
    let mut tallies: Vec<Tally> = Vec::new();
    for aggregation in signers.iter().flat_map(|s| &s.aggregations) {
        if !tallies.iter().any(|t| t.aggregation_id == aggregation.id) {
            tallies.push(Tally {
                aggregation_id: aggregation.id.clone(),
                window_ms: window_ms(aggregation),
            });
        }
    }
    tallies
}

fn window_ms(aggregation: &Aggregation) -> i64 {
    i64::try_from(aggregation.window.seconds)
        .unwrap_or(i64::MAX)
        .saturating_mul(1000)
}

/// The rule that allows `facts`, or the refusal naming why not.
fn allowed_by(
    policies: &[symbolon_protocol::policies::Policy],
    facts: &RequestFacts,
) -> Result<String, SignerError> {
    match evaluate(policies, facts) {
        Verdict::Allowed { rule } => Ok(rule),
        Verdict::Denied { rule } => Err(SignerError::new(
            ServerErrorCode::PolicyViolation,
            format!("Denied by policy rule \"{rule}\""),
        )),
        Verdict::NotAllowed => Err(SignerError::new(
            ServerErrorCode::PolicyViolation,
            format!(
                "No rule of the consented policies allows this {} request{}",
                facts.method,
                if facts.needs_explicit_rule {
                    " (a hash or a transaction-shaped message needs a rule naming its method, not \"*\")"
                } else {
                    ""
                }
            ),
        )),
    }
}

/// The route of a request signed for `wallet_id`'s `/rpc` or `/raw_sign` (with POST).
fn route_of(signed: &SignedRequest, wallet_id: &str) -> Option<Route> {
    if signed.method != "POST" || wallet_id.is_empty() {
        return None;
    }
    let path = signed.url.split(['?', '#']).next()?;
    let rest = path.split("/v1/wallets/").nth(1)?;
    match rest.strip_prefix(wallet_id)? {
        "/rpc" => Some(Route::Rpc),
        "/raw_sign" => Some(Route::RawSign),
        _ => None,
    }
}

/// The first consented signer whose keys signed enough.
fn authorized_signer<'a>(
    signers: &'a [ConsentedSigner],
    signed: &SignedRequest,
    now: i64,
) -> Result<&'a ConsentedSigner, SignerError> {
    for signer in signers {
        let owner = Owner {
            keys: signer
                .public_keys
                .iter()
                .filter_map(|k| parse_public_key(k))
                .collect(),
            threshold: usize::try_from(signer.threshold).unwrap_or(usize::MAX),
        };
        match signed.authorize(&owner, now) {
            Ok(()) => return Ok(signer),
            Err(AuthorizationError::Signatures(_)) => {}
            Err(other) => return Err(other.into()),
        }
    }
    Err(SignerError::unauthorized(NOT_CONSENTED_KEYS))
}

async fn public_key(State(signer): State<Signer>) -> Json<PublicKeyResponse> {
    Json(PublicKeyResponse {
        public_key: signer.public_text(),
        suite: DELEGATION_HPKE_SUITE.to_string(),
    })
}

async fn register(
    State(signer): State<Signer>,
    Json(sealed): Json<SealedConsent>,
) -> Result<Json<RegisteredConsent>, SignerError> {
    signer.register(&sealed).await.map(Json)
}

async fn revoke(
    State(signer): State<Signer>,
    Json(revoke): Json<RevokeConsents>,
) -> Result<Json<serde_json::Value>, SignerError> {
    let now = (signer.clock)();
    for id in &revoke.consent_ids {
        signer.store.revoke(id, now).await?;
    }
    Ok(Json(serde_json::json!({})))
}

async fn sign_request(
    State(signer): State<Signer>,
    Json(request): Json<SignRequest>,
) -> Result<Json<SignResponse>, SignerError> {
    signer.sign(&request).await.map(Json)
}

/// How `symbolon signer` runs.
#[derive(Debug, Clone)]
pub struct SignerOptions {
    /// Its key file (made on first start).
    pub key_file: PathBuf,
    /// Its state file.
    pub state_file: PathBuf,
    /// Where it listens (a loopback address: only the main server calls it).
    pub listen: SocketAddr,
}

/// Why the signer could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The key file.
    #[error(transparent)]
    Key(#[from] crate::consent::KeyFileError),
    /// The state file.
    #[error("signer state {0}")]
    Store(#[from] sqlx::Error),
    /// The listener.
    #[error("signer listen: {0}")]
    Listen(#[from] std::io::Error),
}

/// Runs the signer until the process is stopped.
pub async fn run(options: SignerOptions) -> Result<(), StartError> {
    let (key, made) = SignerKey::load_or_create(&options.key_file)?;
    let store = Store::open(&options.state_file).await?;
    let signer = Signer::new(key, store.clone(), system_clock());
    let listener = tokio::net::TcpListener::bind(options.listen).await?;
    let bound = listener.local_addr()?;
    println!(
        "symbolon signer on http://{bound}: key {} ({}), public key {}",
        options.key_file.display(),
        if made { "made now" } else { "loaded" },
        signer.public_text()
    );
    println!(
        "custody: this signer signs for delegated wallets only what a consented authorization key signed and the consented policies allow; its key file is the one secret that opens the sealed consents"
    );
    if !bound.ip().is_loopback() {
        tracing::warn!(%bound, "the signer listens beyond loopback: put it where only the main server reaches it");
    }
    let clock = signer.clock.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(60));
        loop {
            tick.tick().await;
            if let Err(e) = store.sweep(clock()).await {
                tracing::warn!(error = %e, "signer sweep failed");
            }
        }
    });
    axum::serve(listener, signer.router()).await?;
    Ok(())
}
