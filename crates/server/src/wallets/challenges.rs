//! Single-use nonces for the frame's signed calls (`docs/wallet.md` "Proofs"): issued per
//! session and purpose, consumed once.

use symbolon_protocol::wallet::{WalletChallengePurpose, WalletChallengeResponse};

use super::audit::audit;
use super::deps::WalletDeps;
use super::proofs::nonce_hash;
use super::refusals::proof_refused;
use crate::db::wallets::WalletChallengeRecord;
use crate::error::AppError;
use crate::random::random_token;
use crate::web::frame_caller::FrameCaller;

/// Seconds a challenge nonce stays valid.
pub const CHALLENGE_TTL_S: i64 = 120;

/// Issues a `purpose` nonce for this session, valid [`CHALLENGE_TTL_S`]; only its hash is stored.
pub async fn issue_challenge(
    deps: &WalletDeps,
    caller: &FrameCaller,
    purpose: WalletChallengePurpose,
) -> Result<WalletChallengeResponse, AppError> {
    let nonce = random_token()?;
    let now = deps.clock.now();
    let expires_at = now + CHALLENGE_TTL_S;
    deps.db
        .insert_wallet_challenge(
            &WalletChallengeRecord {
                nonce_hash: nonce_hash(&nonce),
                user_id: caller.user.id.clone(),
                session_id: caller.claims.sid.clone(),
                purpose: purpose.as_str().into(),
                expires_at,
            },
            now,
        )
        .await?;
    Ok(WalletChallengeResponse { nonce, expires_at })
}

/// Consumes the caller's `purpose` challenge `nonce` (single use, this session only); a refusal
/// (missing, expired, used, or a storage failure) is audited as `refused_challenge` of `action`
/// on `address`.
pub async fn consume_challenge(
    deps: &WalletDeps,
    caller: &FrameCaller,
    nonce: Option<&str>,
    purpose: WalletChallengePurpose,
    (address, action): (&str, &str),
) -> Result<String, AppError> {
    let consumed = take_challenge(deps, caller, nonce, purpose).await;
    if consumed.is_err() {
        audit(caller, address, action, "refused_challenge");
    }
    consumed
}

/// [`consume_challenge`] without the audit.
async fn take_challenge(
    deps: &WalletDeps,
    caller: &FrameCaller,
    nonce: Option<&str>,
    purpose: WalletChallengePurpose,
) -> Result<String, AppError> {
    let nonce = nonce
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .ok_or_else(|| proof_refused("A signed challenge is required"))?;
    let consumed = deps
        .db
        .consume_wallet_challenge(
            &nonce_hash(nonce),
            &caller.user.id,
            &caller.claims.sid,
            purpose.as_str(),
            deps.clock.now(),
        )
        .await?;
    if consumed {
        Ok(nonce.to_string())
    } else {
        Err(proof_refused("The challenge expired or was already used"))
    }
}
