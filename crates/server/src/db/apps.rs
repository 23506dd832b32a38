//! Apps, their allowed origins and client ids.

use super::{Db, DbError};
use crate::app_settings::AppSettings;
use crate::origin::normalize_origin;

/// An app as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppRecord {
    /// 25-character id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Origins (`scheme://host[:port]`) browsers may call from, normalised as browsers send them
    /// ([`normalize_origin`]: lowercase, no default port).
    pub allowed_origins: Vec<String>,
    /// Client ids the host may send in `privy-client-id`.
    pub client_ids: Vec<String>,
    /// Refuse `+` addresses.
    pub disable_plus_emails: bool,
    /// Users must accept the terms.
    pub require_users_accept_terms: bool,
    /// Login methods, sign-up, allowlist, limits, custom auth, SMS.
    pub settings: AppSettings,
}

impl Db {
    /// Inserts the app, or replaces its settings when the id exists (idempotent seeding).
    pub async fn upsert_app(&self, app: &AppRecord, now: i64) -> Result<(), DbError> {
        let mut tx = self.writer().begin().await?;
        sqlx::query(
            "INSERT INTO apps (id, name, disable_plus_emails, require_users_accept_terms, created_at, settings)
             VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (id) DO UPDATE SET name = $2, disable_plus_emails = $3, require_users_accept_terms = $4, settings = $6",
        )
        .bind(&app.id)
        .bind(&app.name)
        .bind(i64::from(app.disable_plus_emails))
        .bind(i64::from(app.require_users_accept_terms))
        .bind(now)
        .bind(serde_json::to_string(&app.settings).unwrap_or_else(|_| "{}".into()))
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM app_origins WHERE app_id = $1")
            .bind(&app.id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM app_client_ids WHERE app_id = $1")
            .bind(&app.id)
            .execute(&mut *tx)
            .await?;
        // Stored in the form browsers send; a value that is no origin is kept as given (it can
        // never match a browser's `Origin`).
        let origins: Vec<String> = app
            .allowed_origins
            .iter()
            .map(|origin| normalize_origin(origin).unwrap_or_else(|| origin.clone()))
            .collect();
        for origin in dedup(&origins) {
            sqlx::query("INSERT INTO app_origins (app_id, origin) VALUES ($1, $2)")
                .bind(&app.id)
                .bind(origin)
                .execute(&mut *tx)
                .await?;
        }
        for client_id in dedup(&app.client_ids) {
            sqlx::query("INSERT INTO app_client_ids (app_id, client_id) VALUES ($1, $2)")
                .bind(&app.id)
                .bind(client_id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The app with this id, if any. One statement: it runs on every API call.
    pub async fn find_app(&self, id: &str) -> Result<Option<AppRecord>, DbError> {
        // One row for the app (`kind` 'app', its name in `value`), then one per origin and client id.
        let rows: Vec<(String, String, i64, i64)> = sqlx::query_as(
            "SELECT 'app' AS kind, name AS value, disable_plus_emails, require_users_accept_terms FROM apps WHERE id = $1
             UNION ALL SELECT 'settings', settings, 0, 0 FROM apps WHERE id = $1
             UNION ALL SELECT 'origin', origin, 0, 0 FROM app_origins WHERE app_id = $1
             UNION ALL SELECT 'client_id', client_id, 0, 0 FROM app_client_ids WHERE app_id = $1",
        )
        .bind(id)
        .fetch_all(self.pool())
        .await?;
        let mut app: Option<AppRecord> = None;
        let mut origins = Vec::new();
        let mut client_ids = Vec::new();
        let mut settings = None;
        for (kind, value, disable_plus_emails, require_users_accept_terms) in rows {
            match kind.as_str() {
                "app" => {
                    app = Some(AppRecord {
                        id: id.to_string(),
                        name: value,
                        allowed_origins: Vec::new(),
                        client_ids: Vec::new(),
                        disable_plus_emails: disable_plus_emails != 0,
                        require_users_accept_terms: require_users_accept_terms != 0,
                        settings: AppSettings::default(),
                    });
                }
                "settings" => settings = Some(AppSettings::from_stored(id, &value)),
                "origin" => origins.push(value),
                _ => client_ids.push(value),
            }
        }
        Ok(app.map(|app| AppRecord {
            allowed_origins: origins,
            client_ids,
            settings: settings.unwrap_or_default(),
            ..app
        }))
    }

    /// Whether any app allows `origin`, which must already be normalised (used to answer CORS
    /// preflights, which carry no app id).
    pub async fn origin_allowed_by_any_app(&self, origin: &str) -> Result<bool, DbError> {
        let row: Option<(String,)> =
            sqlx::query_as("SELECT origin FROM app_origins WHERE origin = $1 LIMIT 1")
                .bind(origin)
                .fetch_optional(self.pool())
                .await?;
        Ok(row.is_some())
    }
}

fn dedup(items: &[String]) -> Vec<&String> {
    let mut seen: Vec<&String> = Vec::new();
    for item in items {
        if !seen.contains(&item) {
            seen.push(item);
        }
    }
    seen
}
