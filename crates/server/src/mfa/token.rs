//! MFA tokens: what a verification gives the wallet frame. 32 random bytes (base64url), kept
//! as SHA-256 with the app, user, session and method for `MFA_TOKEN_TTL_S`; used up by one
//! conditional `DELETE` that names all of them, so a token works once, in its own session only.

use super::deps::MfaDeps;
use crate::db::mfa::{NewMfaToken, TokenUse};
use crate::digest::sha256_hex;
use crate::error::AppError;
use crate::random::random_token;
use crate::web::frame_caller::FrameCaller;

use super::{MFA_TOKEN_TTL_S, MfaMethodType};

/// The stored form of a presented token.
pub fn token_hash(token: &str) -> String {
    sha256_hex(token.trim().as_bytes())
}

/// A token as presented by `caller` (hashed), to check or consume.
pub fn presented<'a>(caller: &'a FrameCaller, hash: &'a str, now: i64) -> TokenUse<'a> {
    TokenUse {
        hash,
        app_id: &caller.app.id,
        user_id: &caller.user.id,
        session_id: &caller.claims.sid,
        now,
    }
}

/// Issues a token for `caller`'s session after a successful `method` verification:
/// `(token, expires_at)`.
pub async fn issue(
    deps: &MfaDeps,
    caller: &FrameCaller,
    method: MfaMethodType,
) -> Result<(String, i64), AppError> {
    let token = random_token()?;
    let hash = token_hash(&token);
    let now = deps.clock.now();
    let expires_at = now + MFA_TOKEN_TTL_S as i64;
    deps.db
        .insert_mfa_token(&NewMfaToken {
            owner: presented(caller, &hash, now),
            method: method.as_str(),
            expires_at,
        })
        .await?;
    Ok((token, expires_at))
}
