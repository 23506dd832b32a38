//! Cross-app authorization codes and provider tokens (migration 0009). Only hashes are stored.

use super::{Db, DbError};

/// An authorization code or provider token as stored (its hash is the key).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrossAppGrant {
    /// The app whose user consented (whose wallet signs).
    pub provider_app_id: String,
    /// The app the user let in.
    pub client_app_id: String,
    /// The provider app's user.
    pub user_id: String,
    /// Unix seconds.
    pub expires_at: i64,
}

/// A stored authorization code: the grant and what the exchange must repeat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrossAppCode {
    /// Who and for whom.
    pub grant: CrossAppGrant,
    /// The exact redirect URI of the consent.
    pub redirect_uri: String,
    /// PKCE S256 challenge.
    pub code_challenge: String,
}

impl Db {
    /// Stores a code, dropping expired codes and tokens first.
    pub async fn insert_cross_app_code(
        &self,
        code_hash: &str,
        code: &CrossAppCode,
        now: i64,
    ) -> Result<(), DbError> {
        for sweep in [
            "DELETE FROM cross_app_codes WHERE expires_at <= $1",
            "DELETE FROM cross_app_tokens WHERE expires_at <= $1",
        ] {
            sqlx::query(sweep).bind(now).execute(self.writer()).await?;
        }
        let grant = &code.grant;
        sqlx::query(
            "INSERT INTO cross_app_codes (code_hash, provider_app_id, client_app_id, user_id, redirect_uri, code_challenge, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(code_hash)
        .bind(&grant.provider_app_id)
        .bind(&grant.client_app_id)
        .bind(&grant.user_id)
        .bind(&code.redirect_uri)
        .bind(&code.code_challenge)
        .bind(grant.expires_at)
        .execute(self.writer())
        .await?;
        Ok(())
    }

    /// Takes the unexpired code of `provider_app_id` with this hash: one conditional DELETE, so
    /// of concurrent exchanges exactly one gets it. A code is gone after any attempt, right or
    /// wrong (RFC 6749 §4.1.2: a code is used once).
    pub async fn take_cross_app_code(
        &self,
        code_hash: &str,
        provider_app_id: &str,
        now: i64,
    ) -> Result<Option<CrossAppCode>, DbError> {
        let row: Option<(String, String, String, String, i64)> = sqlx::query_as(
            "DELETE FROM cross_app_codes WHERE code_hash = $1 AND provider_app_id = $2 AND expires_at > $3
             RETURNING client_app_id, user_id, redirect_uri, code_challenge, expires_at",
        )
        .bind(code_hash)
        .bind(provider_app_id)
        .bind(now)
        .fetch_optional(self.writer())
        .await?;
        Ok(row.map(
            |(client_app_id, user_id, redirect_uri, code_challenge, expires_at)| CrossAppCode {
                grant: CrossAppGrant {
                    provider_app_id: provider_app_id.to_string(),
                    client_app_id,
                    user_id,
                    expires_at,
                },
                redirect_uri,
                code_challenge,
            },
        ))
    }

    /// Stores a provider token.
    pub async fn insert_cross_app_token(
        &self,
        token_hash: &str,
        grant: &CrossAppGrant,
    ) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO cross_app_tokens (token_hash, provider_app_id, client_app_id, user_id, expires_at)
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(token_hash)
        .bind(&grant.provider_app_id)
        .bind(&grant.client_app_id)
        .bind(&grant.user_id)
        .bind(grant.expires_at)
        .execute(self.writer())
        .await?;
        Ok(())
    }

    /// The unexpired provider token with this hash.
    pub async fn find_cross_app_token(
        &self,
        token_hash: &str,
        now: i64,
    ) -> Result<Option<CrossAppGrant>, DbError> {
        let row: Option<(String, String, String, i64)> = sqlx::query_as(
            "SELECT provider_app_id, client_app_id, user_id, expires_at FROM cross_app_tokens
             WHERE token_hash = $1 AND expires_at > $2",
        )
        .bind(token_hash)
        .bind(now)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(
            |(provider_app_id, client_app_id, user_id, expires_at)| CrossAppGrant {
                provider_app_id,
                client_app_id,
                user_id,
                expires_at,
            },
        ))
    }
}
