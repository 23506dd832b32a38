//! What each login method reads, in one place. Every method hands its proven identity to the
//! account rules and a new session ([`LoginDeps`]); the code methods share the code engine
//! ([`CodeDeps`], which MFA by SMS uses too) and passkeys their ceremonies ([`PasskeyCeremonyDeps`],
//! which MFA by passkey uses too). A handler takes its method's slice as `State<…Deps>`.

use std::sync::Arc;

use axum::extract::FromRef;

use crate::accounts::AccountDeps;
use crate::app_secrets::AppSecrets;
use crate::clock::Clock;
use crate::config::Config;
use crate::db::Db;
use crate::db::otp::OtpLimits;
use crate::jwt_verifier::JwksCache;
use crate::mail::Mailer;
use crate::otp::OtpSecret;
use crate::rate_limit::IpLimits;
use crate::sessions::deps::SessionIssuer;
use crate::sms::SmsSender;
use crate::state::AppState;

/// What a proven identity is handed to (`super::sign_in`, `super::link_to`,
/// `super::current_user`): the account rules, a new session, the user as answered.
#[derive(Clone)]
pub struct LoginDeps {
    /// The account rules.
    pub accounts: AccountDeps,
    /// Starts the session of a sign-in.
    pub sessions: SessionIssuer,
    /// The user answered after a link or unlink.
    pub db: Db,
    /// When a fresh proof was made.
    pub clock: Clock,
}

impl FromRef<AppState> for LoginDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            accounts: AccountDeps::from_ref(state),
            sessions: SessionIssuer::from_ref(state),
            db: state.db.clone(),
            clock: state.clock.clone(),
        }
    }
}

/// One-time codes (`super::code`): their rows, their HMAC key and limits, the per-network budget.
#[derive(Clone)]
pub struct CodeDeps {
    /// Code rows.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
    /// Per-network budgets.
    pub ip_limits: Arc<IpLimits>,
    /// HMAC key of stored codes.
    pub otp_secret: Arc<OtpSecret>,
    /// The limits code rows enforce per address.
    pub otp_limits: OtpLimits,
}

impl FromRef<AppState> for CodeDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            db: state.db.clone(),
            clock: state.clock.clone(),
            ip_limits: Arc::clone(&state.ip_limits),
            otp_secret: Arc::clone(&state.otp_secret),
            otp_limits: state.otp_limits,
        }
    }
}

/// WebAuthn ceremonies (`super::passkey::ceremony`): challenges and stored passkeys.
#[derive(Clone)]
pub struct PasskeyCeremonyDeps {
    /// Challenges and passkeys.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
}

impl FromRef<AppState> for PasskeyCeremonyDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            db: state.db.clone(),
            clock: state.clock.clone(),
        }
    }
}

/// Email codes (`super::email`).
#[derive(Clone)]
pub struct EmailDeps {
    /// Sign-in and link.
    pub login: LoginDeps,
    /// The code engine.
    pub codes: CodeDeps,
    /// Delivers the codes.
    pub mailer: Arc<dyn Mailer>,
}

impl FromRef<AppState> for EmailDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            login: LoginDeps::from_ref(state),
            codes: CodeDeps::from_ref(state),
            mailer: Arc::clone(&state.mailer),
        }
    }
}

/// SMS codes (`super::sms`).
#[derive(Clone)]
pub struct SmsDeps {
    /// Sign-in and link.
    pub login: LoginDeps,
    /// The code engine.
    pub codes: CodeDeps,
    /// Texts the codes.
    pub sms: Arc<dyn SmsSender>,
}

impl FromRef<AppState> for SmsDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            login: LoginDeps::from_ref(state),
            codes: CodeDeps::from_ref(state),
            sms: Arc::clone(&state.sms),
        }
    }
}

/// Guests (`super::guest`): a per-network budget before each sign-in.
#[derive(Clone)]
pub struct GuestDeps {
    /// Sign-in.
    pub login: LoginDeps,
    /// "Now".
    pub clock: Clock,
    /// Per-network budgets.
    pub ip_limits: Arc<IpLimits>,
}

impl FromRef<AppState> for GuestDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            login: LoginDeps::from_ref(state),
            clock: state.clock.clone(),
            ip_limits: Arc::clone(&state.ip_limits),
        }
    }
}

/// The host app's own JWTs (`super::custom_auth`).
#[derive(Clone)]
pub struct CustomAuthDeps {
    /// Sign-in and link.
    pub login: LoginDeps,
    /// "Now".
    pub clock: Clock,
    /// Per-network budgets.
    pub ip_limits: Arc<IpLimits>,
    /// The hosts' keys.
    pub jwks_cache: Arc<JwksCache>,
}

impl FromRef<AppState> for CustomAuthDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            login: LoginDeps::from_ref(state),
            clock: state.clock.clone(),
            ip_limits: Arc::clone(&state.ip_limits),
            jwks_cache: Arc::clone(&state.jwks_cache),
        }
    }
}

/// OAuth providers (`super::oauth`).
#[derive(Clone)]
pub struct OAuthDeps {
    /// Sign-in and link.
    pub login: LoginDeps,
    /// Flows and the codes their callbacks received.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
    /// Per-network budgets.
    pub ip_limits: Arc<IpLimits>,
    /// The server's public URL (the callback).
    pub config: Arc<Config>,
    /// Opens the apps' client secrets.
    pub app_secrets: Arc<AppSecrets>,
    /// Calls the providers.
    pub outbound: reqwest::Client,
    /// The providers' ID-token keys.
    pub jwks_cache: Arc<JwksCache>,
}

impl FromRef<AppState> for OAuthDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            login: LoginDeps::from_ref(state),
            db: state.db.clone(),
            clock: state.clock.clone(),
            ip_limits: Arc::clone(&state.ip_limits),
            config: Arc::clone(&state.config),
            app_secrets: Arc::clone(&state.app_secrets),
            outbound: state.outbound.clone(),
            jwks_cache: Arc::clone(&state.jwks_cache),
        }
    }
}

/// Sign In With Farcaster and Farcaster signers (`super::farcaster`).
#[derive(Clone)]
pub struct FarcasterDeps {
    /// Sign-in and link.
    pub login: LoginDeps,
    /// Nonces and signer requests.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
    /// Per-network budgets.
    pub ip_limits: Arc<IpLimits>,
    /// Opens the app's signer-request key.
    pub app_secrets: Arc<AppSecrets>,
}

impl FromRef<AppState> for FarcasterDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            login: LoginDeps::from_ref(state),
            db: state.db.clone(),
            clock: state.clock.clone(),
            ip_limits: Arc::clone(&state.ip_limits),
            app_secrets: Arc::clone(&state.app_secrets),
        }
    }
}

/// Telegram (`super::telegram`).
#[derive(Clone)]
pub struct TelegramDeps {
    /// Sign-in and link.
    pub login: LoginDeps,
    /// "Now".
    pub clock: Clock,
    /// Per-network budgets.
    pub ip_limits: Arc<IpLimits>,
    /// Opens the app's bot token.
    pub app_secrets: Arc<AppSecrets>,
}

impl FromRef<AppState> for TelegramDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            login: LoginDeps::from_ref(state),
            clock: state.clock.clone(),
            ip_limits: Arc::clone(&state.ip_limits),
            app_secrets: Arc::clone(&state.app_secrets),
        }
    }
}

/// External wallets, SIWE and SIWS (`super::wallet`).
#[derive(Clone)]
pub struct WalletLoginDeps {
    /// Sign-in and link.
    pub login: LoginDeps,
    /// Nonces.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
    /// Per-network budgets.
    pub ip_limits: Arc<IpLimits>,
}

impl FromRef<AppState> for WalletLoginDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            login: LoginDeps::from_ref(state),
            db: state.db.clone(),
            clock: state.clock.clone(),
            ip_limits: Arc::clone(&state.ip_limits),
        }
    }
}

/// Passkeys (`super::passkey`).
#[derive(Clone)]
pub struct PasskeyDeps {
    /// Sign-in and link.
    pub login: LoginDeps,
    /// Challenges and assertions.
    pub ceremonies: PasskeyCeremonyDeps,
    /// The user's passkeys.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
    /// Per-network budgets.
    pub ip_limits: Arc<IpLimits>,
}

impl FromRef<AppState> for PasskeyDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            login: LoginDeps::from_ref(state),
            ceremonies: PasskeyCeremonyDeps::from_ref(state),
            db: state.db.clone(),
            clock: state.clock.clone(),
            ip_limits: Arc::clone(&state.ip_limits),
        }
    }
}
