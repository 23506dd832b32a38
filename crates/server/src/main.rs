//! `symbolon`: serve the API, run migrations, or manage apps (see `symbolon --help`).

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Arc;

use axum::extract::FromRef;
use clap::Parser;
use symbolon_server::accounts::AccountDeps;
use symbolon_server::api_secrets::make_secret;
use symbolon_server::app_secrets::AppSecrets;
use symbolon_server::app_settings::AppSettings;
use symbolon_server::cli::{
    AppsCommand, Cli, Command, CreateApp, EndpointCommand, SecretCommand, UsersCommand,
    WebhooksCommand, is_valid_app_id,
};
use symbolon_server::clock::Clock;
use symbolon_server::config::Config;
use symbolon_server::db::Db;
use symbolon_server::db::apps::AppRecord;
use symbolon_server::keys::ShareVault;
use symbolon_server::keys::sealing::SealingKey;
use symbolon_server::keys::wallet_transfer::{TransferKey, parse_public_key};
use symbolon_server::mail::SmtpMailer;
use symbolon_server::origin::normalize_origin;
use symbolon_server::random::random_id;
use symbolon_server::server_api::deps::ServerApiDeps;
use symbolon_server::server_api::export;
use symbolon_server::wallets::deps::ServerWalletDeps;
use symbolon_server::webhooks::{self, WebhookDeps, endpoints};
use symbolon_server::{AppState, app, serve};
use symbolon_signer::service::SignerOptions;
use tracing_subscriber::EnvFilter;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    let config = match Config::load(cli.config.as_deref()) {
        Ok(config) => config,
        Err(error) => {
            eprintln!("symbolon: {error}");
            return ExitCode::FAILURE;
        }
    };
    // Logs go to stderr so `apps create` can print only the id on stdout.
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_new(&config.log).unwrap_or_else(|_| EnvFilter::new("info")))
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    let result = match cli.command {
        Command::Serve => serve(config).await,
        Command::Migrate => open_db(&config).await.map(|_| ()),
        Command::Apps {
            command: AppsCommand::Create(args),
        } => create_app(&config, args).await,
        Command::Apps {
            command: AppsCommand::Secret { command },
        } => app_secret(&config, command).await,
        Command::Users { command } => users_command(&config, command).await,
        Command::Webhooks { command } => webhooks_command(&config, command).await,
        Command::Signer(args) => symbolon_signer::service::run(SignerOptions {
            key_file: args.key_file,
            state_file: args.state_file,
            listen: args.listen,
        })
        .await
        .map_err(Into::into),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("symbolon: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn open_db(config: &Config) -> Result<Db, BoxError> {
    let db = Db::connect(&config.database_url).await?;
    db.migrate().await?;
    Ok(db)
}

async fn serve(config: Config) -> Result<(), BoxError> {
    if let Some(problem) = config.public_url_problem() {
        return Err(problem.into());
    }
    let db = open_db(&config).await?;
    let mailer = Arc::new(SmtpMailer::new(&config.smtp)?);
    let listener = tokio::net::TcpListener::bind(&config.listen).await?;
    let state = AppState::new(config, db.clone(), mailer, Clock::system()).await?;
    tracing::info!(address = %listener.local_addr()?, public_url = %state.config.public_url, "symbolon listening");
    match &state.signer {
        Some(signer) => tracing::info!(
            signer = %signer.base(),
            "custody: wallet keys live only in users' browsers, except wallets users delegate: those are sealed to the signer, which signs only what a consented authorization key signed within the consented policies"
        ),
        None => tracing::info!(
            "custody: wallet keys live only in users' browsers; no signer is configured, so delegated actions are off (SYMBOLON_SIGNER_URL)"
        ),
    }
    let http = state.config.http.clone();
    let sweeper = serve::spawn_expiry_sweeper(db.clone(), state.clock.clone());
    let deliveries = webhooks::delivery::spawn_worker(WebhookDeps::from_ref(&state));
    serve::serve(listener, app(state), &http, shutdown_signal()).await;
    sweeper.abort();
    deliveries.abort();
    db.close().await;
    tracing::info!("symbolon stopped");
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::warn!(%error, "cannot listen for ctrl-c");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(error) => {
                tracing::warn!(%error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}

async fn create_app(config: &Config, args: CreateApp) -> Result<(), BoxError> {
    let settings = app_settings(&args)?;
    let id = match args.id {
        Some(id) if is_valid_app_id(&id) => id,
        Some(id) => {
            return Err(
                format!("invalid app id {id:?}: need 25 lowercase letters or digits").into(),
            );
        }
        None => random_id(symbolon_protocol::constants::APP_ID_LENGTH)?,
    };
    let mut origins = Vec::new();
    for raw in &args.origins {
        origins.push(normalize_origin(raw).ok_or_else(|| format!("invalid origin {raw:?}"))?);
    }
    // The secrets are stored sealed under the server's sealing key, bound to this app.
    let secrets = AppSecrets::new(&SealingKey::load(config)?);
    let settings = settings.sealed(&secrets, &id)?;
    let db = open_db(config).await?;
    let record = AppRecord {
        id,
        name: args.name,
        allowed_origins: origins,
        client_ids: args.client_ids,
        disable_plus_emails: args.disable_plus_emails,
        require_users_accept_terms: args.require_terms,
        settings,
    };
    db.upsert_app(&record, Clock::system().now()).await?;
    db.close().await;
    println!("{}", record.id);
    Ok(())
}

/// `symbolon apps secret create|list|revoke`.
async fn app_secret(config: &Config, command: SecretCommand) -> Result<(), BoxError> {
    let db = open_db(config).await?;
    let result = run_secret_command(&db, command).await;
    db.close().await;
    result
}

async fn run_secret_command(db: &Db, command: SecretCommand) -> Result<(), BoxError> {
    let (SecretCommand::Create { app }
    | SecretCommand::List { app }
    | SecretCommand::Revoke { app, .. }) = &command;
    if db.find_app(app).await?.is_none() {
        return Err(format!("no app {app:?}").into());
    }
    let now = Clock::system().now();
    match &command {
        SecretCommand::Create { app } => {
            let made = make_secret(app, now)?;
            db.insert_api_secret(&made.record).await?;
            eprintln!("symbolon: the secret is shown this once; only its hash is kept");
            println!("{}", made.secret.as_str());
        }
        SecretCommand::List { app } => {
            let at = |t: Option<i64>| t.map_or_else(|| "-".to_string(), |t| t.to_string());
            println!("id\tcreated_at\tlast_used_at\trevoked_at");
            for secret in db.api_secrets_of_app(app).await? {
                let (used, revoked) = (at(secret.last_used_at), at(secret.revoked_at));
                println!("{}\t{}\t{used}\t{revoked}", secret.id, secret.created_at);
            }
        }
        SecretCommand::Revoke { app, id } => {
            if !db.revoke_api_secret(app, id, now).await? {
                return Err(format!("app {app:?} has no live secret {id:?}").into());
            }
        }
    }
    Ok(())
}

/// `symbolon webhooks …`.
async fn webhooks_command(config: &Config, command: WebhooksCommand) -> Result<(), BoxError> {
    let db = open_db(config).await?;
    let deps = WebhookDeps {
        db: db.clone(),
        clock: Clock::system(),
        app_secrets: Arc::new(AppSecrets::new(&SealingKey::load(config)?)),
        outbound: symbolon_server::outbound_http::outbound_client()?,
    };
    let result = run_webhooks_command(&deps, command).await;
    db.close().await;
    result
}

async fn run_webhooks_command(
    deps: &WebhookDeps,
    command: WebhooksCommand,
) -> Result<(), BoxError> {
    let db = &deps.db;
    let app = match &command {
        WebhooksCommand::Endpoint {
            command:
                EndpointCommand::Create { app, .. }
                | EndpointCommand::List { app }
                | EndpointCommand::Delete { app, .. },
        }
        | WebhooksCommand::Deliveries { app, .. }
        | WebhooksCommand::Replay { app, .. } => app,
    };
    if db.find_app(app).await?.is_none() {
        return Err(format!("no app {app:?}").into());
    }
    match command {
        WebhooksCommand::Endpoint { command } => match command {
            EndpointCommand::Create { app, url, events } => {
                let made = endpoints::create(deps, &app, &url, &events).await?;
                eprintln!(
                    "symbolon: endpoint {} gets {} events at {}; its signing secret is shown this once",
                    made.endpoint.id,
                    endpoints::describe_filter(&made.endpoint.events),
                    made.endpoint.url
                );
                println!("{}", made.secret.as_str());
            }
            EndpointCommand::List { app } => {
                println!("id	url	events	created_at");
                for e in db.webhook_endpoints(&app).await? {
                    let events = endpoints::describe_filter(&e.events);
                    println!("{}	{}	{events}	{}", e.id, e.url, e.created_at);
                }
            }
            EndpointCommand::Delete { app, id } => {
                if !db.delete_webhook_endpoint(&app, &id).await? {
                    return Err(format!("app {app:?} has no endpoint {id:?}").into());
                }
            }
        },
        WebhooksCommand::Deliveries {
            app,
            status,
            limit,
            id,
        } => {
            if let Some(id) = id {
                println!("attempt	at	status	ms	error");
                for (attempt, at, status, error, ms) in db.webhook_attempts(&id).await? {
                    let status = status.map_or_else(|| "-".into(), |s| s.to_string());
                    println!("{attempt}	{at}	{status}	{ms}	{}", error.unwrap_or_default());
                }
                return Ok(());
            }
            println!("id	event	url	status	attempts	last_response	next_attempt_at	last_error");
            for d in db
                .webhook_deliveries(&app, status.as_deref(), limit)
                .await?
            {
                let response = d
                    .last_response
                    .map_or_else(|| "-".into(), |s| s.to_string());
                let next = if d.status == "pending" {
                    d.next_attempt_at.to_string()
                } else {
                    "-".into()
                };
                println!(
                    "{}	{}	{}	{}	{}	{response}	{next}	{}",
                    d.id,
                    d.event_type,
                    d.url,
                    d.status,
                    d.attempts,
                    d.last_error.unwrap_or_default()
                );
            }
        }
        WebhooksCommand::Replay { app, id } => {
            if !db
                .replay_webhook_delivery(&app, &id, deps.clock.now())
                .await?
            {
                return Err(format!("app {app:?} has no delivery {id:?}").into());
            }
            eprintln!("symbolon: delivery {id} is due now");
        }
    }
    Ok(())
}

/// `symbolon users export|import`.
async fn users_command(config: &Config, command: UsersCommand) -> Result<(), BoxError> {
    if let UsersCommand::TransferKey = command {
        // Derived from the sealing key: nothing is read from the database.
        println!(
            "{}",
            TransferKey::derive(&SealingKey::load(config)?).public_text()
        );
        return Ok(());
    }
    if let UsersCommand::Import {
        app,
        file,
        url: Some(url),
    } = &command
    {
        return import_over_http(app, file, url).await;
    }
    let db = open_db(config).await?;
    let result = run_users_command(config, &db, command).await;
    db.close().await;
    result
}

/// The rows of an import file (`.csv` as CSV, anything else as JSON).
fn import_rows(file: &std::path::Path) -> Result<Vec<Result<export::ImportRow, String>>, BoxError> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let csv = file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
    Ok(if csv {
        export::rows_from_csv(&text)?
    } else {
        export::rows_from_json(&text)?
    })
}

/// `symbolon users import --url`: the file's users through `POST /v1/users/import` of another
/// server (ours or the hosted product), in batches, waiting out its rate limit; one line per
/// user as the local import prints them.
async fn import_over_http(app: &str, file: &std::path::Path, url: &str) -> Result<(), BoxError> {
    let secret = std::env::var("SYMBOLON_APP_SECRET")
        .map_err(|_| "--url needs the destination app's secret in SYMBOLON_APP_SECRET")?;
    let rows = import_rows(file)?;
    let total = rows.len();
    let mut lines: Vec<Option<String>> = vec![None; total];
    let mut sent = Vec::new();
    for (index, row) in rows.into_iter().enumerate() {
        match row {
            Err(why) => lines[index] = Some(format!("failed: {why}")),
            Ok(row) if row.moved_wallets.is_some() => {
                lines[index] = Some(
                    "failed: its embedded wallets move only with a local import (`users import` on the destination)"
                        .into(),
                );
            }
            Ok(row) => sent.push((index, row)),
        }
    }
    let client = symbolon_sdk::Client::new(symbolon_sdk::ClientOptions::new(url, app, &secret))?;
    let requests: Vec<_> = sent.iter().map(|(_, row)| row.request.clone()).collect();
    // The key names the content: a rerun of the same users after a crash replays the batches
    // the server took (within its 24 h) instead of creating anyone twice.
    let key = format!(
        "import-{}",
        &symbolon_server::digest::sha256_hex(&serde_json::to_vec(&requests)?)[..32]
    );
    let results = client.users().import(&requests, &key).await?;
    for ((index, row), result) in sent.iter().zip(results) {
        lines[*index] = Some(match (result.success, result.id) {
            (true, Some(id)) => {
                let mut line = format!("created {id}");
                if let Some(kept) = &row.kept {
                    line.push_str(&format!(" (was {})", kept.id));
                }
                if !row.skipped.is_empty() {
                    line.push_str(&format!("; left out: {}", row.skipped.join("; ")));
                }
                line
            }
            _ => format!(
                "failed: {}",
                result.error.unwrap_or_else(|| "refused".into())
            ),
        });
    }
    let failed = lines
        .iter()
        .filter(|l| l.as_deref().is_none_or(|l| l.starts_with("failed")))
        .count();
    for (index, line) in lines.iter().enumerate() {
        println!(
            "{}: {}",
            index + 1,
            line.as_deref().unwrap_or("failed: no answer")
        );
    }
    eprintln!(
        "symbolon: imported {} of {total} users into {app} at {url}",
        total - failed
    );
    if failed > 0 {
        return Err(format!("{failed} of {total} users were not imported (see above)").into());
    }
    Ok(())
}

async fn run_users_command(
    config: &Config,
    db: &Db,
    command: UsersCommand,
) -> Result<(), BoxError> {
    let (UsersCommand::Export { app, .. } | UsersCommand::Import { app, .. }) = &command else {
        return Err("this users command reads no app".into());
    };
    let app = db
        .find_app(app)
        .await?
        .ok_or_else(|| format!("no app {app:?}"))?;
    let clock = Clock::system();
    let deps = ServerApiDeps {
        db: db.clone(),
        clock: clock.clone(),
        accounts: AccountDeps {
            db: db.clone(),
            clock: clock.clone(),
        },
        wallets: ServerWalletDeps {
            db: db.clone(),
            clock,
            share_vault: Arc::new(ShareVault::from_config(config)?),
            transfer: Arc::new(TransferKey::derive(&SealingKey::load(config)?)),
        },
    };
    match command {
        UsersCommand::Export {
            out, wallets_to, ..
        } => {
            let wallets_to = wallets_to
                .as_deref()
                .map(parse_public_key)
                .transpose()
                .map_err(|e| format!("--wallets-to: {e}"))?;
            let exported = export::export(&deps, &app, wallets_to.as_ref())
                .await
                .map_err(|e| e.message)?;
            let text = serde_json::to_string_pretty(&exported)?;
            match out {
                Some(path) => std::fs::write(&path, text + "\n")
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
                None => println!("{text}"),
            }
            eprintln!(
                "symbolon: exported {} users of {}",
                exported.users.len(),
                app.id
            );
        }
        UsersCommand::TransferKey => {}
        UsersCommand::Import { file, .. } => {
            let rows = import_rows(&file)?;
            let (total, mut failed) = (rows.len(), 0);
            for (index, row) in rows.into_iter().enumerate() {
                let outcome = match row {
                    Ok(row) => export::import(&deps, &app, &row)
                        .await
                        .map(|user| (user.id, row.skipped))
                        .map_err(|e| e.message),
                    Err(why) => Err(why),
                };
                match outcome {
                    Ok((id, skipped)) if skipped.is_empty() => {
                        println!("{}: created {id}", index + 1)
                    }
                    Ok((id, skipped)) => {
                        println!(
                            "{}: created {id}; left out: {}",
                            index + 1,
                            skipped.join("; ")
                        );
                    }
                    Err(why) => {
                        failed += 1;
                        println!("{}: failed: {why}", index + 1);
                    }
                }
            }
            eprintln!(
                "symbolon: imported {} of {total} users into {}",
                total - failed,
                app.id
            );
            if failed > 0 {
                return Err(
                    format!("{failed} of {total} users were not imported (see above)").into(),
                );
            }
        }
    }
    Ok(())
}

/// The settings file, if any, with the command line's overrides, checked and normalised
/// ([`AppSettings::checked`]).
fn app_settings(args: &CreateApp) -> Result<AppSettings, BoxError> {
    let mut settings = match &args.settings {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            toml::from_str(&text)
                .map_err(|e| format!("invalid settings {}: {e}", path.display()))?
        }
        None => AppSettings::default(),
    };
    if let Some(primary) = &args.login_methods {
        settings.login_methods.primary = primary.clone();
    }
    if let Some(overflow) = &args.more_login_methods {
        settings.login_methods.overflow = overflow.clone();
    }
    settings.guest_accounts |= args.guest;
    Ok(settings.checked()?)
}
