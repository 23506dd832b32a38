//! App secrets: the password a host back end sends with its app id (HTTP Basic) to the `/v1` API.
//!
//! A secret is `sk_<id>_<43 random characters>`: the id finds its row in one read, the rest is
//! 256 bits nobody can guess. Only an Argon2id hash is stored, so a copy of the database opens
//! nothing. Checking a hash is slow on purpose (tens of milliseconds), so a secret that checked out
//! is remembered in this process by its SHA-256 and later calls only compare that; the row is still
//! read on every call, so a revocation holds at once.

use std::collections::HashMap;
use std::sync::Mutex;

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

use crate::db::api_secrets::{ApiSecretRecord, LAST_USED_RESOLUTION_S};
use crate::db::{Db, DbError};
use crate::random::{RandomError, random_bytes, random_id, random_token};
use crate::rate_limit::{BurstLimiter, RetryAfter};

/// Characters of a secret's public id.
const ID_LENGTH: usize = 12;

/// Secrets remembered as checked; past it the memory is cleared (the next call of each pays one
/// hash again).
const CHECKED_CAPACITY: usize = 4096;

/// Why a presented secret was refused. Callers answer every kind the same way (no oracle).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SecretRefusal {
    /// Not of our form, unknown, of another app, or not matching its hash.
    #[error("invalid app secret")]
    Invalid,
    /// Revoked.
    #[error("revoked app secret")]
    Revoked,
    /// The network spent its budget of hash checks for this app.
    #[error("too many app secret checks")]
    Limited(RetryAfter),
    /// Storage failed.
    #[error(transparent)]
    Db(#[from] DbError),
}

/// A secret could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MakeSecretError {
    /// The CSPRNG failed.
    #[error(transparent)]
    Random(#[from] RandomError),
    /// Hashing failed.
    #[error("cannot hash the secret: {0}")]
    Hash(String),
}

/// A new secret: the text to show once, and the record to store.
pub struct NewSecret {
    /// The whole secret.
    pub secret: Zeroizing<String>,
    /// Its row (hash only).
    pub record: ApiSecretRecord,
}

/// Makes a secret for `app_id`.
pub fn make_secret(app_id: &str, now: i64) -> Result<NewSecret, MakeSecretError> {
    let id = random_id(ID_LENGTH)?;
    let secret = Zeroizing::new(format!("sk_{id}_{}", random_token()?));
    let salt = SaltString::encode_b64(&random_bytes::<16>()?)
        .map_err(|e| MakeSecretError::Hash(e.to_string()))?;
    let hash = Argon2::default()
        .hash_password(secret.as_bytes(), &salt)
        .map_err(|e| MakeSecretError::Hash(e.to_string()))?
        .to_string();
    Ok(NewSecret {
        secret,
        record: ApiSecretRecord {
            id,
            app_id: app_id.to_string(),
            hash,
            created_at: now,
            last_used_at: None,
            revoked_at: None,
        },
    })
}

/// The public id a secret starts with, if it has our form.
fn secret_id(secret: &str) -> Option<&str> {
    let rest = secret.strip_prefix("sk_")?;
    let (id, random) = rest.split_once('_')?;
    (id.len() == ID_LENGTH && random.len() >= 43).then_some(id)
}

/// Checks presented secrets, remembering the ones that checked out.
#[derive(Debug, Default)]
pub struct SecretChecker {
    /// Secret id → SHA-256 of the secret that matched its hash.
    checked: Mutex<HashMap<String, [u8; 32]>>,
}

impl SecretChecker {
    /// The live secret of `app_id` that `presented` is; records its use. A secret not yet checked
    /// in this process first spends one event of `budget` for `budget_key` (the caller's app and
    /// network): one conditional write, before the slow hash, so concurrent guesses cannot
    /// outrun it, while the app's own back end, checked once, never spends again.
    pub async fn check(
        &self,
        db: &Db,
        app_id: &str,
        presented: &str,
        now: i64,
        budget: (&BurstLimiter, &str),
    ) -> Result<ApiSecretRecord, SecretRefusal> {
        let record = match secret_id(presented) {
            Some(id) => db.find_api_secret(id).await?,
            None => None,
        };
        let digest: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        let record = record.filter(|r| r.app_id == app_id);
        if !record
            .as_ref()
            .is_some_and(|r| self.remembers(&r.id, &digest))
        {
            let (limiter, key) = budget;
            limiter
                .hit(key, now)
                .await
                .map_err(SecretRefusal::Limited)?;
            // An unknown id costs the same work as a real check: timing does not tell them apart.
            let hash = record
                .as_ref()
                .map_or(DUMMY_HASH.as_str(), |r| r.hash.as_str());
            let matches = verify_hash(hash, presented).await;
            match &record {
                Some(known) if matches => {
                    self.remember(&known.id, digest);
                }
                _ => return Err(SecretRefusal::Invalid),
            }
        }
        let Some(record) = record else {
            return Err(SecretRefusal::Invalid);
        };
        if record.revoked_at.is_some() {
            return Err(SecretRefusal::Revoked);
        }
        if record
            .last_used_at
            .is_none_or(|at| at <= now - LAST_USED_RESOLUTION_S)
        {
            db.touch_api_secret(&record.id, now).await?;
        }
        Ok(record)
    }

    fn remembers(&self, id: &str, digest: &[u8; 32]) -> bool {
        let checked = self.checked.lock().unwrap_or_else(|e| e.into_inner());
        checked
            .get(id)
            .is_some_and(|known| bool::from(known.ct_eq(digest)))
    }

    fn remember(&self, id: &str, digest: [u8; 32]) {
        let mut checked = self.checked.lock().unwrap_or_else(|e| e.into_inner());
        if checked.len() >= CHECKED_CAPACITY {
            checked.clear();
        }
        checked.insert(id.to_string(), digest);
    }
}

/// A hash of a secret nobody has, checked when the presented one has no row.
static DUMMY_HASH: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    SaltString::encode_b64(&[7u8; 16])
        .ok()
        .and_then(|salt| {
            let hash = Argon2::default()
                .hash_password(b"no such secret", &salt)
                .ok()?;
            Some(hash.to_string())
        })
        .unwrap_or_default()
});

/// Whether `secret` matches the PHC `hash`, off the async threads (it takes tens of ms).
async fn verify_hash(hash: &str, secret: &str) -> bool {
    let (hash, secret) = (hash.to_string(), Zeroizing::new(secret.to_string()));
    tokio::task::spawn_blocking(move || {
        PasswordHash::new(&hash).is_ok_and(|parsed| {
            Argon2::default()
                .verify_password(secret.as_bytes(), &parsed)
                .is_ok()
        })
    })
    .await
    .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_have_the_form_their_id_is_read_from() -> Result<(), MakeSecretError> {
        let made = make_secret("app1", 10)?;
        assert_eq!(secret_id(&made.secret), Some(made.record.id.as_str()));
        assert!(made.record.hash.starts_with("$argon2id$"));
        assert!(!made.record.hash.contains(made.secret.as_str()));
        assert_eq!(secret_id("sk_short_x"), None);
        assert_eq!(secret_id("not a secret"), None);
        Ok(())
    }

    #[tokio::test]
    async fn the_hash_opens_only_its_secret() -> Result<(), MakeSecretError> {
        let made = make_secret("app1", 10)?;
        assert!(verify_hash(&made.record.hash, &made.secret).await);
        let other = make_secret("app1", 10)?;
        assert!(!verify_hash(&made.record.hash, &other.secret).await);
        assert!(!verify_hash(DUMMY_HASH.as_str(), &made.secret).await);
        assert!(DUMMY_HASH.starts_with("$argon2id$"));
        Ok(())
    }
}
