//! Cross-app authorization codes (`challenges` rows since migration 0018) and provider tokens
//! (migration 0009). Only hashes are stored.

use serde::{Deserialize, Serialize};

use super::challenges::{ChallengeKind, NewChallenge};
use super::{Db, DbError};

/// What a code's `challenges` row keeps beyond its key and app.
#[derive(Debug, Serialize, Deserialize)]
struct CodePayload {
    client_app_id: String,
    user_id: String,
    redirect_uri: String,
    code_challenge: String,
}

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
    /// Stores a code (a `challenges` row of the provider app).
    pub async fn insert_cross_app_code(
        &self,
        code_hash: &str,
        code: &CrossAppCode,
        now: i64,
    ) -> Result<(), DbError> {
        let grant = &code.grant;
        let payload = serde_json::to_string(&CodePayload {
            client_app_id: grant.client_app_id.clone(),
            user_id: grant.user_id.clone(),
            redirect_uri: code.redirect_uri.clone(),
            code_challenge: code.code_challenge.clone(),
        })
        .map_err(DbError::corrupt)?;
        let issued = NewChallenge {
            kind: ChallengeKind::CrossAppCode,
            key_hash: code_hash,
            app_id: &grant.provider_app_id,
            scope: "",
            payload: &payload,
            expires_at: grant.expires_at,
        };
        self.issue_challenge(&issued, now).await
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
        let Some(taken) = self
            .take_challenge(
                ChallengeKind::CrossAppCode,
                code_hash,
                provider_app_id,
                "",
                now,
            )
            .await?
        else {
            return Ok(None);
        };
        let payload: CodePayload =
            serde_json::from_str(&taken.payload).map_err(DbError::corrupt)?;
        Ok(Some(CrossAppCode {
            grant: CrossAppGrant {
                provider_app_id: provider_app_id.to_string(),
                client_app_id: payload.client_app_id,
                user_id: payload.user_id,
                expires_at: taken.expires_at,
            },
            redirect_uri: payload.redirect_uri,
            code_challenge: payload.code_challenge,
        }))
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
