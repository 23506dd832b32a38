//! Sign In With Farcaster nonces (migration 0008; `challenges` rows since 0018): issued with a
//! relay channel (v1) or alone for a Mini App (v2), used once.

use serde::{Deserialize, Serialize};

use super::challenges::{ChallengeKind, NewChallenge, scope};
use super::{Db, DbError};

/// A nonce as issued.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FarcasterNonce<'a> {
    /// The nonce the signed message must carry.
    pub nonce: &'a str,
    /// The app it was issued for.
    pub app_id: &'a str,
    /// SHA-256 (hex) of the relay channel token; `None` for a Mini App nonce.
    pub channel_token_hash: Option<&'a str>,
    /// The SIWE domain the message must name.
    pub domain: &'a str,
    /// Unix seconds; refused from then on.
    pub expires_at: i64,
}

/// What a channel's `challenges` row keeps beyond its key (the channel token's hash) and scope.
#[derive(Debug, Serialize, Deserialize)]
struct ChannelPayload {
    nonce: String,
}

impl Db {
    /// Stores a fresh nonce: with a channel (v1) a `farcaster_channel` row keyed by the channel
    /// token's hash, scoped to the domain and nonce; without (v2) a `farcaster_nonce` row keyed
    /// by the nonce (public, as before), scoped to the domain.
    pub async fn insert_farcaster_nonce(
        &self,
        nonce: &FarcasterNonce<'_>,
        now: i64,
    ) -> Result<(), DbError> {
        let payload = match nonce.channel_token_hash {
            Some(_) => serde_json::to_string(&ChannelPayload {
                nonce: nonce.nonce.to_string(),
            })
            .map_err(DbError::corrupt)?,
            None => "{}".to_string(),
        };
        let (kind, key_hash, scope) =
            farcaster_key(nonce.nonce, nonce.domain, nonce.channel_token_hash);
        let issued = NewChallenge {
            kind,
            key_hash,
            app_id: nonce.app_id,
            scope: &scope,
            payload: &payload,
            expires_at: nonce.expires_at,
        };
        self.issue_challenge(&issued, now).await
    }

    /// The nonce of the app's live channel with this token hash.
    pub async fn farcaster_channel_nonce(
        &self,
        app_id: &str,
        channel_token_hash: &str,
        now: i64,
    ) -> Result<Option<String>, DbError> {
        let Some(found) = self
            .find_challenge(
                ChallengeKind::FarcasterChannel,
                channel_token_hash,
                app_id,
                now,
            )
            .await?
        else {
            return Ok(None);
        };
        let payload: ChannelPayload =
            serde_json::from_str(&found.payload).map_err(DbError::corrupt)?;
        Ok(Some(payload.nonce))
    }

    /// Uses up the app's live `nonce` for `domain`, issued with this channel (v1) or without one
    /// (v2): one conditional DELETE, so of concurrent uses exactly one gets true.
    pub async fn take_farcaster_nonce(
        &self,
        app_id: &str,
        nonce: &str,
        domain: &str,
        channel_token_hash: Option<&str>,
        now: i64,
    ) -> Result<bool, DbError> {
        let (kind, key_hash, scope) = farcaster_key(nonce, domain, channel_token_hash);
        let taken = self
            .take_challenge(kind, key_hash, app_id, &scope, now)
            .await?;
        Ok(taken.is_some())
    }
}

/// The kind, key and scope of a Farcaster nonce's `challenges` row (see
/// [`Db::insert_farcaster_nonce`]).
fn farcaster_key<'a>(
    nonce: &'a str,
    domain: &str,
    channel_token_hash: Option<&'a str>,
) -> (ChallengeKind, &'a str, String) {
    match channel_token_hash {
        Some(hash) => (
            ChallengeKind::FarcasterChannel,
            hash,
            scope(&[domain, nonce]),
        ),
        None => (ChallengeKind::FarcasterNonce, nonce, domain.to_string()),
    }
}

/// A signer request as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FarcasterSignerRecord {
    /// The app.
    pub app_id: String,
    /// `0x` + 64 hex, lower case.
    pub public_key: String,
    /// The user who asked for it.
    pub user_id: String,
    /// The signed key request's polling token.
    pub request_token: String,
    /// Where the user approves it.
    pub approval_url: String,
    /// `pending_approval`, `approved` or `revoked`.
    pub status: String,
}

type SignerRow = (String, String, String, String, String, String);

impl Db {
    /// Stores a new signer request unless the key is already requested in this app; returns the
    /// stored one either way (the caller checks it is the same user's).
    pub async fn insert_farcaster_signer(
        &self,
        signer: &FarcasterSignerRecord,
        now: i64,
    ) -> Result<FarcasterSignerRecord, DbError> {
        sqlx::query(
            "INSERT INTO farcaster_signers
                 (app_id, public_key, user_id, request_token, approval_url, status, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (app_id, public_key) DO NOTHING",
        )
        .bind(&signer.app_id)
        .bind(&signer.public_key)
        .bind(&signer.user_id)
        .bind(&signer.request_token)
        .bind(&signer.approval_url)
        .bind(&signer.status)
        .bind(now)
        .execute(self.writer())
        .await?;
        self.farcaster_signer_in(self.writer(), &signer.app_id, &signer.public_key)
            .await?
            .ok_or(DbError::Conflict { constraint: None })
    }

    /// The app's signer request for `public_key`.
    pub async fn farcaster_signer(
        &self,
        app_id: &str,
        public_key: &str,
    ) -> Result<Option<FarcasterSignerRecord>, DbError> {
        self.farcaster_signer_in(self.pool(), app_id, public_key)
            .await
    }

    async fn farcaster_signer_in(
        &self,
        pool: &sqlx::AnyPool,
        app_id: &str,
        public_key: &str,
    ) -> Result<Option<FarcasterSignerRecord>, DbError> {
        let row: Option<SignerRow> = sqlx::query_as(
            "SELECT app_id, public_key, user_id, request_token, approval_url, status
             FROM farcaster_signers WHERE app_id = $1 AND public_key = $2",
        )
        .bind(app_id)
        .bind(public_key)
        .fetch_optional(pool)
        .await?;
        Ok(row.map(
            |(app_id, public_key, user_id, request_token, approval_url, status)| {
                FarcasterSignerRecord {
                    app_id,
                    public_key,
                    user_id,
                    request_token,
                    approval_url,
                    status,
                }
            },
        ))
    }

    /// Moves a pending signer to `status` (approved or revoked); a decided one stays decided.
    pub async fn settle_farcaster_signer(
        &self,
        app_id: &str,
        public_key: &str,
        status: &str,
    ) -> Result<bool, DbError> {
        let updated = sqlx::query(
            "UPDATE farcaster_signers SET status = $3
             WHERE app_id = $1 AND public_key = $2 AND status = 'pending_approval'",
        )
        .bind(app_id)
        .bind(public_key)
        .bind(status)
        .execute(self.writer())
        .await?
        .rows_affected();
        Ok(updated == 1)
    }

    /// Replaces the `details` JSON of the user's `(account_type, subject)` account.
    pub async fn set_account_details(
        &self,
        user_id: &str,
        account_type: &str,
        subject: &str,
        details: &str,
    ) -> Result<bool, DbError> {
        let updated = sqlx::query(
            "UPDATE linked_accounts SET details = $4
             WHERE user_id = $1 AND account_type = $2 AND subject = $3",
        )
        .bind(user_id)
        .bind(account_type)
        .bind(subject)
        .bind(details)
        .execute(self.writer())
        .await?
        .rows_affected();
        Ok(updated == 1)
    }
}
