//! Key quorums, without HTTP: keep an app's quorums, and judge a signed request against the quorum
//! that owns what it changes ([`authorize_owner`]). A quorum changes or goes only with its own
//! signatures; it cannot go while it owns a policy.

use serde::{Deserialize, Serialize};
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::key_quorums::{AuthorizationKey, KeyQuorum, KeyQuorumRequest};

use super::deps::KeyQuorumDeps;
use crate::db::Db;
use crate::db::key_quorums::KeyQuorumRecord;
use crate::error::AppError;
use crate::random::random_id;
use crate::web::authorization_signature::{Owner, SignedRequest, parse_public_key};

/// Most keys in one quorum.
pub const MAX_KEYS: usize = 10;
/// The refusal of a quorum the app does not have.
pub const QUORUM_NOT_FOUND: &str = "Key quorum not found";
/// The refusal of a delete while the quorum owns something.
pub const QUORUM_IN_USE: &str = "This key quorum owns policies; give them another owner first";

/// A key as stored (the wire's [`AuthorizationKey`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct StoredKey {
    public_key: String,
    display_name: Option<String>,
}

fn not_found() -> AppError {
    AppError::new(ServerErrorCode::NotFound, QUORUM_NOT_FOUND)
}

/// Creates a quorum.
pub async fn create(
    deps: &KeyQuorumDeps,
    app_id: &str,
    request: &KeyQuorumRequest,
) -> Result<KeyQuorum, AppError> {
    refuse_unserved(request)?;
    let keys = checked_keys(request.public_keys.as_deref().unwrap_or_default())?;
    let threshold = checked_threshold(request.authorization_threshold, keys.len())?;
    let display_name = checked_display_name(request.display_name.as_deref())?;
    let record = KeyQuorumRecord {
        id: random_id(24)?,
        app_id: app_id.to_string(),
        display_name,
        keys: keys_json(&keys)?,
        threshold,
        created_at: deps.clock.now(),
    };
    deps.db.insert_key_quorum(&record).await?;
    view(&record)
}

/// A quorum of one key, threshold 1 (a policy created with `owner: {public_key}`); its id.
pub async fn create_for_key(
    deps: &KeyQuorumDeps,
    app_id: &str,
    public_key: &str,
) -> Result<String, AppError> {
    let request = KeyQuorumRequest {
        public_keys: Some(vec![public_key.to_string()]),
        authorization_threshold: Some(1),
        display_name: None,
        user_ids: None,
        key_quorum_ids: None,
    };
    Ok(create(deps, app_id, &request).await?.id)
}

/// `app_id`'s quorum `id`.
pub async fn get(deps: &KeyQuorumDeps, app_id: &str, id: &str) -> Result<KeyQuorum, AppError> {
    view(&read(&deps.db, app_id, id).await?)
}

/// Replaces what `request` gives, with the quorum's own signatures.
pub async fn update(
    deps: &KeyQuorumDeps,
    app_id: &str,
    id: &str,
    request: &KeyQuorumRequest,
    signed: &SignedRequest,
) -> Result<KeyQuorum, AppError> {
    refuse_unserved(request)?;
    let mut record = read(&deps.db, app_id, id).await?;
    signed.authorize(&owner_of(&record)?, now_ms(deps))?;
    let mut keys = stored_keys(&record)?;
    if let Some(public_keys) = &request.public_keys {
        keys = checked_keys(public_keys)?;
    }
    let threshold = match request.authorization_threshold {
        Some(wanted) => Some(wanted),
        None => record.threshold.and_then(|t| u32::try_from(t).ok()),
    };
    record.threshold = checked_threshold(threshold, keys.len())?;
    record.keys = keys_json(&keys)?;
    if request.display_name.is_some() {
        record.display_name = checked_display_name(request.display_name.as_deref())?;
    }
    if !deps.db.update_key_quorum(&record).await? {
        return Err(not_found());
    }
    view(&record)
}

/// Deletes the quorum, with its own signatures, unless it owns a policy.
pub async fn delete(
    deps: &KeyQuorumDeps,
    app_id: &str,
    id: &str,
    signed: &SignedRequest,
) -> Result<(), AppError> {
    let record = read(&deps.db, app_id, id).await?;
    signed.authorize(&owner_of(&record)?, now_ms(deps))?;
    match deps.db.delete_unused_key_quorum(app_id, id).await? {
        Some(true) => Ok(()),
        Some(false) => Err(AppError::invalid_data(QUORUM_IN_USE)),
        None => Err(not_found()),
    }
}

/// Checks `signed` against the quorum `owner_id` of `app_id` (nothing to check without an owner).
pub async fn authorize_owner(
    db: &Db,
    app_id: &str,
    owner_id: Option<&str>,
    signed: &SignedRequest,
    now_ms: i64,
) -> Result<(), AppError> {
    let Some(owner_id) = owner_id else {
        return Ok(());
    };
    let record = read(db, app_id, owner_id).await?;
    Ok(signed.authorize(&owner_of(&record)?, now_ms)?)
}

/// Whether `app_id` has the quorum `id` (an `owner_id` given for a resource).
pub async fn exists(db: &Db, app_id: &str, id: &str) -> Result<bool, AppError> {
    Ok(db.find_key_quorum(app_id, id).await?.is_some())
}

fn now_ms(deps: &KeyQuorumDeps) -> i64 {
    deps.clock.now().saturating_mul(1000)
}

async fn read(db: &Db, app_id: &str, id: &str) -> Result<KeyQuorumRecord, AppError> {
    db.find_key_quorum(app_id, id).await?.ok_or_else(not_found)
}

fn owner_of(record: &KeyQuorumRecord) -> Result<Owner, AppError> {
    let keys = stored_keys(record)?
        .iter()
        .filter_map(|k| parse_public_key(&k.public_key))
        .collect::<Vec<_>>();
    let threshold = record
        .threshold
        .and_then(|t| usize::try_from(t).ok())
        .unwrap_or(keys.len());
    Ok(Owner { keys, threshold })
}

fn refuse_unserved(request: &KeyQuorumRequest) -> Result<(), AppError> {
    if request.user_ids.as_ref().is_some_and(|u| !u.is_empty())
        || request
            .key_quorum_ids
            .as_ref()
            .is_some_and(|k| !k.is_empty())
    {
        return Err(AppError::invalid_data(
            "user_ids and key_quorum_ids are not supported yet: give public_keys",
        ));
    }
    Ok(())
}

fn checked_keys(public_keys: &[String]) -> Result<Vec<StoredKey>, AppError> {
    if public_keys.is_empty() || public_keys.len() > MAX_KEYS {
        return Err(AppError::invalid_data(format!(
            "public_keys must hold 1 to {MAX_KEYS} keys"
        )));
    }
    let mut keys: Vec<StoredKey> = Vec::new();
    for (index, text) in public_keys.iter().enumerate() {
        let Some(key) = parse_public_key(text) else {
            return Err(AppError::invalid_data(format!(
                "public_keys[{index}] is not a P-256 public key (base64 DER SPKI)"
            )));
        };
        let der = p256::pkcs8::EncodePublicKey::to_public_key_der(&key)
            .map_err(|e| AppError::internal(&e))?;
        let normal =
            base64::Engine::encode(&base64::engine::general_purpose::STANDARD, der.as_bytes());
        if keys.iter().any(|k| k.public_key == normal) {
            return Err(AppError::invalid_data(format!(
                "public_keys[{index}] is given twice"
            )));
        }
        keys.push(StoredKey {
            public_key: normal,
            display_name: None,
        });
    }
    Ok(keys)
}

fn checked_threshold(threshold: Option<u32>, keys: usize) -> Result<Option<i64>, AppError> {
    match threshold {
        None => Ok(None),
        Some(t) if t >= 1 && usize::try_from(t).is_ok_and(|t| t <= keys) => Ok(Some(i64::from(t))),
        Some(_) => Err(AppError::invalid_data(format!(
            "authorization_threshold must be 1 to the number of keys ({keys})"
        ))),
    }
}

fn checked_display_name(name: Option<&str>) -> Result<Option<String>, AppError> {
    match name {
        Some(name) if name.chars().count() > 50 => Err(AppError::invalid_data(
            "display_name must be at most 50 characters",
        )),
        Some(name) => Ok(Some(name.to_string())),
        None => Ok(None),
    }
}

fn keys_json(keys: &[StoredKey]) -> Result<String, AppError> {
    serde_json::to_string(keys).map_err(|e| AppError::internal(&e))
}

fn stored_keys(record: &KeyQuorumRecord) -> Result<Vec<StoredKey>, AppError> {
    serde_json::from_str(&record.keys)
        .map_err(|e| AppError::internal(&crate::db::DbError::corrupt(e)))
}

/// The quorum as the API answers it.
fn view(record: &KeyQuorumRecord) -> Result<KeyQuorum, AppError> {
    Ok(KeyQuorum {
        id: record.id.clone(),
        display_name: record.display_name.clone(),
        authorization_keys: stored_keys(record)?
            .into_iter()
            .map(|k| AuthorizationKey {
                public_key: k.public_key,
                display_name: k.display_name,
            })
            .collect(),
        authorization_threshold: record.threshold.and_then(|t| u32::try_from(t).ok()),
        user_ids: None,
    })
}
