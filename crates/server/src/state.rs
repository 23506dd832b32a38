//! Everything a request handler needs, shared across requests.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use crate::clock::Clock;
use crate::config::Config;
use crate::db::{Db, DbError};
use crate::mail::Mailer;
use crate::otp::OtpSecret;
use crate::random::{RandomError, random_bytes};
use crate::rate_limit::RateLimiter;
use crate::tokens::{KeyRing, KeySealer, TokenError, TokenIssuer};
use crate::wallets::{ShareKeyError, ShareVault};

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
    /// The embedded-wallet share keys could not be loaded or created.
    #[error(transparent)]
    ShareKey(#[from] ShareKeyError),
    /// The stored OTP secret is corrupt.
    #[error("stored otp secret is unreadable")]
    BadSecret,
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
    /// HMAC key for codes.
    pub otp_secret: Arc<OtpSecret>,
    /// Limits code sends per address.
    pub email_limiter: Arc<RateLimiter>,
    /// Limits code sends per client IP.
    pub ip_limiter: Arc<RateLimiter>,
    /// "Now".
    pub clock: Clock,
    /// Encrypts and decrypts embedded-wallet shares at rest.
    pub share_vault: Arc<ShareVault>,
    /// Set once "the wallet frame is not built" has been logged.
    pub frame_missing_logged: Arc<AtomicBool>,
}

impl AppState {
    /// Loads keys and secrets from `db` (creating them at first start). Migrations must have run.
    pub async fn new(
        config: Config,
        db: Db,
        mailer: Arc<dyn Mailer>,
        clock: Clock,
    ) -> Result<Self, StartupError> {
        let now = clock.now();
        let share_vault = Arc::new(ShareVault::from_config(&config)?);
        let sealer = match &config.key_encryption_key {
            Some(key) => KeySealer::from_base64(&key.0)?,
            None => KeySealer::plain(),
        };
        let keys = Arc::new(KeyRing::load_or_create(&db, &sealer, now).await?);
        let candidate = STANDARD.encode(random_bytes::<32>()?);
        let secret = db.secret_or_insert("otp_hmac", &candidate, now).await?;
        let secret = STANDARD
            .decode(secret)
            .map_err(|_| StartupError::BadSecret)?;
        let limits = config.rate_limit;
        Ok(Self {
            tokens: TokenIssuer::new(keys, config.public_url.clone()),
            db,
            mailer,
            otp_secret: Arc::new(OtpSecret::new(secret)),
            email_limiter: Arc::new(RateLimiter::new(limits.email_per_window, limits.window_s)),
            ip_limiter: Arc::new(RateLimiter::new(limits.ip_per_window, limits.window_s)),
            config: Arc::new(config),
            clock,
            share_vault,
            frame_missing_logged: Arc::new(AtomicBool::new(false)),
        })
    }
}
