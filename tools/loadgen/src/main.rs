//! `loadgen`: drives a running Symbolon server at a fixed concurrency and prints throughput and latency.
//!
//! ```text
//! loadgen --api http://localhost:8787 --mailbox http://localhost:1080 --app-id … --origin http://localhost:5173 \
//!   refresh --connections 32 --duration 10
//! ```
//! The last line on stdout is the report as JSON; a human summary goes to stderr.

mod api;
mod error;
mod report;
mod scenarios;
mod worker;

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::{Parser, Subcommand};

use crate::api::Api;

#[derive(Parser)]
#[command(about = "HTTP load generator for the Symbolon server")]
struct Cli {
    /// Server base URL.
    #[arg(long, default_value = "http://localhost:8787")]
    api: String,
    /// Mailbox base URL (its JSON API hands out the login codes).
    #[arg(long, default_value = "http://localhost:1080")]
    mailbox: String,
    /// SMS catcher base URL (its JSON API hands out the texted codes).
    #[arg(long, default_value = "http://localhost:1081")]
    smsbox: String,
    /// The app id sent in `privy-app-id`.
    #[arg(long)]
    app_id: String,
    /// The `Origin` header: one of the app's allowed origins.
    #[arg(long, default_value = "http://localhost:5173")]
    origin: String,
    /// Tokio worker threads for the load generator itself.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    #[command(subcommand)]
    scenario: Scenario,
}

#[derive(Subcommand)]
enum Scenario {
    /// Sign in `sessions` users, then `connections` workers chain refreshes (each uses the token the last returned).
    Refresh {
        /// Concurrent connections.
        #[arg(long, default_value_t = 32)]
        connections: usize,
        /// Sessions created up front (default: one per connection).
        #[arg(long)]
        sessions: Option<usize>,
        /// Measured seconds.
        #[arg(long, default_value_t = 10)]
        duration: u64,
        /// Unmeasured seconds first.
        #[arg(long, default_value_t = 2)]
        warmup: u64,
    },
    /// `connections` workers sign in new users by email code, reading each code from the mailbox.
    EmailLogin {
        /// Concurrent connections.
        #[arg(long, default_value_t = 8)]
        connections: usize,
        /// Measured seconds.
        #[arg(long, default_value_t = 10)]
        duration: u64,
        /// Unmeasured seconds first.
        #[arg(long, default_value_t = 1)]
        warmup: u64,
    },
    /// Import `users` new users through `POST /v1/users/import` in batches, `connections` batches at a time.
    Import {
        /// Users to create.
        #[arg(long, default_value_t = 10_000)]
        users: usize,
        /// Users per request (the server takes up to 100).
        #[arg(long, default_value_t = 100)]
        batch: usize,
        /// Batches in flight.
        #[arg(long, default_value_t = 2)]
        connections: usize,
        /// The app secret (`/v1` Basic auth).
        #[arg(long)]
        secret: String,
    },
    /// `connections` workers walk the user list (`GET /v1/users`, pages of 100).
    ListUsers {
        /// Concurrent connections.
        #[arg(long, default_value_t = 8)]
        connections: usize,
        /// Measured seconds.
        #[arg(long, default_value_t = 10)]
        duration: u64,
        /// Unmeasured seconds first.
        #[arg(long, default_value_t = 1)]
        warmup: u64,
        /// The app secret (`/v1` Basic auth).
        #[arg(long)]
        secret: String,
    },
    /// `connections` workers sign with a delegated wallet through `POST /v1/wallets/{id}/rpc`, each request
    /// with its own authorization signature (as `@privy-io/node` makes it) and the app secret.
    WalletRpc {
        /// Concurrent connections.
        #[arg(long, default_value_t = 8)]
        connections: usize,
        /// Measured seconds.
        #[arg(long, default_value_t = 10)]
        duration: u64,
        /// Unmeasured seconds first.
        #[arg(long, default_value_t = 1)]
        warmup: u64,
        /// The app secret (`/v1` Basic auth).
        #[arg(long)]
        secret: String,
        /// The delegated wallet's id.
        #[arg(long)]
        wallet: String,
        /// The consented authorization key: base64 PKCS#8 P-256 (the SDK's form).
        #[arg(long)]
        key: String,
        /// `personal_sign` or `eth_signTransaction`.
        #[arg(long, default_value = "personal_sign")]
        method: String,
        /// The server's public URL, which the signatures cover (default: `--api`).
        #[arg(long)]
        public_url: Option<String>,
    },
    /// `connections` workers sign in new users by SMS code, reading each code from the SMS catcher.
    SmsLogin {
        /// Concurrent connections.
        #[arg(long, default_value_t = 8)]
        connections: usize,
        /// Measured seconds.
        #[arg(long, default_value_t = 10)]
        duration: u64,
        /// Unmeasured seconds first.
        #[arg(long, default_value_t = 1)]
        warmup: u64,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // reqwest is built without a TLS provider in this workspace; an error only means one is set.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(cli.threads.max(1))
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("loadgen: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(run(cli))
}

async fn run(cli: Cli) -> ExitCode {
    let connections = match &cli.scenario {
        Scenario::Refresh { connections, .. }
        | Scenario::EmailLogin { connections, .. }
        | Scenario::SmsLogin { connections, .. }
        | Scenario::Import { connections, .. }
        | Scenario::ListUsers { connections, .. }
        | Scenario::WalletRpc { connections, .. } => (*connections).max(1),
    };
    let api = match Api::new(
        &cli.api,
        &cli.mailbox,
        &cli.smsbox,
        &cli.app_id,
        &cli.origin,
        connections,
    ) {
        Ok(api) => Arc::new(api),
        Err(error) => {
            eprintln!("loadgen: {error}");
            return ExitCode::FAILURE;
        }
    };
    let report = match cli.scenario {
        Scenario::Refresh {
            sessions,
            duration,
            warmup,
            ..
        } => {
            let count = sessions.unwrap_or(connections).max(1);
            eprintln!("loadgen: signing in {count} users by email");
            let sessions = match scenarios::create_sessions(&api, count, connections.min(16)).await
            {
                Ok(sessions) => sessions,
                Err(error) => {
                    eprintln!("loadgen: could not create the sessions: {error}");
                    return ExitCode::FAILURE;
                }
            };
            scenarios::refresh(
                api,
                sessions,
                connections,
                Duration::from_secs(warmup),
                Duration::from_secs(duration),
            )
            .await
        }
        Scenario::EmailLogin {
            duration, warmup, ..
        } => {
            scenarios::email_login(
                api,
                connections,
                Duration::from_secs(warmup),
                Duration::from_secs(duration),
            )
            .await
        }
        Scenario::Import {
            users,
            batch,
            secret,
            ..
        } => scenarios::import(api, secret.into(), users, batch, connections).await,
        Scenario::ListUsers {
            duration,
            warmup,
            secret,
            ..
        } => {
            scenarios::list_users(
                api,
                secret.into(),
                connections,
                Duration::from_secs(warmup),
                Duration::from_secs(duration),
            )
            .await
        }
        Scenario::WalletRpc {
            duration,
            warmup,
            secret,
            wallet,
            key,
            method,
            public_url,
            ..
        } => {
            let signer = match scenarios::RequestSigner::new(
                public_url.as_deref().unwrap_or(&cli.api),
                &cli.app_id,
                &key,
            ) {
                Ok(signer) => signer,
                Err(error) => {
                    eprintln!("loadgen: {error}");
                    return ExitCode::FAILURE;
                }
            };
            scenarios::wallet_rpc(
                api,
                secret.into(),
                Arc::new(signer),
                wallet.into(),
                method.into(),
                connections,
                Duration::from_secs(warmup),
                Duration::from_secs(duration),
            )
            .await
        }
        Scenario::SmsLogin {
            duration, warmup, ..
        } => {
            scenarios::sms_login(
                api,
                connections,
                Duration::from_secs(warmup),
                Duration::from_secs(duration),
            )
            .await
        }
    };
    eprintln!("{}", report.human());
    for sample in &report.error_samples {
        eprintln!("  error: {sample}");
    }
    match serde_json::to_string(&report) {
        Ok(json) => println!("{json}"),
        Err(error) => {
            eprintln!("loadgen: cannot encode the report: {error}");
            return ExitCode::FAILURE;
        }
    }
    if report.ok == 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
