//! OAuth flows (`methods::oauth`): stored by init, read by the provider's callback, consumed
//! once by authenticate or link; and the provider codes each flow's callback received
//! (migration 0015), so a code is exchanged only for the flow that received it.

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

type FlowRow = (
    String,
    String,
    String,
    String,
    String,
    String,
    String,
    String,
    i64,
);

macro_rules! columns {
    () => {
        "upstream_state_hash, app_id, client_state, code_challenge, provider, redirect_to, \
         upstream_verifier, nonce_hash, expires_at"
    };
}

fn flow(row: FlowRow) -> OAuthFlow {
    let (upstream_state_hash, app_id, client_state, code_challenge, provider, redirect_to) =
        (row.0, row.1, row.2, row.3, row.4, row.5);
    OAuthFlow {
        upstream_state_hash,
        app_id,
        client_state,
        code_challenge,
        provider,
        redirect_to,
        upstream_verifier: row.6,
        nonce_hash: row.7,
        expires_at: row.8,
    }
}

impl Db {
    /// Stores a flow, dropping expired ones first. [`DbError::Conflict`] when the app already
    /// has a flow with this client state.
    pub async fn insert_oauth_flow(&self, flow: &OAuthFlow, now: i64) -> Result<(), DbError> {
        sqlx::query("DELETE FROM oauth_flows WHERE expires_at <= $1")
            .bind(now)
            .execute(self.writer())
            .await?;
        sqlx::query(concat!(
            "INSERT INTO oauth_flows (",
            columns!(),
            ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
        ))
        .bind(&flow.upstream_state_hash)
        .bind(&flow.app_id)
        .bind(&flow.client_state)
        .bind(&flow.code_challenge)
        .bind(&flow.provider)
        .bind(&flow.redirect_to)
        .bind(&flow.upstream_verifier)
        .bind(&flow.nonce_hash)
        .bind(flow.expires_at)
        .execute(self.writer())
        .await?;
        Ok(())
    }

    /// The unexpired flow the provider's callback names by its state (not consumed).
    pub async fn find_oauth_flow(
        &self,
        upstream_state_hash: &str,
        now: i64,
    ) -> Result<Option<OAuthFlow>, DbError> {
        let row: Option<FlowRow> = sqlx::query_as(concat!(
            "SELECT ",
            columns!(),
            " FROM oauth_flows WHERE upstream_state_hash = $1 AND expires_at > $2"
        ))
        .bind(upstream_state_hash)
        .bind(now)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(flow))
    }

    /// Consumes the app's unexpired flow with this client state: one conditional delete, so of
    /// concurrent callers exactly one gets it.
    pub async fn take_oauth_flow(
        &self,
        app_id: &str,
        client_state: &str,
        now: i64,
    ) -> Result<Option<OAuthFlow>, DbError> {
        let row: Option<FlowRow> = sqlx::query_as(concat!(
            "DELETE FROM oauth_flows WHERE app_id = $1 AND client_state = $2 AND expires_at > $3 \
             RETURNING ",
            columns!()
        ))
        .bind(app_id)
        .bind(client_state)
        .bind(now)
        .fetch_optional(self.writer())
        .await?;
        Ok(row.map(flow))
    }

    /// Binds the provider's `code_hash`, received by our callback, to the flow of
    /// `upstream_state_hash`; drops expired bindings first. True when the code is (now, or
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
        sqlx::query("DELETE FROM oauth_codes WHERE expires_at <= $1")
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
