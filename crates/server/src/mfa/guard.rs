//! What MFA guards in the wallet (`docs/wallet.md` "MFA"): once a user has a second factor, the
//! server releases the shares for an export or a recovery only with a fresh MFA token of the
//! caller's session, and, when the app protects transactions, for each signature too (the frame
//! is then told to forget the key after that one operation). An export or a recovery uses the
//! token up; a signature counts against it: one verification covers up to `MFA_SIGNING_USES`
//! signatures within `MFA_SIGNING_WINDOW_S` of it, so a second signature right after the first
//! does not wait for the authenticator's next 30-second code. A token that signed cannot then
//! export, recover or change a factor: those ask for a verification of their own.
//!
//! Two steps, so that a refused request spends nothing: [`check`] before the other checks (no
//! token, or a token that cannot serve the operation, refuses at once), [`Cleared::consume`]
//! after all of them passed (one conditional write; a concurrent use past the limit loses here).

use symbolon_protocol::ServerErrorCode;

use super::deps::MfaGuard;
use super::token::{presented, token_hash};
use super::{MFA_SIGNING_USES, MFA_SIGNING_WINDOW_S};
use crate::db::mfa::SigningWindow;
use crate::error::{AppError, Status};
use crate::web::frame_caller::FrameCaller;

/// What one verification covers for signatures.
const SIGNING_WINDOW: SigningWindow = SigningWindow {
    seconds: MFA_SIGNING_WINDOW_S as i64,
    uses: MFA_SIGNING_USES as i64,
};

/// Why the frame asks for key material.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// Rebuild the key to sign (the default).
    Sign,
    /// Rebuild the key to show it to the user.
    Export,
    /// Both shares for a new device (`recovery: true`).
    Recovery,
}

/// A request the guard let through.
#[derive(Debug)]
#[must_use = "a required token must be consumed once the other checks passed"]
pub struct Cleared {
    /// The presented token's hash, when one is required.
    required: Option<String>,
    /// The operation is a signature: the token is counted, not used up.
    signing: bool,
    /// The frame must forget the key after this one operation.
    pub single_use: bool,
}

/// `403 missing_or_invalid_mfa`: the operation needs an MFA verification first.
pub fn mfa_required() -> AppError {
    AppError::new(
        ServerErrorCode::MissingOrInvalidMfa,
        "MFA verification is required",
    )
    .with_status(Status::Forbidden)
}

/// `403 expired_or_invalid_mfa_token`: unknown, expired, used, or another session's token.
pub fn token_refused() -> AppError {
    AppError::new(
        ServerErrorCode::ExpiredOrInvalidMfaToken,
        "The MFA token is expired or invalid",
    )
    .with_status(Status::Forbidden)
}

/// Decides whether `operation` of `caller` needs an MFA token and, if so, that `token` is live
/// (nothing is used up yet).
pub async fn check(
    deps: &MfaGuard,
    caller: &FrameCaller,
    operation: Operation,
    token: Option<&str>,
) -> Result<Cleared, AppError> {
    let has_mfa = !deps.db.mfa_methods(&caller.user.id).await?.is_empty();
    let protect = has_mfa && caller.app.settings.mfa.protect_transactions;
    let needed = has_mfa && (operation != Operation::Sign || protect);
    if !needed {
        return Ok(Cleared {
            required: None,
            signing: false,
            single_use: protect,
        });
    }
    let token = token
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(mfa_required)?;
    let hash = token_hash(token);
    let now = deps.clock.now();
    let signing = operation == Operation::Sign;
    let owner = presented(caller, &hash, now);
    let live = if signing {
        deps.db.mfa_token_signs(owner, SIGNING_WINDOW).await?
    } else {
        deps.db.mfa_token_valid(owner).await?
    };
    if !live {
        return Err(token_refused());
    }
    Ok(Cleared {
        required: Some(hash),
        signing,
        single_use: protect,
    })
}

impl Cleared {
    /// Whether a token was required (and will be used up).
    pub fn needs_token(&self) -> bool {
        self.required.is_some()
    }

    /// Uses the token up, if one was required; refused when another request used it first or
    /// it expired meanwhile.
    pub async fn consume(&self, deps: &MfaGuard, caller: &FrameCaller) -> Result<(), AppError> {
        let Some(hash) = &self.required else {
            return Ok(());
        };
        let owner = presented(caller, hash, deps.clock.now());
        let used = if self.signing {
            deps.db.use_mfa_token_to_sign(owner, SIGNING_WINDOW).await?
        } else {
            deps.db.consume_mfa_token(owner).await?
        };
        if used { Ok(()) } else { Err(token_refused()) }
    }
}
