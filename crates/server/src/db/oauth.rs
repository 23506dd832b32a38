//! OAuth flows (`methods::oauth`): stored by init, read by the provider's callback, consumed
//! once by authenticate or link (`challenges` rows since migration 0018); and the provider codes each flow's callback received
//! (migration 0015), so a code is exchanged only for the flow that received it.

use serde::{Deserialize, Serialize};

use super::{Db, DbError};

/// A flow as `/oauth/init` stores it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OAuthFlow {
    /// SHA-256 of the state sent to the provider.
    pub upstream_state_hash: String,
    /// The app.
    pub app_id: String,
    /// The client's state, as sent.
    pub client_state: String,
    /// The client's PKCE challenge (S256).
    pub code_challenge: String,
    /// The provider name.
    pub provider: String,
    /// Where the callback sends the browser.
    pub redirect_to: String,
    /// Our PKCE verifier at the provider.
    pub upstream_verifier: String,
    /// SHA-256 of the OpenID nonce, or empty.
    pub nonce_hash: String,
    /// Unix seconds.
    pub expires_at: i64,
}

/// What a flow's `challenges` row keeps beyond its key (the upstream state's hash) and scope
/// (the client state).
#[derive(Debug, Serialize, Deserialize)]
struct FlowPayload {
    code_challenge: String,
    provider: String,
    redirect_to: String,
    upstream_verifier: String,
    nonce_hash: String,
}

type FlowRow = (String, String, String, i64);

/// The columns of [`FlowRow`].
const FLOW_COLUMNS: &str = "key_hash, scope, payload, expires_at";

fn flow(app_id: &str, row: FlowRow) -> Result<OAuthFlow, DbError> {
    let (upstream_state_hash, client_state, payload, expires_at) = row;
    let payload: FlowPayload = serde_json::from_str(&payload).map_err(DbError::corrupt)?;
    Ok(OAuthFlow {
        upstream_state_hash,
        app_id: app_id.to_string(),
        client_state,
        code_challenge: payload.code_challenge,
        provider: payload.provider,
        redirect_to: payload.redirect_to,
        upstream_verifier: payload.upstream_verifier,
        nonce_hash: payload.nonce_hash,
        expires_at,
    })
}

impl Db {
    /// Stores a flow as a `challenges` row in slot 0 of its client state, so an app has one live
    /// flow per client state; an expired one in the way is replaced in the same upsert.
    /// [`DbError::Conflict`] when the app already has a live flow with this client state.
    pub async fn insert_oauth_flow(&self, flow: &OAuthFlow, now: i64) -> Result<(), DbError> {
        let payload = serde_json::to_string(&FlowPayload {
            code_challenge: flow.code_challenge.clone(),
            provider: flow.provider.clone(),
            redirect_to: flow.redirect_to.clone(),
            upstream_verifier: flow.upstream_verifier.clone(),
            nonce_hash: flow.nonce_hash.clone(),
        })
        .map_err(DbError::corrupt)?;
        let stored = sqlx::query(
            "INSERT INTO challenges (kind, key_hash, app_id, scope, slot, payload, expires_at, created_at)
             VALUES ('oauth_flow', $1, $2, $3, 0, $4, $5, $6)
             ON CONFLICT (kind, app_id, scope, slot) DO UPDATE
             SET key_hash = excluded.key_hash, payload = excluded.payload,
                 expires_at = excluded.expires_at, created_at = excluded.created_at
             WHERE challenges.expires_at <= $6",
        )
        .bind(&flow.upstream_state_hash)
        .bind(&flow.app_id)
        .bind(&flow.client_state)
        .bind(payload)
        .bind(flow.expires_at)
        .bind(now)
        .execute(self.writer())
        .await?;
        if stored.rows_affected() == 0 {
            return Err(DbError::Conflict {
                constraint: Some("challenges_slot_unique".into()),
            });
        }
        Ok(())
    }

    /// The unexpired flow the provider's callback names by its state (not consumed).
    pub async fn find_oauth_flow(
        &self,
        upstream_state_hash: &str,
        now: i64,
    ) -> Result<Option<OAuthFlow>, DbError> {
        let row: Option<(String, String, String, String, i64)> = sqlx::query_as(
            "SELECT app_id, key_hash, scope, payload, expires_at FROM challenges
             WHERE kind = 'oauth_flow' AND key_hash = $1 AND expires_at > $2",
        )
        .bind(upstream_state_hash)
        .bind(now)
        .fetch_optional(self.pool())
        .await?;
        row.map(|(app_id, key, scope, payload, expires_at)| {
            flow(&app_id, (key, scope, payload, expires_at))
        })
        .transpose()
    }

    /// Consumes the app's unexpired flow with this client state: one conditional delete, so of
    /// concurrent callers exactly one gets it.
    pub async fn take_oauth_flow(
        &self,
        app_id: &str,
        client_state: &str,
        now: i64,
    ) -> Result<Option<OAuthFlow>, DbError> {
        let sql = format!(
            "DELETE FROM challenges WHERE kind = 'oauth_flow' AND app_id = $1 AND scope = $2
               AND slot = 0 AND expires_at > $3
             RETURNING {FLOW_COLUMNS}"
        );
        let row: Option<FlowRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(app_id)
            .bind(client_state)
            .bind(now)
            .fetch_optional(self.writer())
            .await?;
        row.map(|row| flow(app_id, row)).transpose()
    }

    /// Binds the provider's `code_hash`, received by our callback, to the flow of
    /// `upstream_state_hash`. True when the code is (now, or
    /// already: a reloaded callback) this flow's; false when another flow received this code or
    /// this flow another code. One insert that two unique keys guard, so of concurrent
    /// callbacks one binding wins.
    pub async fn bind_oauth_code(
        &self,
        code_hash: &str,
        upstream_state_hash: &str,
        expires_at: i64,
        now: i64,
    ) -> Result<bool, DbError> {
        // An expired binding of this code or flow is as good as none (the sweeper may not have
        // reached it yet): removed so it cannot hold either unique key against the new one.
        sqlx::query(
            "DELETE FROM oauth_codes WHERE (code_hash = $1 OR upstream_state_hash = $2)
             AND expires_at <= $3",
        )
        .bind(code_hash)
        .bind(upstream_state_hash)
        .bind(now)
        .execute(self.writer())
        .await?;
        sqlx::query(
            "INSERT INTO oauth_codes (code_hash, upstream_state_hash, expires_at)
             VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        )
        .bind(code_hash)
        .bind(upstream_state_hash)
        .bind(expires_at)
        .execute(self.writer())
        .await?;
        self.oauth_code_bound(code_hash, upstream_state_hash, now)
            .await
    }

    /// Whether our callback received `code_hash` for the flow of `upstream_state_hash` (and the
    /// binding has not expired).
    pub async fn oauth_code_bound(
        &self,
        code_hash: &str,
        upstream_state_hash: &str,
        now: i64,
    ) -> Result<bool, DbError> {
        let row: Option<(String,)> = sqlx::query_as(
            "SELECT code_hash FROM oauth_codes WHERE code_hash = $1 AND upstream_state_hash = $2
             AND expires_at > $3",
        )
        .bind(code_hash)
        .bind(upstream_state_hash)
        .bind(now)
        .fetch_optional(self.writer())
        .await?;
        Ok(row.is_some())
    }
}
