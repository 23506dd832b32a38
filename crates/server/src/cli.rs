//! Command line: `serve`, `migrate`, `apps create`, `apps secret …`, `users export|import`,
//! `webhooks …`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// The Symbolon login server.
#[derive(Debug, Parser)]
#[command(name = "symbolon", version, about)]
pub struct Cli {
    /// TOML config file; environment variables override it.
    #[arg(long, global = true)]
    pub config: Option<PathBuf>,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run migrations and serve the API.
    Serve,
    /// Apply database migrations and exit.
    Migrate,
    /// Manage apps.
    Apps {
        /// The apps action.
        #[command(subcommand)]
        command: AppsCommand,
    },
    /// Move an app's users out or in.
    Users {
        /// The users action.
        #[command(subcommand)]
        command: UsersCommand,
    },
    /// Tell an app's back end about its users: endpoints, deliveries, replays.
    Webhooks {
        /// The webhooks action.
        #[command(subcommand)]
        command: WebhooksCommand,
    },
    /// Run the signer of delegated wallets (docs/delegation.md): a process of its own with a key
    /// of its own, reachable only by this server (`SYMBOLON_SIGNER_URL`).
    Signer(SignerArgs),
}

/// `symbolon signer`.
#[derive(Debug, clap::Args)]
pub struct SignerArgs {
    /// Its HPKE key (made, mode 0600, on first start). Keep it apart from the server's keys.
    #[arg(long, default_value = ".symbolon-signer/signer.key")]
    pub key_file: std::path::PathBuf,
    /// Its state: live and revoked consents, used signed requests.
    #[arg(long, default_value = ".symbolon-signer/signer.db")]
    pub state_file: std::path::PathBuf,
    /// Where it listens (loopback: only the server calls it).
    #[arg(long, default_value = "127.0.0.1:8790")]
    pub listen: std::net::SocketAddr,
}

/// `symbolon webhooks …`.
#[derive(Debug, Subcommand)]
pub enum WebhooksCommand {
    /// Manage where the app's events are sent.
    Endpoint {
        /// The endpoints action.
        #[command(subcommand)]
        command: EndpointCommand,
    },
    /// List the app's deliveries, newest first (with `--id`, one delivery's attempts).
    Deliveries {
        /// The app id.
        #[arg(long)]
        app: String,
        /// Only these: pending, delivered, failed or skipped.
        #[arg(long)]
        status: Option<String>,
        /// How many.
        #[arg(long, default_value_t = 50)]
        limit: i64,
        /// Show this delivery's attempts.
        #[arg(long)]
        id: Option<String>,
    },
    /// Send a delivery again now (by its id, as `deliveries` lists it); the running server
    /// picks it up within seconds.
    Replay {
        /// The app id.
        #[arg(long)]
        app: String,
        /// The delivery's id.
        id: String,
    },
}

/// `symbolon webhooks endpoint …`.
#[derive(Debug, Subcommand)]
pub enum EndpointCommand {
    /// Add an endpoint; prints its signing secret (`whsec_…`, shown this once), what the back
    /// end verifies deliveries with.
    Create {
        /// The app id.
        #[arg(long)]
        app: String,
        /// Where deliveries are POSTed: https://, or http:// to this machine.
        #[arg(long)]
        url: String,
        /// An event it hears (repeatable; none: every event), e.g. `user.created`.
        #[arg(long = "event")]
        events: Vec<String>,
    },
    /// List the app's endpoints: id, URL, events, created.
    List {
        /// The app id.
        #[arg(long)]
        app: String,
    },
    /// Delete an endpoint and its deliveries.
    Delete {
        /// The app id.
        #[arg(long)]
        app: String,
        /// The endpoint's id (`we_…`).
        id: String,
    },
}

/// `symbolon users …`.
#[derive(Debug, Subcommand)]
pub enum UsersCommand {
    /// Write every user of the app as JSON (the `/v1` user form: linked accounts with wallet
    /// metadata, MFA enrolment, custom metadata), for `users import` here or elsewhere.
    Export {
        /// The app id.
        #[arg(long)]
        app: String,
        /// Write to this file instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Move the embedded wallets too: seal each wallet's key shares to the destination
        /// server's transfer key (what `users transfer-key` prints there). Only that server can
        /// open them.
        #[arg(long, value_name = "TRANSFER_KEY")]
        wallets_to: Option<String>,
    },
    /// Print this server's transfer key: what `users export --wallets-to` on the source server
    /// takes, so the embedded wallets of the users imported here move with them.
    TransferKey,
    /// Create users from an export (ours, or the vendor's JSON array of users) or a CSV
    /// (header: id, created_at, email, phone, wallet_address, wallet_chain_type, custom_user_id,
    /// custom_metadata). Keeps ids; reports each user; a bad one does not stop the others.
    Import {
        /// The app id.
        #[arg(long)]
        app: String,
        /// The file (`.csv` is read as CSV, anything else as JSON).
        file: PathBuf,
        /// Import over HTTP into the server at this URL (`POST /v1/users/import`, in batches of
        /// 100, waiting out rate limits) with the app secret in `SYMBOLON_APP_SECRET`, instead
        /// of into this machine's database. The destination gives new ids; wallets do not move.
        #[arg(long)]
        url: Option<String>,
    },
}

/// `symbolon apps …`.
#[derive(Debug, Subcommand)]
pub enum AppsCommand {
    /// Create an app (or update it when `--id` names an existing one); prints only its id.
    Create(CreateApp),
    /// Manage the app secrets host back ends use on the `/v1` API (HTTP Basic: app id, secret).
    Secret {
        /// The secrets action.
        #[command(subcommand)]
        command: SecretCommand,
    },
}

/// `symbolon apps secret …`.
#[derive(Debug, Subcommand)]
pub enum SecretCommand {
    /// Make a new secret and print it (shown this once; only a hash is kept). Several may be live
    /// at once: make the new one, deploy it, then revoke the old one.
    Create {
        /// The app id.
        #[arg(long)]
        app: String,
    },
    /// List the app's secrets: id, created, last used, revoked (never the secret).
    List {
        /// The app id.
        #[arg(long)]
        app: String,
    },
    /// Revoke a secret by its id (the part after `sk_`, as `list` shows it); refused at once.
    Revoke {
        /// The app id.
        #[arg(long)]
        app: String,
        /// The secret's id.
        id: String,
    },
}

/// `symbolon apps create` options.
#[derive(Debug, Args)]
pub struct CreateApp {
    /// Display name.
    #[arg(long)]
    pub name: String,
    /// Allowed browser origin, e.g. `http://localhost:5173` (repeatable).
    #[arg(long = "origin", required = true)]
    pub origins: Vec<String>,
    /// Fixed 25-character id (lowercase letters and digits) for idempotent seeding.
    #[arg(long)]
    pub id: Option<String>,
    /// Allowed `privy-client-id` value (repeatable).
    #[arg(long = "client-id")]
    pub client_ids: Vec<String>,
    /// Refuse plus-addressed emails.
    #[arg(long)]
    pub disable_plus_emails: bool,
    /// Require users to accept the terms.
    #[arg(long)]
    pub require_terms: bool,
    /// The app's settings as TOML (login methods and order, sign-up, allowlist, user limit,
    /// custom auth, SMS; see docs/server.md "App settings"). The flags below override it. Its
    /// secrets (bot token, custody key, client secrets) are written plain and stored sealed
    /// under the sealing key, so the server that uses them needs the same key.
    #[arg(long)]
    pub settings: Option<PathBuf>,
    /// Login methods shown first, in order, comma-separated (e.g. `email,sms`).
    #[arg(long, value_delimiter = ',')]
    pub login_methods: Option<Vec<String>>,
    /// Login methods behind "More options", in order, comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub more_login_methods: Option<Vec<String>>,
    /// Allow guest accounts.
    #[arg(long)]
    pub guest: bool,
}

/// Whether `id` is a valid app id: 25 lowercase letters or digits.
pub fn is_valid_app_id(id: &str) -> bool {
    id.len() == symbolon_protocol::constants::APP_ID_LENGTH
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn app_ids_are_25_lowercase_alphanumerics() {
        assert!(is_valid_app_id("cm0000000000000000000demo"));
        assert!(!is_valid_app_id("short"));
        assert!(!is_valid_app_id("CM0000000000000000000DEMO"));
    }
}
