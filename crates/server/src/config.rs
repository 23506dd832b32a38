//! Server configuration: an optional TOML file, then `SYMBOLON_*` / `DATABASE_URL` environment
//! overrides (see `docs/server.md` for every key).

use std::fmt;
use std::net::IpAddr;
use std::path::{Path, PathBuf};

use ipnet::IpNet;
use serde::{Deserialize, Deserializer};

/// Why the configuration could not be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// The config file could not be read.
    #[error("cannot read config file {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The config file is not valid TOML for [`Config`].
    #[error("invalid config file: {0}")]
    Parse(#[from] toml::de::Error),
    /// An environment variable has an unusable value.
    #[error("invalid value for {name}: {value:?}")]
    Env {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
    },
}

/// The default `iss` of our tokens: what the spec's published server SDKs accept.
pub const DEFAULT_TOKEN_ISSUER: &str = "privy.io";

/// Everything the server needs to start.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Socket address to listen on (`SYMBOLON_LISTEN`).
    pub listen: String,
    /// Public base URL (`SYMBOLON_PUBLIC_URL`).
    pub public_url: String,
    /// The `iss` of every access and identity token (`SYMBOLON_TOKEN_ISSUER`). Default `privy.io`:
    /// the issuer the spec's server SDKs (`@privy-io/node`, …) require, so a host's back end verifies
    /// our tokens unchanged. Set it to your own name when no such SDK reads them.
    pub token_issuer: String,
    /// `sqlite://…` or `postgres://…` (`DATABASE_URL`).
    pub database_url: String,
    /// `tracing` filter directive (`SYMBOLON_LOG`).
    pub log: String,
    /// Outgoing mail.
    pub smtp: SmtpConfig,
    /// Outgoing SMS through a Twilio-compatible gateway (`[sms]`); off until configured.
    pub sms: SmsConfig,
    /// Limits on sending codes.
    pub rate_limit: RateLimitConfig,
    /// Base64 32-byte sealing key (`SYMBOLON_KEY_ENCRYPTION_KEY`): encrypts the stored token
    /// signing keys and derives the code and refresh secrets. Never stored in the database; when
    /// unset it is generated into `token-seal.key` in the key directory.
    pub key_encryption_key: Option<Redacted>,
    /// Base64 32-byte key for embedded-wallet auth shares at rest (`SYMBOLON_AUTH_SHARE_KEY`).
    pub auth_share_key: Option<Redacted>,
    /// Base64 32-byte key for embedded-wallet recovery shares at rest
    /// (`SYMBOLON_RECOVERY_SHARE_KEY`). Must differ from the auth-share key.
    pub recovery_share_key: Option<Redacted>,
    /// Where the sealing and share keys are generated when unset (`SYMBOLON_KEY_DIR`; dev and
    /// tests only).
    pub key_dir: PathBuf,
    /// The wallet frame's built `dist/` (`SYMBOLON_WALLET_FRAME_DIR`).
    pub wallet_frame_dir: PathBuf,
    /// The cross-app consent and signing page's built `dist/` (`SYMBOLON_CROSS_APP_PAGE_DIR`).
    pub cross_app_page_dir: PathBuf,
    /// The HTTP edge: timeouts, connection cap, trusted proxies (`[http]`).
    pub http: HttpConfig,
    /// The signer's base URL (`SYMBOLON_SIGNER_URL`, e.g. `http://127.0.0.1:8790`): where delegated
    /// wallets are signed for (`symbolon signer`). Unset: delegated actions are off.
    pub signer_url: Option<String>,
}

/// A secret string whose `Debug` output is redacted.
#[derive(Clone, Deserialize)]
#[serde(transparent)]
pub struct Redacted(pub String);

impl fmt::Debug for Redacted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

impl Default for Config {
    fn default() -> Self {
        Self {
            listen: "127.0.0.1:8787".into(),
            public_url: "http://localhost:8787".into(),
            token_issuer: DEFAULT_TOKEN_ISSUER.into(),
            database_url: "sqlite://symbolon.db?mode=rwc".into(),
            log: "info".into(),
            smtp: SmtpConfig::default(),
            sms: SmsConfig::default(),
            rate_limit: RateLimitConfig::default(),
            key_encryption_key: None,
            auth_share_key: None,
            recovery_share_key: None,
            key_dir: PathBuf::from("."),
            wallet_frame_dir: PathBuf::from("packages/wallet-frame/dist"),
            cross_app_page_dir: PathBuf::from("packages/cross-app-page/dist"),
            signer_url: None,
            http: HttpConfig::default(),
        }
    }
}

/// How the SMTP connection is secured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SmtpTls {
    /// Plain SMTP (local capture servers only).
    None,
    /// Upgrade with STARTTLS.
    Starttls,
    /// Implicit TLS (SMTPS).
    Tls,
}

/// SMTP relay settings. `Debug` hides the password.
#[derive(Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SmtpConfig {
    /// Relay host (`SYMBOLON_SMTP_HOST`).
    pub host: String,
    /// Relay port (`SYMBOLON_SMTP_PORT`).
    pub port: u16,
    /// `none`, `starttls` or `tls` (`SYMBOLON_SMTP_TLS`).
    pub tls: SmtpTls,
    /// Login user, if the relay needs one (`SYMBOLON_SMTP_USERNAME`).
    pub username: Option<String>,
    /// Login password (`SYMBOLON_SMTP_PASSWORD`).
    pub password: Option<String>,
    /// Sender, e.g. `Symbolon <login@example.com>` (`SYMBOLON_SMTP_FROM`).
    pub from: String,
}

impl Default for SmtpConfig {
    fn default() -> Self {
        Self {
            host: "127.0.0.1".into(),
            port: 1025,
            tls: SmtpTls::None,
            username: None,
            password: None,
            from: "Symbolon <login@localhost>".into(),
        }
    }
}

impl fmt::Debug for SmtpConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmtpConfig")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("tls", &self.tls)
            .field("username", &self.username)
            .field("password", &self.password.as_ref().map(|_| "<redacted>"))
            .field("from", &self.from)
            .finish()
    }
}

/// The SMS gateway: Twilio's Messages API, or anything speaking it (docs/server.md, "SMS
/// gateway"). Sending is off while `account_sid` and `auth_token` are unset.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SmsConfig {
    /// Base URL of the API, without a trailing `/2010-04-01` (`SYMBOLON_SMS_API_URL`; default
    /// `https://api.twilio.com`).
    pub api_base_url: String,
    /// Account SID, the Basic-auth user (`SYMBOLON_SMS_ACCOUNT_SID`).
    pub account_sid: Option<String>,
    /// Auth token, the Basic-auth password (`SYMBOLON_SMS_AUTH_TOKEN`).
    pub auth_token: Option<Redacted>,
    /// Sender number in E.164 (`SYMBOLON_SMS_FROM`); this or `messaging_service_sid` is needed.
    pub from: Option<String>,
    /// Messaging Service SID, used instead of `from` when set
    /// (`SYMBOLON_SMS_MESSAGING_SERVICE_SID`).
    pub messaging_service_sid: Option<String>,
}

impl Default for SmsConfig {
    fn default() -> Self {
        Self {
            api_base_url: "https://api.twilio.com".into(),
            account_sid: None,
            auth_token: None,
            from: None,
            messaging_service_sid: None,
        }
    }
}

/// Limits on sending and checking one-time codes (docs/server.md, "One-time codes").
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RateLimitConfig {
    /// Codes sent to one address per window (`SYMBOLON_RATE_LIMIT_EMAIL_PER_WINDOW`).
    pub email_per_window: u32,
    /// Starts of one login method (email codes, OAuth, passkey, wallet and Farcaster inits, each
    /// its own budget) one client network (IPv4 /24, IPv6 /64) may make at once; the budget comes
    /// back at this many per window (`SYMBOLON_RATE_LIMIT_IP_PER_WINDOW`).
    pub ip_per_window: u32,
    /// The same for SMS codes, login and MFA each their own (texts cost money)
    /// (`SYMBOLON_RATE_LIMIT_SMS_IP_PER_WINDOW`).
    pub sms_ip_per_window: u32,
    /// Window length in seconds (`SYMBOLON_RATE_LIMIT_WINDOW_S`): the per-address send window and
    /// the per-network budgets' refill.
    pub window_s: u64,
    /// Seconds between two codes sent to one address (`SYMBOLON_RATE_LIMIT_RESEND_COOLDOWN_S`).
    pub resend_cooldown_s: u64,
    /// Credential checks (codes, signatures, tokens) one client network may make at once, coming
    /// back at this many per window (`SYMBOLON_RATE_LIMIT_IP_AUTHENTICATE_PER_WINDOW`).
    pub ip_authenticate_per_window: u32,
    /// Wrong codes per address from one client network per hour, whatever codes were sent
    /// meanwhile (`SYMBOLON_RATE_LIMIT_CODE_FAILURES_PER_HOUR`).
    pub code_failures_per_hour: u32,
    /// Wrong codes per address from all networks together per hour; past it the address is
    /// locked for a minute, doubling while locks follow each other, up to an hour (a code sent
    /// during the lock still works, once, for the network that asked for it)
    /// (`SYMBOLON_RATE_LIMIT_CODE_FAILURES_PER_ADDRESS`).
    pub code_failures_per_address: u32,
    /// Where the per-network budgets are kept (`SYMBOLON_RATE_LIMIT_STORE`, `memory` or
    /// `database`): `database` shares them between several instances over one (Postgres) database.
    pub store: LimiterStore,
}

/// Where the per-network rate-limit budgets live (`crate::rate_limit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LimiterStore {
    /// In this process's memory: each instance has its own budgets (one instance, or SQLite).
    #[default]
    Memory,
    /// In the database: every instance spends from the same budgets, one upsert per check.
    Database,
}

impl Default for RateLimitConfig {
    fn default() -> Self {
        Self {
            email_per_window: 10,
            ip_per_window: 60,
            sms_ip_per_window: 20,
            window_s: 600,
            resend_cooldown_s: symbolon_protocol::constants::OTP_RESEND_COOLDOWN_S,
            ip_authenticate_per_window: 120,
            code_failures_per_hour: 20,
            code_failures_per_address: 30,
            store: LimiterStore::Memory,
        }
    }
}

// --- HTTP edge settings (timeouts, connection cap, client address behind proxies) ---

/// Which header a trusted proxy puts the client address in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ForwardedHeader {
    /// `X-Forwarded-For: client, proxy1, …` (nginx, HAProxy, most load balancers).
    XForwardedFor,
    /// RFC 7239 `Forwarded: for=client, for=proxy1`.
    Forwarded,
}

/// Limits of the HTTP server and how the client address is found behind proxies.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HttpConfig {
    /// Seconds a client has to send a request's headers; also how long an idle keep-alive
    /// connection stays open (`SYMBOLON_HTTP_HEADER_TIMEOUT_S`).
    pub header_timeout_s: u64,
    /// Seconds a client has to send a request's whole body (`SYMBOLON_HTTP_BODY_TIMEOUT_S`).
    pub body_timeout_s: u64,
    /// Seconds a request may take in all before it is answered 503
    /// (`SYMBOLON_HTTP_REQUEST_TIMEOUT_S`).
    pub request_timeout_s: u64,
    /// Open connections at most; further ones wait in the listen backlog
    /// (`SYMBOLON_HTTP_MAX_CONNECTIONS`).
    pub max_connections: usize,
    /// Reverse proxies (IPs or CIDRs) whose forwarding header is believed; empty trusts none
    /// (`SYMBOLON_TRUSTED_PROXIES`, comma-separated).
    #[serde(deserialize_with = "deserialize_proxies")]
    pub trusted_proxies: Vec<IpNet>,
    /// The header trusted proxies set: `x-forwarded-for` or `forwarded`
    /// (`SYMBOLON_FORWARDED_HEADER`). Only this one is read, so a client cannot bring its own.
    pub forwarded_header: ForwardedHeader,
}

impl Default for HttpConfig {
    fn default() -> Self {
        Self {
            header_timeout_s: 10,
            body_timeout_s: 10,
            request_timeout_s: 30,
            max_connections: 1024,
            trusted_proxies: Vec::new(),
            forwarded_header: ForwardedHeader::XForwardedFor,
        }
    }
}

/// Parses one trusted proxy: a CIDR (`10.0.0.0/8`, `fd00::/8`) or a single address.
pub fn parse_proxy(text: &str) -> Option<IpNet> {
    let text = text.trim();
    text.parse::<IpNet>()
        .ok()
        .or_else(|| text.parse::<IpAddr>().ok().map(IpNet::from))
}

/// Parses a comma-separated proxy list (`SYMBOLON_TRUSTED_PROXIES`); blank entries are skipped.
pub fn parse_proxy_list(text: &str) -> Option<Vec<IpNet>> {
    text.split(',')
        .filter(|item| !item.trim().is_empty())
        .map(parse_proxy)
        .collect()
}

fn deserialize_proxies<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<IpNet>, D::Error> {
    let items = Vec::<String>::deserialize(deserializer)?;
    items
        .iter()
        .map(|item| {
            parse_proxy(item)
                .ok_or_else(|| serde::de::Error::custom(format!("invalid trusted proxy {item:?}")))
        })
        .collect()
}

impl HttpConfig {
    /// Applies the `SYMBOLON_HTTP_*`, `SYMBOLON_TRUSTED_PROXIES` and `SYMBOLON_FORWARDED_HEADER`
    /// overrides.
    fn apply_env(&mut self, lookup: &impl Fn(&str) -> Option<String>) -> Result<(), ConfigError> {
        parse(
            lookup,
            "SYMBOLON_HTTP_HEADER_TIMEOUT_S",
            &mut self.header_timeout_s,
        )?;
        parse(
            lookup,
            "SYMBOLON_HTTP_BODY_TIMEOUT_S",
            &mut self.body_timeout_s,
        )?;
        parse(
            lookup,
            "SYMBOLON_HTTP_REQUEST_TIMEOUT_S",
            &mut self.request_timeout_s,
        )?;
        parse(
            lookup,
            "SYMBOLON_HTTP_MAX_CONNECTIONS",
            &mut self.max_connections,
        )?;
        if let Some(value) = lookup("SYMBOLON_TRUSTED_PROXIES") {
            self.trusted_proxies = parse_proxy_list(&value).ok_or(ConfigError::Env {
                name: "SYMBOLON_TRUSTED_PROXIES",
                value,
            })?;
        }
        if let Some(value) = lookup("SYMBOLON_FORWARDED_HEADER") {
            self.forwarded_header = match value.as_str() {
                "x-forwarded-for" => ForwardedHeader::XForwardedFor,
                "forwarded" => ForwardedHeader::Forwarded,
                _ => {
                    return Err(ConfigError::Env {
                        name: "SYMBOLON_FORWARDED_HEADER",
                        value,
                    });
                }
            };
        }
        let zero = [
            ("SYMBOLON_HTTP_HEADER_TIMEOUT_S", self.header_timeout_s == 0),
            ("SYMBOLON_HTTP_BODY_TIMEOUT_S", self.body_timeout_s == 0),
            (
                "SYMBOLON_HTTP_REQUEST_TIMEOUT_S",
                self.request_timeout_s == 0,
            ),
            ("SYMBOLON_HTTP_MAX_CONNECTIONS", self.max_connections == 0),
        ];
        if let Some((name, _)) = zero.into_iter().find(|(_, is_zero)| *is_zero) {
            return Err(ConfigError::Env {
                name,
                value: "0".into(),
            });
        }
        Ok(())
    }
}

impl Config {
    /// Reads `file` (if given) and applies the process environment.
    pub fn load(file: Option<&Path>) -> Result<Self, ConfigError> {
        let mut config = match file {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
                    path: path.display().to_string(),
                    source,
                })?;
                toml::from_str(&text)?
            }
            None => Config::default(),
        };
        config.apply_env(|name| std::env::var(name).ok())?;
        Ok(config)
    }

    /// Applies overrides from `lookup` (the environment, or a map in tests).
    pub fn apply_env(
        &mut self,
        lookup: impl Fn(&str) -> Option<String>,
    ) -> Result<(), ConfigError> {
        let text = |name: &str, target: &mut String| {
            if let Some(value) = lookup(name) {
                *target = value;
            }
        };
        text("SYMBOLON_LISTEN", &mut self.listen);
        text("SYMBOLON_PUBLIC_URL", &mut self.public_url);
        text("SYMBOLON_TOKEN_ISSUER", &mut self.token_issuer);
        text("DATABASE_URL", &mut self.database_url);
        text("SYMBOLON_LOG", &mut self.log);
        text("SYMBOLON_SMTP_HOST", &mut self.smtp.host);
        text("SYMBOLON_SMTP_FROM", &mut self.smtp.from);
        if let Some(v) = lookup("SYMBOLON_KEY_ENCRYPTION_KEY") {
            self.key_encryption_key = Some(Redacted(v));
        }
        if let Some(v) = lookup("SYMBOLON_AUTH_SHARE_KEY") {
            self.auth_share_key = Some(Redacted(v));
        }
        if let Some(v) = lookup("SYMBOLON_RECOVERY_SHARE_KEY") {
            self.recovery_share_key = Some(Redacted(v));
        }
        if let Some(v) = lookup("SYMBOLON_KEY_DIR") {
            self.key_dir = PathBuf::from(v);
        }
        if let Some(v) = lookup("SYMBOLON_WALLET_FRAME_DIR") {
            self.wallet_frame_dir = PathBuf::from(v);
        }
        if let Some(v) = lookup("SYMBOLON_CROSS_APP_PAGE_DIR") {
            self.cross_app_page_dir = PathBuf::from(v);
        }
        if let Some(v) = lookup("SYMBOLON_SIGNER_URL") {
            self.signer_url = Some(v).filter(|v| !v.trim().is_empty());
        }
        text("SYMBOLON_SMS_API_URL", &mut self.sms.api_base_url);
        if let Some(v) = lookup("SYMBOLON_SMS_ACCOUNT_SID") {
            self.sms.account_sid = Some(v);
        }
        if let Some(v) = lookup("SYMBOLON_SMS_AUTH_TOKEN") {
            self.sms.auth_token = Some(Redacted(v));
        }
        if let Some(v) = lookup("SYMBOLON_SMS_FROM") {
            self.sms.from = Some(v);
        }
        if let Some(v) = lookup("SYMBOLON_SMS_MESSAGING_SERVICE_SID") {
            self.sms.messaging_service_sid = Some(v);
        }
        if let Some(v) = lookup("SYMBOLON_SMTP_USERNAME") {
            self.smtp.username = Some(v);
        }
        if let Some(v) = lookup("SYMBOLON_SMTP_PASSWORD") {
            self.smtp.password = Some(v);
        }
        if let Some(v) = lookup("SYMBOLON_SMTP_TLS") {
            self.smtp.tls = match v.as_str() {
                "none" => SmtpTls::None,
                "starttls" => SmtpTls::Starttls,
                "tls" => SmtpTls::Tls,
                _ => {
                    return Err(ConfigError::Env {
                        name: "SYMBOLON_SMTP_TLS",
                        value: v,
                    });
                }
            };
        }
        parse(&lookup, "SYMBOLON_SMTP_PORT", &mut self.smtp.port)?;
        parse(
            &lookup,
            "SYMBOLON_RATE_LIMIT_EMAIL_PER_WINDOW",
            &mut self.rate_limit.email_per_window,
        )?;
        parse(
            &lookup,
            "SYMBOLON_RATE_LIMIT_IP_PER_WINDOW",
            &mut self.rate_limit.ip_per_window,
        )?;
        parse(
            &lookup,
            "SYMBOLON_RATE_LIMIT_SMS_IP_PER_WINDOW",
            &mut self.rate_limit.sms_ip_per_window,
        )?;
        parse(
            &lookup,
            "SYMBOLON_RATE_LIMIT_WINDOW_S",
            &mut self.rate_limit.window_s,
        )?;
        parse(
            &lookup,
            "SYMBOLON_RATE_LIMIT_RESEND_COOLDOWN_S",
            &mut self.rate_limit.resend_cooldown_s,
        )?;
        parse(
            &lookup,
            "SYMBOLON_RATE_LIMIT_IP_AUTHENTICATE_PER_WINDOW",
            &mut self.rate_limit.ip_authenticate_per_window,
        )?;
        parse(
            &lookup,
            "SYMBOLON_RATE_LIMIT_CODE_FAILURES_PER_HOUR",
            &mut self.rate_limit.code_failures_per_hour,
        )?;
        parse(
            &lookup,
            "SYMBOLON_RATE_LIMIT_CODE_FAILURES_PER_ADDRESS",
            &mut self.rate_limit.code_failures_per_address,
        )?;
        if let Some(v) = lookup("SYMBOLON_RATE_LIMIT_STORE") {
            self.rate_limit.store = match v.as_str() {
                "memory" => LimiterStore::Memory,
                "database" => LimiterStore::Database,
                _ => {
                    return Err(ConfigError::Env {
                        name: "SYMBOLON_RATE_LIMIT_STORE",
                        value: v,
                    });
                }
            };
        }
        self.http.apply_env(&lookup)?;
        Ok(())
    }

    /// The origin (`scheme://host[:port]`) of the public URL: the wallet frame's origin.
    pub fn public_origin(&self) -> &str {
        let url = self.public_url.as_str();
        let host_start = url.find("://").map_or(0, |i| i + 3);
        let end = url[host_start..]
            .find(['/', '?', '#'])
            .map_or(url.len(), |i| host_start + i);
        &url[..end]
    }

    /// Why the public URL cannot be the one clients use, if it cannot: it names this machine
    /// (`localhost`, a loopback address) while the server listens beyond it. The URL is never
    /// taken from a request's `Host` (signed URLs, OAuth callbacks and the wallet frame's origin
    /// come from it), so a server others reach must be told its address.
    pub fn public_url_problem(&self) -> Option<String> {
        let listen_host = self
            .listen
            .rsplit_once(':')
            .map_or(self.listen.as_str(), |(host, _)| host)
            .trim_matches(['[', ']']);
        let listens_locally = listen_host == "localhost"
            || listen_host
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback());
        let public_host = url::Url::parse(&self.public_url)
            .ok()
            .and_then(|url| {
                url.host_str()
                    .map(|h| h.trim_matches(['[', ']']).to_string())
            })
            .unwrap_or_default();
        let public_is_local = public_host == "localhost"
            || public_host
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback());
        (!listens_locally && public_is_local).then(|| {
            format!(
                "SYMBOLON_PUBLIC_URL is {} but the server listens on {}: set it to the address \
                 clients use (it is never taken from a request's Host)",
                self.public_url, self.listen
            )
        })
    }

    /// Whether the public URL is HTTPS (the marker cookie then gets `Secure`).
    pub fn is_https(&self) -> bool {
        self.public_url.starts_with("https://")
    }
}

fn parse<T: std::str::FromStr>(
    lookup: &impl Fn(&str) -> Option<String>,
    name: &'static str,
    target: &mut T,
) -> Result<(), ConfigError> {
    if let Some(value) = lookup(name) {
        *target = value
            .parse()
            .map_err(|_| ConfigError::Env { name, value })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn env_overrides_the_file() {
        let mut config: Config =
            toml::from_str("listen = \"0.0.0.0:1\"\n[smtp]\nport = 2525\ntls = \"starttls\"\n")
                .expect("toml");
        let env: HashMap<&str, &str> = [
            ("SYMBOLON_LISTEN", "127.0.0.1:9"),
            ("SYMBOLON_RATE_LIMIT_WINDOW_S", "60"),
        ]
        .into();
        config
            .apply_env(|k| env.get(k).map(|v| v.to_string()))
            .expect("env");
        assert_eq!(config.listen, "127.0.0.1:9");
        assert_eq!(config.smtp.port, 2525);
        assert_eq!(config.smtp.tls, SmtpTls::Starttls);
        assert_eq!(config.rate_limit.window_s, 60);
        assert_eq!(config.public_url, "http://localhost:8787");
    }

    #[test]
    fn bad_env_values_are_refused() {
        let mut config = Config::default();
        let err = config.apply_env(|k| (k == "SYMBOLON_SMTP_PORT").then(|| "many".to_string()));
        assert!(matches!(
            err,
            Err(ConfigError::Env {
                name: "SYMBOLON_SMTP_PORT",
                ..
            })
        ));
    }

    #[test]
    fn wallet_settings_come_from_the_environment() {
        let mut config = Config::default();
        let env: HashMap<&str, &str> = [
            ("SYMBOLON_AUTH_SHARE_KEY", "auth-secret"),
            ("SYMBOLON_RECOVERY_SHARE_KEY", "recovery-secret"),
            ("SYMBOLON_KEY_DIR", "/var/lib/symbolon"),
            ("SYMBOLON_WALLET_FRAME_DIR", "/srv/frame"),
        ]
        .into();
        config
            .apply_env(|k| env.get(k).map(|v| v.to_string()))
            .expect("env");
        assert_eq!(config.key_dir, PathBuf::from("/var/lib/symbolon"));
        assert_eq!(config.wallet_frame_dir, PathBuf::from("/srv/frame"));
        let shown = format!("{config:?}");
        assert!(!shown.contains("auth-secret") && !shown.contains("recovery-secret"));
    }

    #[test]
    fn public_origin_drops_path_and_slash() {
        let mut config = Config::default();
        assert_eq!(config.public_origin(), "http://localhost:8787");
        config.public_url = "https://id.example.com/base/".into();
        assert_eq!(config.public_origin(), "https://id.example.com");
        config.public_url = "https://id.example.com:8443".into();
        assert_eq!(config.public_origin(), "https://id.example.com:8443");
    }

    #[test]
    fn http_settings_have_sane_defaults_and_env_overrides() {
        let mut config = Config::default();
        assert_eq!(config.http.header_timeout_s, 10);
        assert_eq!(config.http.request_timeout_s, 30);
        assert_eq!(config.http.max_connections, 1024);
        assert!(config.http.trusted_proxies.is_empty());
        let env: HashMap<&str, &str> = [
            ("SYMBOLON_HTTP_HEADER_TIMEOUT_S", "1"),
            ("SYMBOLON_HTTP_MAX_CONNECTIONS", "8"),
            ("SYMBOLON_TRUSTED_PROXIES", "10.0.0.0/8, 127.0.0.1,fd00::/8"),
            ("SYMBOLON_FORWARDED_HEADER", "forwarded"),
        ]
        .into();
        config
            .apply_env(|k| env.get(k).map(|v| v.to_string()))
            .expect("env");
        assert_eq!(config.http.header_timeout_s, 1);
        assert_eq!(config.http.max_connections, 8);
        let proxies: Vec<String> = config
            .http
            .trusted_proxies
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(proxies, ["10.0.0.0/8", "127.0.0.1/32", "fd00::/8"]);
        assert_eq!(config.http.forwarded_header, ForwardedHeader::Forwarded);

        let from_file: Config =
            toml::from_str("[http]\ntrusted_proxies = [\"192.168.1.1\", \"::1\"]\n").expect("toml");
        assert_eq!(from_file.http.trusted_proxies.len(), 2);
        assert!(toml::from_str::<Config>("[http]\ntrusted_proxies = [\"nope\"]\n").is_err());
        for (name, value) in [
            ("SYMBOLON_TRUSTED_PROXIES", "10.0.0.0/33"),
            ("SYMBOLON_FORWARDED_HEADER", "x-real-ip"),
            ("SYMBOLON_HTTP_REQUEST_TIMEOUT_S", "0"),
        ] {
            let err = Config::default().apply_env(|k| (k == name).then(|| value.to_string()));
            assert!(
                matches!(err, Err(ConfigError::Env { .. })),
                "{name}={value}"
            );
        }
    }

    #[test]
    fn a_server_reachable_from_others_must_be_told_its_public_url() {
        let problem = |listen: &str, public_url: &str| {
            Config {
                listen: listen.into(),
                public_url: public_url.into(),
                ..Config::default()
            }
            .public_url_problem()
        };
        assert!(problem("127.0.0.1:8787", "http://localhost:8787").is_none());
        assert!(problem("[::1]:8787", "http://127.0.0.1:8787").is_none());
        assert!(problem("localhost:8787", "http://localhost:8787").is_none());
        assert!(problem("0.0.0.0:8787", "https://auth.example.com").is_none());
        assert!(problem("0.0.0.0:8787", "http://10.0.0.5:8787/").is_none());
        for (listen, public_url) in [
            ("0.0.0.0:8787", "http://localhost:8787"),
            ("[::]:8787", "http://127.0.0.1:8787"),
            ("10.0.0.5:8787", "http://[::1]:8787"),
            ("0.0.0.0:443", "https://localhost"),
        ] {
            let found = problem(listen, public_url);
            assert!(
                found
                    .as_deref()
                    .is_some_and(|p| p.contains("SYMBOLON_PUBLIC_URL")),
                "{listen} {public_url}: {found:?}"
            );
        }
    }

    #[test]
    fn sms_settings_come_from_the_file_and_the_environment() {
        let config = Config::default();
        assert_eq!(config.sms.api_base_url, "https://api.twilio.com");
        assert!(config.sms.account_sid.is_none());
        let mut config: Config =
            toml::from_str("[sms]\naccount_sid = \"ACfile\"\nfrom = \"+12015550123\"\n")
                .expect("toml");
        let env: HashMap<&str, &str> = [
            ("SYMBOLON_SMS_API_URL", "http://127.0.0.1:9"),
            ("SYMBOLON_SMS_AUTH_TOKEN", "sms-secret"),
            ("SYMBOLON_SMS_FROM", "+12015550199"),
        ]
        .into();
        config
            .apply_env(|k| env.get(k).map(|v| v.to_string()))
            .expect("env");
        assert_eq!(config.sms.api_base_url, "http://127.0.0.1:9");
        assert_eq!(config.sms.account_sid.as_deref(), Some("ACfile"));
        assert_eq!(config.sms.from.as_deref(), Some("+12015550199"));
        assert!(!format!("{config:?}").contains("sms-secret"));
        assert!(toml::from_str::<Config>("[sms]\nsid = \"x\"\n").is_err());
    }

    #[test]
    fn debug_hides_the_smtp_password() {
        let smtp = SmtpConfig {
            password: Some("hunter2".into()),
            ..SmtpConfig::default()
        };
        assert!(!format!("{smtp:?}").contains("hunter2"));
    }
}
