//! The challenge store (migration 0018) on both backends: every row of a database built by the
//! migrations before it survives the move, each moved challenge is taken once; expired rows are
//! refused before the sweeper deletes them; concurrent takes agree on one winner.

use std::sync::Arc;

use symbolon_server::db::Db;
use symbolon_server::db::challenges::{ChallengeKind, NewChallenge};
use symbolon_server::db::mfa::TokenUse;
use symbolon_server::db::migrations;
use symbolon_server::db::otp::OtpKey;
use symbolon_server::db::wallet_nonces::WalletNonce;

use crate::common::{Backend, TestApp, fresh_database};

type TestResult = Result<(), Box<dyn std::error::Error + Send + Sync>>;

backend_tests!(
    every_row_survives_the_move_to_the_challenge_store,
    expired_challenges_are_refused_before_and_removed_by_the_sweep,
    concurrent_takes_of_one_challenge_have_one_winner,
);

const APP: &str = "cm0000000000000000000000app";
const USER: &str = "did:privy:migrated";
const SESSION: &str = "session-migrated";
const NOW: i64 = 1_900_000_000;
const LATER: i64 = NOW + 600;

/// Runs `sql` with `binds` (text, or integers when they parse) on the writer.
async fn exec(db: &Db, sql: &str, binds: &[&str]) -> TestResult {
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql.to_string()));
    for bind in binds {
        query = match bind.parse::<i64>() {
            Ok(number) => query.bind(number),
            Err(_) => query.bind(bind.to_string()),
        };
    }
    query.execute(db.writer()).await?;
    Ok(())
}

/// Fills every table of the schema before 0018 with rows (each single-use table with a live row).
async fn fill_schema_17(db: &Db) -> TestResult {
    let (now, later) = (NOW.to_string(), LATER.to_string());
    let rows: &[(&str, &[&str])] = &[
        (
            "INSERT INTO apps (id, name, disable_plus_emails, require_users_accept_terms, created_at, settings, user_count)
             VALUES ($1, 'Migrated', 0, 0, $2, '{}', 1)",
            &[APP, &now],
        ),
        ("INSERT INTO app_origins (app_id, origin) VALUES ($1, 'https://shop.example')", &[APP]),
        ("INSERT INTO app_client_ids (app_id, client_id) VALUES ($1, 'client-m')", &[APP]),
        (
            "INSERT INTO users (id, app_id, created_at, has_accepted_terms, is_guest) VALUES ($1, $2, $3, 1, 0)",
            &[USER, APP, &now],
        ),
        (
            "INSERT INTO linked_accounts (id, app_id, user_id, account_type, subject, first_verified_at,
               latest_verified_at, created_at, details)
             VALUES ('acc-email', $1, $2, 'email', 'm@example.com', $3, $3, $3, NULL),
                    ('acc-passkey', $1, $2, 'passkey', 'cred-1', $3, $3, $3,
                     '{\"public_key\":\"pk\",\"counter\":7,\"enrolled_in_mfa\":true}'),
                    ('acc-wallet', $1, $2, 'wallet', '0x00000000000000000000000000000000000000aa', $3, $3, $3, NULL)",
            &[APP, USER, &now],
        ),
        (
            "INSERT INTO sessions (id, app_id, user_id, created_at, expires_at, revoked_at, recovery_used_at, fresh_since)
             VALUES ($1, $2, $3, $4, $5, NULL, NULL, $4)",
            &[SESSION, APP, USER, &now, &later],
        ),
        (
            "INSERT INTO refresh_tokens (token_hash, session_id, parent_hash, created_at, rotated_at)
             VALUES ('refresh-hash', $1, NULL, $2, NULL)",
            &[SESSION, &now],
        ),
        (
            "INSERT INTO otp_codes (app_id, channel, subject, code_hash, expires_at, sent_at, sends, sends_since)
             VALUES ($1, 'email', 'm@example.com', 'code-hash', $2, $3, 1, $3)",
            &[APP, &later, &now],
        ),
        (
            "INSERT INTO otp_failures (app_id, channel, subject, network, failures, failures_since)
             VALUES ($1, 'email', 'm@example.com', '10.0.0.0/24', 2, $2)",
            &[APP, &now],
        ),
        (
            "INSERT INTO embedded_wallets (id, app_id, user_id, address, chain_type, wallet_index,
               recovery_method, imported, created_at)
             VALUES ('acc-wallet', $1, $2, '0x00000000000000000000000000000000000000aa', 'ethereum', 0,
               'privy', 0, $3)",
            &[APP, USER, &now],
        ),
        (
            "INSERT INTO wallet_auth_shares (user_id, chain_type, envelope, updated_at, device_public_key)
             VALUES ($1, 'ethereum', 'auth-envelope', $2, 'device-key')",
            &[USER, &now],
        ),
        (
            "INSERT INTO wallet_recovery_shares (user_id, chain_type, envelope, updated_at)
             VALUES ($1, 'ethereum', 'recovery-envelope', $2)",
            &[USER, &now],
        ),
        (
            "INSERT INTO mfa_methods (user_id, method, phone_number, verified_at) VALUES ($1, 'totp', NULL, $2)",
            &[USER, &now],
        ),
        (
            "INSERT INTO mfa_totp (user_id, secret, pending_secret, pending_expires_at, last_step)
             VALUES ($1, 'sealed-secret', NULL, 0, 42)",
            &[USER],
        ),
        (
            "INSERT INTO mfa_tokens (token_hash, app_id, user_id, session_id, method, expires_at, issued_at, sign_uses)
             VALUES ('mfa-token-hash', $1, $2, $3, 'totp', $4, $5, 0)",
            &[APP, USER, SESSION, &later, &now],
        ),
        (
            "INSERT INTO cross_app_tokens (token_hash, provider_app_id, client_app_id, user_id, expires_at)
             VALUES ('provider-token-hash', $1, 'client-app', $2, $3)",
            &[APP, USER, &later],
        ),
        (
            "INSERT INTO oauth_codes (code_hash, upstream_state_hash, expires_at)
             VALUES ('oauth-code-hash', 'upstream-state-hash', $1)",
            &[&later],
        ),
        // The single-use tables that move.
        (
            "INSERT INTO wallet_nonces (nonce_hash, app_id, chain_type, address, slot, seq, expires_at)
             VALUES ('siwe-nonce-hash', $1, 'ethereum', '0xAbC', 3, 5, $2)",
            &[APP, &later],
        ),
        (
            "INSERT INTO wallet_challenges (nonce_hash, user_id, session_id, purpose, expires_at)
             VALUES ('wallet-challenge-hash', $1, $2, 'key_material', $3)",
            &[USER, SESSION, &later],
        ),
        (
            "INSERT INTO passkey_challenges (challenge_hash, app_id, purpose, user_id, state, expires_at)
             VALUES ('passkey-challenge-hash', $1, 'link', $2, '{\"ceremony\":\"state\"}', $3)",
            &[APP, USER, &later],
        ),
        (
            "INSERT INTO oauth_flows (upstream_state_hash, app_id, client_state, code_challenge, provider,
               redirect_to, upstream_verifier, nonce_hash, expires_at)
             VALUES ('flow-state-hash', $1, 'client-state', 'pkce', 'github',
               'https://shop.example/cb?q=\"quoted\"&b=back\\slash', 'verifier', '', $2)",
            &[APP, &later],
        ),
        (
            "INSERT INTO cross_app_codes (code_hash, provider_app_id, client_app_id, user_id, redirect_uri,
               code_challenge, expires_at)
             VALUES ('cross-code-hash', $1, 'client-app', $2, 'https://client.example/cb', 'pkce', $3)",
            &[APP, USER, &later],
        ),
        (
            "INSERT INTO account_transfers (nonce_hash, app_id, account_type, subject, to_user_id, expires_at)
             VALUES ('transfer-hash', $1, 'custom_auth', 'sub/with/slashes', $2, $3)",
            &[APP, USER, &later],
        ),
        (
            "INSERT INTO farcaster_nonces (nonce, app_id, channel_token_hash, domain, expires_at)
             VALUES ('fc-channel-nonce', $1, 'channel-token-hash', 'shop.example', $2),
                    ('fc-miniapp-nonce', $1, NULL, 'shop.example', $2)",
            &[APP, &later],
        ),
        (
            "INSERT INTO farcaster_signers (app_id, public_key, user_id, request_token, approval_url, status, created_at)
             VALUES ($1, '0xkey', $2, 'request-token', 'https://approve', 'pending_approval', $3)",
            &[APP, USER, &now],
        ),
    ];
    for (sql, binds) in rows {
        exec(db, sql, binds).await?;
    }
    Ok(())
}

async fn every_row_survives_the_move_to_the_challenge_store(backend: Backend) {
    every_row_survives(backend).await.expect("migration test");
}

async fn every_row_survives(backend: Backend) -> TestResult {
    let db = Db::connect(&fresh_database(backend).await).await?;
    migrations::migrator(Some(18)).run(db.writer()).await?;
    fill_schema_17(&db).await?;
    db.migrate().await?;

    // Users, accounts, sessions.
    let user = db.find_user(APP, USER).await?.ok_or("user lost")?;
    assert!(user.has_accepted_terms && !user.is_guest);
    let accounts = db.linked_accounts(USER).await?;
    let mut subjects: Vec<_> = accounts.iter().map(|a| a.subject.as_str()).collect();
    subjects.sort_unstable();
    assert_eq!(
        subjects,
        [
            "0x00000000000000000000000000000000000000aa",
            "cred-1",
            "m@example.com"
        ]
    );
    let session = db.find_session(SESSION).await?.ok_or("session lost")?;
    assert_eq!(
        (session.expires_at, session.fresh_since),
        (LATER, Some(NOW))
    );
    assert!(db.find_refresh_token("refresh-hash").await?.is_some());
    let otp = OtpKey {
        app_id: APP,
        channel: "email",
        subject: "m@example.com",
    };
    assert_eq!(db.otp_state(otp).await?.ok_or("otp lost")?.sends, 1);

    // Wallets and shares.
    let wallets = db.embedded_wallets(USER, "ethereum").await?;
    assert_eq!(wallets.len(), 1);
    assert_eq!(
        db.auth_share_envelope(USER, "ethereum").await?,
        Some(("auth-envelope".into(), Some("device-key".into())))
    );
    assert_eq!(
        db.recovery_share_envelope(USER, "ethereum").await?,
        Some("recovery-envelope".into())
    );

    // MFA and passkeys.
    let methods = db.mfa_methods(USER).await?;
    assert_eq!(methods.len(), 1);
    assert_eq!(db.totp(USER).await?.ok_or("totp lost")?.last_step, 42);
    let token = TokenUse {
        hash: "mfa-token-hash",
        app_id: APP,
        user_id: USER,
        session_id: SESSION,
        now: NOW,
    };
    assert!(db.mfa_token_valid(token).await?);
    let passkey = db
        .find_passkey(APP, "cred-1")
        .await?
        .ok_or("passkey lost")?;
    assert!(symbolon_server::db::passkeys::is_enrolled_in_mfa(
        &passkey.details
    ));
    assert!(
        db.find_cross_app_token("provider-token-hash", NOW)
            .await?
            .is_some()
    );
    assert!(
        db.oauth_code_bound("oauth-code-hash", "upstream-state-hash", NOW)
            .await?
    );
    assert!(db.farcaster_signer(APP, "0xkey").await?.is_some());

    // Each moved challenge: found where the old table found it, taken exactly once.
    let nonce = WalletNonce {
        nonce_hash: "siwe-nonce-hash",
        app_id: APP,
        chain_type: "ethereum",
        address: "0xAbC",
        expires_at: LATER,
    };
    assert_eq!(db.count_wallet_nonces(APP, "ethereum", "0xAbC").await?, 1);
    assert!(db.wallet_nonce_live(&nonce, NOW).await?);
    assert!(db.take_wallet_nonce(&nonce, NOW).await?);
    assert!(!db.take_wallet_nonce(&nonce, NOW).await?);

    let wallet_challenge = |db: Db| async move {
        db.consume_wallet_challenge("wallet-challenge-hash", USER, SESSION, "key_material", NOW)
            .await
    };
    assert!(wallet_challenge(db.clone()).await?);
    assert!(!wallet_challenge(db.clone()).await?);

    let passkey_take =
        || db.take_passkey_challenge("passkey-challenge-hash", APP, "link", USER, NOW);
    assert_eq!(
        passkey_take().await?.as_deref(),
        Some("{\"ceremony\":\"state\"}")
    );
    assert_eq!(passkey_take().await?, None);

    let flow = db
        .find_oauth_flow("flow-state-hash", NOW)
        .await?
        .ok_or("flow lost")?;
    assert_eq!(
        (
            flow.client_state.as_str(),
            flow.provider.as_str(),
            flow.redirect_to.as_str()
        ),
        (
            "client-state",
            "github",
            "https://shop.example/cb?q=\"quoted\"&b=back\\slash"
        )
    );
    let taken = db.take_oauth_flow(APP, "client-state", NOW).await?;
    assert_eq!(taken.as_ref(), Some(&flow));
    assert_eq!(db.take_oauth_flow(APP, "client-state", NOW).await?, None);

    let code = db
        .take_cross_app_code("cross-code-hash", APP, NOW)
        .await?
        .ok_or("cross-app code lost")?;
    assert_eq!(
        (code.grant.user_id.as_str(), code.redirect_uri.as_str()),
        (USER, "https://client.example/cb")
    );
    assert!(
        db.take_cross_app_code("cross-code-hash", APP, NOW)
            .await?
            .is_none()
    );

    let transfer = || {
        db.take_transfer(
            "transfer-hash",
            APP,
            "custom_auth",
            "sub/with/slashes",
            USER,
            NOW,
        )
    };
    assert!(transfer().await?);
    assert!(!transfer().await?);

    assert_eq!(
        db.farcaster_channel_nonce(APP, "channel-token-hash", NOW)
            .await?,
        Some("fc-channel-nonce".into())
    );
    let channel = || {
        db.take_farcaster_nonce(
            APP,
            "fc-channel-nonce",
            "shop.example",
            Some("channel-token-hash"),
            NOW,
        )
    };
    assert!(channel().await?);
    assert!(!channel().await?);
    let miniapp = || db.take_farcaster_nonce(APP, "fc-miniapp-nonce", "shop.example", None, NOW);
    assert!(miniapp().await?);
    assert!(!miniapp().await?);

    // The old tables are gone; the store holds nothing more.
    for table in ["wallet_nonces", "oauth_flows", "farcaster_nonces"] {
        let sql = format!("SELECT COUNT(*) FROM {table}");
        let gone = sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(db.pool())
            .await;
        assert!(gone.is_err(), "{table} still exists");
    }
    let (left,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM challenges")
        .fetch_one(db.pool())
        .await?;
    assert_eq!(left, 0);
    db.close().await;
    Ok(())
}

async fn expired_challenges_are_refused_before_and_removed_by_the_sweep(backend: Backend) {
    expired_refused(backend).await.expect("sweep test");
}

async fn expired_refused(backend: Backend) -> TestResult {
    let t = TestApp::start(backend).await;
    let db = &t.state.db;
    let now = t.state.clock.now();
    for (key, expires_at) in [("expired", now), ("live", now + 60)] {
        let challenge = NewChallenge {
            kind: ChallengeKind::AccountTransfer,
            key_hash: key,
            app_id: &t.app_id,
            scope: "scope",
            payload: "{}",
            expires_at,
        };
        db.issue_challenge(&challenge, now - 10).await?;
    }
    // Not swept yet, and still refused: the take checks the expiry itself.
    let take = |key: &'static str| {
        db.take_challenge(ChallengeKind::AccountTransfer, key, &t.app_id, "scope", now)
    };
    assert_eq!(take("expired").await?, None);
    let count = || async {
        let (n,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM challenges WHERE kind = 'account_transfer'")
                .fetch_one(db.pool())
                .await?;
        Ok::<_, sqlx::Error>(n)
    };
    assert_eq!(count().await?, 2);
    assert!(db.sweep_expired(now).await? >= 1);
    assert_eq!(count().await?, 1);
    // The live one is untouched by the sweep and taken once.
    assert!(take("live").await?.is_some());
    assert_eq!(take("live").await?, None);
    Ok(())
}

async fn concurrent_takes_of_one_challenge_have_one_winner(backend: Backend) {
    concurrent_takes(backend).await.expect("concurrent takes");
}

async fn concurrent_takes(backend: Backend) -> TestResult {
    let t = TestApp::start(backend).await;
    let db = Arc::new(t.state.db.clone());
    let now = t.state.clock.now();
    let challenge = NewChallenge {
        kind: ChallengeKind::CrossAppCode,
        key_hash: "contested",
        app_id: &t.app_id,
        scope: "",
        payload: "{}",
        expires_at: now + 60,
    };
    db.issue_challenge(&challenge, now).await?;
    let mut takes = tokio::task::JoinSet::new();
    for _ in 0..16 {
        let (db, app) = (Arc::clone(&db), t.app_id.clone());
        takes.spawn(async move {
            db.take_challenge(ChallengeKind::CrossAppCode, "contested", &app, "", now)
                .await
        });
    }
    let mut winners = 0;
    while let Some(taken) = takes.join_next().await {
        if taken??.is_some() {
            winners += 1;
        }
    }
    assert_eq!(winners, 1);
    Ok(())
}
