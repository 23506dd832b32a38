//! JWT signing keys (private keys sealed; see `tokens::key_sealer`).

use super::{Db, DbError};

/// A signing key as stored. The private key is PKCS#8 DER sealed under the sealing key.
#[derive(Clone)]
pub struct SigningKeyRecord {
    /// Key id (`kid`).
    pub kid: String,
    /// Private key as [`crate::keys::key_sealer::KeySealer`] stores it.
    pub private_key: String,
    /// Public x coordinate, base64url.
    pub public_x: String,
    /// Public y coordinate, base64url.
    pub public_y: String,
    /// Unix seconds.
    pub created_at: i64,
    /// Set when the key no longer signs; it stays in the JWKS so old tokens verify.
    pub retired_at: Option<i64>,
}

impl std::fmt::Debug for SigningKeyRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SigningKeyRecord")
            .field("kid", &self.kid)
            .finish_non_exhaustive()
    }
}

impl Db {
    /// Every ES256 key, newest first.
    pub async fn signing_keys(&self) -> Result<Vec<SigningKeyRecord>, DbError> {
        let rows: Vec<(String, String, String, String, i64, Option<i64>)> = sqlx::query_as(
            "SELECT kid, private_key, public_x, public_y, created_at, retired_at
             FROM signing_keys WHERE algorithm = 'ES256' ORDER BY created_at DESC, kid",
        )
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .into_iter()
            .map(
                |(kid, private_key, public_x, public_y, created_at, retired_at)| SigningKeyRecord {
                    kid,
                    private_key,
                    public_x,
                    public_y,
                    created_at,
                    retired_at,
                },
            )
            .collect())
    }

    /// Stores a new ES256 key.
    pub async fn insert_signing_key(&self, key: &SigningKeyRecord) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO signing_keys (kid, algorithm, private_key, public_x, public_y, created_at, retired_at)
             VALUES ($1, 'ES256', $2, $3, $4, $5, $6)",
        )
        .bind(&key.kid)
        .bind(&key.private_key)
        .bind(&key.public_x)
        .bind(&key.public_y)
        .bind(key.created_at)
        .bind(key.retired_at)
        .execute(self.writer())
        .await?;
        Ok(())
    }
}
