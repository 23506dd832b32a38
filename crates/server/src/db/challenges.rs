//! The one store of single-use proofs (migration 0018): nonces, challenges, flows, codes and
//! offers a caller presents once. Each is a `challenges` row of its [`ChallengeKind`], keyed by the
//! hash of what the caller holds, bound to an app and a scope, used up by one conditional
//! `DELETE … RETURNING` that refuses expired rows, so of concurrent takes exactly one wins and
//! correctness never waits on [`Db::sweep_expired`], which only frees the space.

use super::{Db, DbError};

/// What a challenge row is; its name is the row's `kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChallengeKind {
    /// A wallet sign-in nonce (`/siwe/init`, `/siws/init`), in one of its address's slots.
    WalletNonce,
    /// A nonce for a signed embedded-wallet call, bound to the user, session and purpose.
    WalletChallenge,
    /// A WebAuthn challenge with its ceremony state.
    PasskeyChallenge,
    /// An OAuth flow (`/oauth/init`): found by its upstream state, taken by its client state.
    OAuthFlow,
    /// A cross-app authorization code.
    CrossAppCode,
    /// An offer to move an account to the user who just verified it.
    AccountTransfer,
    /// A Farcaster nonce with a relay channel (v1), keyed by the channel token's hash.
    FarcasterChannel,
    /// A Farcaster Mini App nonce (v2), keyed by the (public) nonce itself.
    FarcasterNonce,
}

impl ChallengeKind {
    /// The `kind` column's value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::WalletNonce => "wallet_nonce",
            Self::WalletChallenge => "wallet_challenge",
            Self::PasskeyChallenge => "passkey_challenge",
            Self::OAuthFlow => "oauth_flow",
            Self::CrossAppCode => "cross_app_code",
            Self::AccountTransfer => "account_transfer",
            Self::FarcasterChannel => "farcaster_channel",
            Self::FarcasterNonce => "farcaster_nonce",
        }
    }
}

/// A challenge to store.
#[derive(Debug, Clone, Copy)]
pub struct NewChallenge<'a> {
    /// Its kind.
    pub kind: ChallengeKind,
    /// SHA-256 (hex) of what the caller will present.
    pub key_hash: &'a str,
    /// The app it is issued for.
    pub app_id: &'a str,
    /// What the take must name besides the key ([`scope`]).
    pub scope: &'a str,
    /// The kind's own data, JSON.
    pub payload: &'a str,
    /// Unix seconds; refused from then on.
    pub expires_at: i64,
}

/// A challenge as found or taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredChallenge {
    /// Its key hash.
    pub key_hash: String,
    /// Its scope.
    pub scope: String,
    /// The kind's own data, JSON.
    pub payload: String,
    /// Unix seconds.
    pub expires_at: i64,
}

type ChallengeRow = (String, String, String, i64);

fn stored(row: ChallengeRow) -> StoredChallenge {
    let (key_hash, scope, payload, expires_at) = row;
    StoredChallenge {
        key_hash,
        scope,
        payload,
        expires_at,
    }
}

/// A scope from its parts, joined with `/`. Only the last part may contain a `/` (a subject, a
/// nonce): every other part is an id, a name or a hash, so the joined form is unambiguous.
pub fn scope(parts: &[&str]) -> String {
    parts.join("/")
}

/// Tables whose rows carry `expires_at` and are worthless after it: what [`Db::sweep_expired`]
/// deletes from. (OTP rows outlive their codes: they carry the address's counters.)
const EXPIRING_TABLES: &[&str] = &[
    "challenges",
    "mfa_tokens",
    "oauth_codes",
    "cross_app_tokens",
    "idempotency_keys",
];

impl Db {
    /// Stores a challenge. [`DbError::Conflict`] if its key is taken (keys are random hashes: in
    /// practice never).
    pub async fn issue_challenge(
        &self,
        challenge: &NewChallenge<'_>,
        now: i64,
    ) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO challenges (kind, key_hash, app_id, scope, payload, expires_at, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(challenge.kind.as_str())
        .bind(challenge.key_hash)
        .bind(challenge.app_id)
        .bind(challenge.scope)
        .bind(challenge.payload)
        .bind(challenge.expires_at)
        .bind(now)
        .execute(self.writer())
        .await?;
        Ok(())
    }

    /// Uses up the live challenge of this kind and key issued for exactly this app and scope:
    /// one conditional `DELETE … RETURNING`, so of concurrent takes exactly one gets it, and an
    /// expired row is refused whether or not it was swept yet.
    pub async fn take_challenge(
        &self,
        kind: ChallengeKind,
        key_hash: &str,
        app_id: &str,
        scope: &str,
        now: i64,
    ) -> Result<Option<StoredChallenge>, DbError> {
        let row: Option<ChallengeRow> = sqlx::query_as(
            "DELETE FROM challenges WHERE kind = $1 AND key_hash = $2 AND app_id = $3 AND scope = $4
               AND expires_at > $5
             RETURNING key_hash, scope, payload, expires_at",
        )
        .bind(kind.as_str())
        .bind(key_hash)
        .bind(app_id)
        .bind(scope)
        .bind(now)
        .fetch_optional(self.writer())
        .await?;
        Ok(row.map(stored))
    }

    /// The live challenge of this kind, key and app, not used up (a read: lets a caller find a
    /// row by its key before it can name the scope, or skip costly checks for a dead proof).
    pub async fn find_challenge(
        &self,
        kind: ChallengeKind,
        key_hash: &str,
        app_id: &str,
        now: i64,
    ) -> Result<Option<StoredChallenge>, DbError> {
        let row: Option<ChallengeRow> = sqlx::query_as(
            "SELECT key_hash, scope, payload, expires_at FROM challenges
             WHERE kind = $1 AND key_hash = $2 AND app_id = $3 AND expires_at > $4",
        )
        .bind(kind.as_str())
        .bind(key_hash)
        .bind(app_id)
        .bind(now)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(stored))
    }

    /// Deletes every expired row of the expiring tables (challenges, MFA tokens, OAuth code
    /// bindings, provider tokens) and the shared rate-limit budgets that are whole again; returns
    /// how many. Run by the sweeper in `serve`, never needed
    /// for correctness: every read and take checks `expires_at` itself.
    pub async fn sweep_expired(&self, now: i64) -> Result<u64, DbError> {
        let mut deleted = 0;
        for table in EXPIRING_TABLES {
            let sql = format!("DELETE FROM {table} WHERE expires_at <= $1");
            deleted += sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(now)
                .execute(self.writer())
                .await?
                .rows_affected();
        }
        // A budget whose arrival time has passed is whole again: forgetting it loses nothing.
        deleted += sqlx::query("DELETE FROM rate_limits WHERE tat_ms <= $1")
            .bind(now.saturating_mul(1_000))
            .execute(self.writer())
            .await?
            .rows_affected();
        // Webhook events whose deliveries are all finished, once a replay is unlikely.
        deleted += self
            .sweep_webhook_events(now - super::webhooks::KEPT_S)
            .await?;
        Ok(deleted)
    }
}
