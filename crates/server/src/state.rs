//! Everything a request handler needs, shared across requests.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use symbolon_protocol::constants::OTP_MAX_ATTEMPTS;
use zeroize::Zeroizing;

use crate::api_secrets::SecretChecker;
use crate::app_secrets::AppSecrets;
use crate::clock::Clock;
use crate::config::Config;
use crate::db::otp::OtpLimits;
use crate::db::{Db, DbError};
use crate::jwt_verifier::JwksCache;
use crate::keys::sealing::{Purpose, SealingKey};
use crate::keys::wallet_transfer::TransferKey;
use crate::keys::{ShareKeyError, ShareVault};
use crate::mail::Mailer;
use crate::otp::OtpSecret;
use crate::outbound_http::{OutboundHttpError, outbound_client};
use crate::random::RandomError;
use crate::rate_limit::IpLimits;
use crate::signer_client::SignerClient;
use crate::sms::{SmsError, SmsSender, sms_sender_from_config};
use crate::tokens::{KeyRing, TokenError, TokenIssuer};

/// The server could not assemble its state.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StartupError {
    /// Database failure.
    #[error(transparent)]
    Db(#[from] DbError),
    /// Signing keys could not be loaded or created.
    #[error(transparent)]
    Token(#[from] TokenError),
    /// The CSPRNG failed.
    #[error(transparent)]
    Random(#[from] RandomError),
    /// The sealing key or the embedded-wallet share keys could not be loaded or created.
    #[error(transparent)]
    ShareKey(#[from] ShareKeyError),
    /// The `[sms]` settings are unusable.
    #[error(transparent)]
    Sms(#[from] SmsError),
    /// The outbound HTTP client (SMS gateway, JWKS) could not be built.
    #[error(transparent)]
    OutboundHttp(#[from] OutboundHttpError),
    /// The signer's client could not be built.
    #[error("signer client: {0}")]
    Signer(String),
}

/// Shared request state. Cheap to clone.
#[derive(Clone)]
pub struct AppState {
    /// Storage.
    pub db: Db,
    /// Configuration.
    pub config: Arc<Config>,
    /// Signs and verifies tokens.
    pub tokens: TokenIssuer,
    /// Delivers login codes.
    pub mailer: Arc<dyn Mailer>,
    /// Texts login codes.
    pub sms: Arc<dyn SmsSender>,
    /// Host apps' keys for custom-auth JWTs, and OpenID providers' keys.
    pub jwks_cache: Arc<JwksCache>,
    /// Outbound HTTP to third parties (OAuth providers): timeouts, no redirects.
    pub outbound: reqwest::Client,
    /// HMAC key for codes.
    pub otp_secret: Arc<OtpSecret>,
    /// The limits code rows enforce per address.
    pub otp_limits: OtpLimits,
    /// HMAC key that derives a refresh token's one child.
    pub refresh_rotation_key: Arc<Zeroizing<Vec<u8>>>,
    /// Per-client-network budgets: each login method's start, and credential checks.
    pub ip_limits: Arc<IpLimits>,
    /// "Now".
    pub clock: Clock,
    /// Encrypts and decrypts embedded-wallet shares at rest.
    pub share_vault: Arc<ShareVault>,
    /// Opens embedded wallets moved here from another server (`symbolon users import`).
    pub wallet_transfer: Arc<TransferKey>,
    /// Opens the secrets of app settings (bot tokens, custody keys, client secrets).
    pub app_secrets: Arc<AppSecrets>,
    /// Set once "the wallet frame is not built" has been logged.
    pub frame_missing_logged: Arc<AtomicBool>,
    /// Checks the app secrets of `/v1` calls, remembering the ones that checked out.
    pub secret_checker: Arc<SecretChecker>,
    /// The signer of delegated wallets, when one is configured.
    pub signer: Option<SignerClient>,
}

impl AppState {
    /// Loads the sealing key, the signing keys (creating them at first start) and the share
    /// keys. Migrations must have run.
    pub async fn new(
        config: Config,
        db: Db,
        mailer: Arc<dyn Mailer>,
        clock: Clock,
    ) -> Result<Self, StartupError> {
        let now = clock.now();
        let share_vault = Arc::new(ShareVault::from_config(&config)?);
        let sealing_key = SealingKey::load(&config)?;
        let keys = Arc::new(KeyRing::load_or_create(&db, &sealing_key.sealer(), now).await?);
        let limits = config.rate_limit;
        let seconds = |s: u64| i64::try_from(s).unwrap_or(i64::MAX);
        let ip_limits = Arc::new(IpLimits::from_config(&limits, &db));
        let signer = config
            .signer_url
            .as_deref()
            .map(SignerClient::new)
            .transpose()
            .map_err(|e| StartupError::Signer(e.to_string()))?;
        Ok(Self {
            signer,
            tokens: TokenIssuer::new(keys, config.token_issuer.clone()),
            db,
            mailer,
            sms: sms_sender_from_config(&config.sms)?,
            jwks_cache: Arc::new(JwksCache::new(outbound_client()?)),
            outbound: outbound_client()?,
            otp_secret: Arc::new(OtpSecret::new(
                sealing_key.derive(Purpose::OtpHmac).to_vec(),
            )),
            otp_limits: OtpLimits {
                max_attempts: i64::from(OTP_MAX_ATTEMPTS),
                failure_budget: i64::from(limits.code_failures_per_hour),
                failure_window_s: 3_600,
                backstop_budget: i64::from(limits.code_failures_per_address),
                backstop_window_s: 3_600,
                lock_base_s: 60,
                lock_max_s: 3_600,
                send_cooldown_s: seconds(limits.resend_cooldown_s),
                sends_per_window: i64::from(limits.email_per_window),
                send_window_s: seconds(limits.window_s),
            },
            refresh_rotation_key: Arc::new(sealing_key.derive(Purpose::RefreshRotation)),
            app_secrets: Arc::new(AppSecrets::new(&sealing_key)),
            wallet_transfer: Arc::new(TransferKey::derive(&sealing_key)),
            ip_limits,
            config: Arc::new(config),
            clock,
            share_vault,
            frame_missing_logged: Arc::new(AtomicBool::new(false)),
            secret_checker: Arc::new(SecretChecker::default()),
        })
    }
}
