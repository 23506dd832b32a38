//! Farcaster signers (spec §3): an Ed25519 key the user approves to post for their fid.
//! `POST /farcaster/signer/init {ed25519_public_key}` files a signed key request with the
//! Farcaster client's API (`POST /v2/signed-key-requests`, documented as Warpcast's): the app's
//! own fid signs an EIP-712 `SignedKeyRequest` with its custody key, and the user approves the
//! key at the returned deep link. `POST /farcaster/signer/status` polls the request
//! (`GET /v2/signed-key-request?token=…`) until the key is added to the user's fid.

use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use serde_json::json;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::farcaster::{
    FarcasterSignerRequest, FarcasterSignerResponse, FarcasterSignerStatus,
};
use symbolon_wallet_core::chains::ethereum::{PrivateKey, TypedData, sign_typed_data};
use symbolon_wallet_core::decode_hex;

use super::{FARCASTER, upstream};
use crate::app_secrets::FARCASTER_SIGNER_KEY;
use crate::app_settings::farcaster::FarcasterSettings;
use crate::db::account_details::{AccountDetails, FarcasterDetails};
use crate::db::farcaster::FarcasterSignerRecord;
use crate::db::users::UserRecord;
use crate::error::AppError;
use crate::methods::farcaster::deps::FarcasterDeps;
use crate::outbound_http::{outbound_client, read_capped};
use crate::web::auth::SignedIn;
use crate::web::json_body::JsonBody;

/// Seconds a signed key request may be approved in (the docs recommend a day).
pub const REQUEST_TTL_S: i64 = 86_400;
/// The `SignedKeyRequestValidator` on Optimism, the EIP-712 domain's verifying contract.
pub const SIGNED_KEY_REQUEST_VALIDATOR: &str = "0x00000000FC700472606ED4fA22623Acf62c60553";

/// Files a signed key request for the caller's fid (or answers the one filed before).
pub async fn init(
    State(deps): State<FarcasterDeps>,
    signed_in: SignedIn,
    JsonBody(body): JsonBody<FarcasterSignerRequest>,
) -> Result<Json<FarcasterSignerResponse>, AppError> {
    let app = &signed_in.ctx.app;
    let key = public_key(&body.ed25519_public_key)?;
    user_fid(&deps, &signed_in.user).await?;
    if let Some(existing) = deps.db.farcaster_signer(&app.id, &key).await? {
        return Ok(Json(wire(mine(existing, &signed_in.user)?)));
    }
    let settings = &app.settings.farcaster;
    let (request_fid, app_key) = requester(&deps, &app.id, settings)?;
    let deadline = deps.clock.now() + REQUEST_TTL_S;
    let signature = sign_request(&app_key, request_fid, &key, deadline)?;
    let body = json!({
        "key": key,
        "requestFid": request_fid,
        "signature": signature,
        "deadline": deadline,
    });
    let created: Envelope = call(
        outbound_client()
            .map_err(|e| AppError::internal(&e))?
            .post(format!("{}/v2/signed-key-requests", base(settings)))
            .json(&body),
    )
    .await?;
    let record = FarcasterSignerRecord {
        app_id: app.id.clone(),
        public_key: key,
        user_id: signed_in.user.id.clone(),
        request_token: created.result.signed_key_request.token,
        approval_url: created.result.signed_key_request.deeplink_url,
        status: "pending_approval".into(),
    };
    let stored = deps
        .db
        .insert_farcaster_signer(&record, deps.clock.now())
        .await?;
    Ok(Json(wire(mine(stored, &signed_in.user)?)))
}

/// The signer's state; a pending one is asked of the Farcaster client's API.
pub async fn status(
    State(deps): State<FarcasterDeps>,
    signed_in: SignedIn,
    JsonBody(body): JsonBody<FarcasterSignerRequest>,
) -> Result<Json<FarcasterSignerResponse>, AppError> {
    let app = &signed_in.ctx.app;
    let key = public_key(&body.ed25519_public_key)?;
    let signer = deps
        .db
        .farcaster_signer(&app.id, &key)
        .await?
        .ok_or_else(|| {
            AppError::new(ServerErrorCode::NotFound, "No signer request for this key")
        })?;
    let signer = mine(signer, &signed_in.user)?;
    if signer.status != "pending_approval" {
        return Ok(Json(wire(signer)));
    }
    let settings = &app.settings.farcaster;
    let mut url = url::Url::parse(&format!("{}/v2/signed-key-request", base(settings)))
        .map_err(|_| upstream("The Farcaster signer service URL is invalid"))?;
    url.query_pairs_mut()
        .append_pair("token", &signer.request_token);
    let polled: Envelope = call(
        outbound_client()
            .map_err(|e| AppError::internal(&e))?
            .get(url),
    )
    .await?;
    let request = polled.result.signed_key_request;
    let fid = user_fid(&deps, &signed_in.user).await?;
    let decided = match request.state.as_str() {
        // `approved` means signed by the user but not yet on chain: still pending for us.
        "pending" | "approved" => None,
        // Added to a fid: approved only if it is the caller's.
        "completed" if request.user_fid == Some(fid) => Some("approved"),
        _ => Some("revoked"),
    };
    let Some(decided) = decided else {
        return Ok(Json(wire(signer)));
    };
    deps.db
        .settle_farcaster_signer(&app.id, &key, decided)
        .await?;
    if decided == "approved" {
        record_signer(&deps, &signed_in.user, fid, &key).await?;
    }
    let settled = deps
        .db
        .farcaster_signer(&app.id, &key)
        .await?
        .unwrap_or(signer);
    Ok(Json(wire(settled)))
}

/// `{"result": {"signedKeyRequest": {…}}}`, as the API answers both calls.
#[derive(Debug, Deserialize)]
struct Envelope {
    result: EnvelopeResult,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct EnvelopeResult {
    signed_key_request: SignedKeyRequest,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SignedKeyRequest {
    token: String,
    deeplink_url: String,
    #[serde(default)]
    state: String,
    #[serde(default)]
    user_fid: Option<u64>,
}

async fn call<T: serde::de::DeserializeOwned>(
    request: reqwest::RequestBuilder,
) -> Result<T, AppError> {
    let unreachable = |detail: String| {
        tracing::warn!(%detail, "Farcaster signed key request API failed");
        upstream("The Farcaster signer service could not be reached")
    };
    let response = request
        .send()
        .await
        .map_err(|e| unreachable(e.without_url().to_string()))?;
    let status = response.status();
    let body = read_capped(response, 64 * 1024)
        .await
        .map_err(|e| unreachable(e.to_string()))?;
    if !status.is_success() {
        return Err(unreachable(format!(
            "{status}: {}",
            String::from_utf8_lossy(&body)
                .chars()
                .take(200)
                .collect::<String>()
        )));
    }
    serde_json::from_slice(&body).map_err(|e| unreachable(e.to_string()))
}

fn base(settings: &FarcasterSettings) -> &str {
    settings.signer_api_url.trim_end_matches('/')
}

/// The app's own fid and its custody key, which sign every request the app files.
fn requester(
    deps: &FarcasterDeps,
    app_id: &str,
    settings: &FarcasterSettings,
) -> Result<(u64, PrivateKey), AppError> {
    let not_enabled = || {
        AppError::new(
            ServerErrorCode::FeatureNotEnabled,
            "Farcaster signers are not configured for this app",
        )
    };
    let fid = settings.signer_request_fid.ok_or_else(not_enabled)?;
    let sealed = settings
        .signer_request_key
        .as_ref()
        .ok_or_else(not_enabled)?;
    let opened = deps
        .app_secrets
        .open(app_id, FARCASTER_SIGNER_KEY, sealed)?;
    let key = decode_hex(opened.trim())
        .ok()
        .and_then(|bytes| PrivateKey::from_bytes(&bytes).ok())
        .ok_or_else(not_enabled)?;
    Ok((fid, key))
}

/// The EIP-712 `SignedKeyRequest(uint256 requestFid, bytes key, uint256 deadline)` signature
/// the Key Registry's validator checks.
pub fn sign_request(
    app_key: &PrivateKey,
    request_fid: u64,
    key: &str,
    deadline: i64,
) -> Result<String, AppError> {
    let typed = json!({
        "types": {
            "EIP712Domain": [
                {"name": "name", "type": "string"},
                {"name": "version", "type": "string"},
                {"name": "chainId", "type": "uint256"},
                {"name": "verifyingContract", "type": "address"},
            ],
            "SignedKeyRequest": [
                {"name": "requestFid", "type": "uint256"},
                {"name": "key", "type": "bytes"},
                {"name": "deadline", "type": "uint256"},
            ],
        },
        "primaryType": "SignedKeyRequest",
        "domain": {
            "name": "Farcaster SignedKeyRequestValidator",
            "version": "1",
            "chainId": 10,
            "verifyingContract": SIGNED_KEY_REQUEST_VALIDATOR,
        },
        "message": {"requestFid": request_fid, "key": key, "deadline": deadline},
    });
    let typed = TypedData::from_json(&typed.to_string()).map_err(|e| AppError::internal(&e))?;
    let signature = sign_typed_data(app_key, &typed).map_err(|e| AppError::internal(&e))?;
    Ok(signature.to_hex())
}

/// `0x` + 32 bytes of hex, lower-cased.
fn public_key(raw: &str) -> Result<String, AppError> {
    let key = raw.trim().to_ascii_lowercase();
    match decode_hex(&key) {
        Ok(bytes) if bytes.len() == 32 => Ok(key),
        _ => Err(AppError::invalid_data(
            "ed25519_public_key must be 0x followed by 32 bytes of hex",
        )),
    }
}

/// The caller's linked fid: a signer needs a Farcaster account.
async fn user_fid(deps: &FarcasterDeps, user: &UserRecord) -> Result<u64, AppError> {
    deps.db
        .linked_accounts(&user.id)
        .await?
        .into_iter()
        .find(|a| a.account_type == FARCASTER)
        .and_then(|a| a.subject.parse().ok())
        .ok_or_else(|| {
            AppError::new(
                ServerErrorCode::LinkedAccountNotFound,
                "A Farcaster account is required for a signer",
            )
        })
}

/// Another user's key is as good as unknown to the caller.
fn mine(
    signer: FarcasterSignerRecord,
    user: &UserRecord,
) -> Result<FarcasterSignerRecord, AppError> {
    if signer.user_id == user.id {
        Ok(signer)
    } else {
        Err(AppError::new(
            ServerErrorCode::NotFound,
            "No signer request for this key",
        ))
    }
}

/// Puts the approved key on the user's `farcaster` account (`signer_public_key`).
async fn record_signer(
    deps: &FarcasterDeps,
    user: &UserRecord,
    fid: u64,
    key: &str,
) -> Result<(), AppError> {
    let subject = fid.to_string();
    let account = deps
        .db
        .linked_accounts(&user.id)
        .await?
        .into_iter()
        .find(|a| a.account_type == FARCASTER && a.subject == subject);
    let Some(account) = account else {
        return Ok(());
    };
    let mut details = FarcasterDetails::read(account.details.as_deref());
    details.signer_public_key = Some(key.to_string());
    deps.db
        .set_account_details(&user.id, FARCASTER, &subject, &details.to_stored()?)
        .await?;
    Ok(())
}

fn wire(signer: FarcasterSignerRecord) -> FarcasterSignerResponse {
    let status = match signer.status.as_str() {
        "approved" => FarcasterSignerStatus::Approved,
        "revoked" => FarcasterSignerStatus::Revoked,
        _ => FarcasterSignerStatus::PendingApproval,
    };
    FarcasterSignerResponse {
        public_key: signer.public_key,
        signer_approval_url: (status == FarcasterSignerStatus::PendingApproval)
            .then_some(signer.approval_url),
        status,
    }
}
