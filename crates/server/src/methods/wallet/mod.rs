//! The `wallet` login method: Sign-In With Ethereum ([`siwe`]) and Solana ([`siws`]), and what
//! they share: the nonce (issued for one address, stored hashed, used once), the message times,
//! the `wallet` identity and address normalisation.

pub mod deps;
pub mod siwe;
pub mod siws;

use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::{SIWE_STATEMENT, WALLET_MESSAGE_MAX_LEN, WALLET_NONCE_TTL_S};
use symbolon_protocol::siwe::{ExternalWalletMetadata, SiweInitResponse};
use symbolon_protocol::user::ChainType;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use axum::Json;
use symbolon_protocol::user::User;

use crate::accounts::{self, VerifiedIdentity};
use crate::app_settings::login_methods::LoginMethod;
use crate::db::account_details::ExternalWalletDetails;
use crate::db::wallet_nonces::WalletNonce;
use crate::db::wallets::WALLET_ACCOUNT_TYPE as WALLET;
use crate::digest::sha256_hex;
use crate::error::AppError;
pub use crate::identifiers::wallet_address::{
    ethereum_address, normalize_solana, normalize_wallet_address, solana_address,
};
use crate::methods::current_user;
use crate::methods::wallet::deps::WalletLoginDeps;
use crate::random::random_id;
use crate::web::app_context::AppContext;
use crate::web::auth::SignedIn;
use crate::web::client_ip::ClientIp;

/// Seconds a signed message may claim to be issued ahead of our clock (wallet clocks drift).
pub const CLOCK_SKEW_S: i64 = 300;
/// The longest `walletClientType` / `connectorType` kept.
const MAX_LABEL_LEN: usize = 64;

/// Issues a nonce for `address` (already normalised): `/siwe/init`, `/siws/init`. Limited per
/// client IP only; the address keeps its newest nonces (`db::wallet_nonces`).
pub async fn issue_nonce(
    deps: &WalletLoginDeps,
    ctx: &AppContext,
    client_ip: &ClientIp,
    chain: ChainType,
    address: String,
) -> Result<SiweInitResponse, AppError> {
    let app = &ctx.app;
    let now = deps.clock.now();
    client_ip.spend(&deps.ip_limits, now).await?;
    // No budget per address: anyone may ask for a nonce of any address, so one would let a
    // stranger lock the owner out. The store keeps the address's newest nonces instead
    // (`MAX_LIVE_NONCES_PER_ADDRESS`, oldest evicted), so the owner's init always gets a live one.
    // EIP-4361: at least 8 alphanumerics.
    let nonce = random_id(32)?;
    let expires_at = now + i64::try_from(WALLET_NONCE_TTL_S).unwrap_or(600);
    let hash = sha256_hex(nonce.as_bytes());
    let row = WalletNonce {
        nonce_hash: &hash,
        app_id: &app.id,
        chain_type: chain.as_str(),
        address: &address,
        expires_at,
    };
    deps.db.insert_wallet_nonce(&row, now).await?;
    Ok(SiweInitResponse {
        nonce,
        address,
        expires_at: rfc3339(expires_at)?,
    })
}

/// Uses up the nonce issued to exactly this app and address. Called last, so only a proof that
/// holds spends it; of concurrent uses one wins.
pub async fn take_nonce(
    deps: &WalletLoginDeps,
    app_id: &str,
    chain: ChainType,
    address: &str,
    nonce: &str,
    now: i64,
) -> Result<(), AppError> {
    nonce_step(deps, app_id, chain, address, nonce, now, true).await
}

/// Refuses a nonce that is not live for this app and address, without using it up (before a
/// chain call, so a proof without a valid nonce costs no RPC request).
pub async fn require_live_nonce(
    deps: &WalletLoginDeps,
    app_id: &str,
    chain: ChainType,
    address: &str,
    nonce: &str,
    now: i64,
) -> Result<(), AppError> {
    nonce_step(deps, app_id, chain, address, nonce, now, false).await
}

async fn nonce_step(
    deps: &WalletLoginDeps,
    app_id: &str,
    chain: ChainType,
    address: &str,
    nonce: &str,
    now: i64,
    take: bool,
) -> Result<(), AppError> {
    let hash = sha256_hex(nonce.as_bytes());
    let row = WalletNonce {
        nonce_hash: &hash,
        app_id,
        chain_type: chain.as_str(),
        address,
        expires_at: 0,
    };
    let ok = if take {
        deps.db.take_wallet_nonce(&row, now).await?
    } else {
        deps.db.wallet_nonce_live(&row, now).await?
    };
    if ok {
        Ok(())
    } else {
        Err(AppError::new(
            ServerErrorCode::InvalidCredentials,
            "This sign-in request expired, was already used or was issued for another address",
        ))
    }
}

/// The checks SIWE and SIWS messages share, on their parsed fields.
#[derive(Debug, Clone, Copy)]
pub struct CommonFields<'a> {
    /// The message's domain.
    pub domain: &'a str,
    /// Its URI.
    pub uri: &'a str,
    /// Its statement, if any.
    pub statement: Option<&'a str>,
    /// Issued At (unix seconds).
    pub issued_at: i64,
    /// Expiration Time (unix seconds), if any.
    pub expires_at: Option<i64>,
    /// Not Before (unix seconds), if any.
    pub not_before: Option<i64>,
}

/// Checks a message's domain and URI against the request's site, the fixed statement and its
/// times against `now`. EIP-4361 §"Verifying": the relying party checks all of them.
pub fn check_common(
    fields: &CommonFields<'_>,
    origin: &str,
    domain: &str,
    now: i64,
) -> Result<(), AppError> {
    if !fields.domain.eq_ignore_ascii_case(domain) {
        return Err(AppError::invalid_data(
            "The message was signed for another domain",
        ));
    }
    let uri_origin = url::Url::parse(fields.uri)
        .map(|u| u.origin().ascii_serialization())
        .map_err(|_| AppError::invalid_data("The message's URI is not a URL"))?;
    if uri_origin != origin {
        return Err(AppError::invalid_data(
            "The message's URI is not this site's",
        ));
    }
    if fields.statement != Some(SIWE_STATEMENT) {
        return Err(AppError::invalid_data(
            "The message does not carry the sign-in statement",
        ));
    }
    let too_early = fields.issued_at > now + CLOCK_SKEW_S
        || fields.not_before.is_some_and(|t| t > now + CLOCK_SKEW_S);
    if too_early {
        return Err(AppError::new(
            ServerErrorCode::InvalidCredentials,
            "The message is not valid yet",
        ));
    }
    // A message older than any nonce it could carry, or past its own expiry.
    let ttl = i64::try_from(WALLET_NONCE_TTL_S).unwrap_or(600);
    if fields.issued_at < now - ttl - CLOCK_SKEW_S || fields.expires_at.is_some_and(|t| t <= now) {
        return Err(AppError::new(
            ServerErrorCode::InvalidCredentials,
            "The message has expired",
        ));
    }
    Ok(())
}

/// Refuses a message too long to be a sign-in message.
pub fn check_length(message: &str) -> Result<(), AppError> {
    if message.len() > WALLET_MESSAGE_MAX_LEN {
        return Err(AppError::invalid_data("The message is too long"));
    }
    Ok(())
}

/// Refuses `walletClientType` / `connectorType` longer than 64 characters; called before the
/// proof is checked, so a refused request does not use up its nonce.
pub fn check_metadata(metadata: &ExternalWalletMetadata) -> Result<(), AppError> {
    labels(metadata).map(|_| ())
}

/// The client and connector labels as stored (`unknown` when not sent).
fn labels(metadata: &ExternalWalletMetadata) -> Result<(String, String), AppError> {
    let label = |value: Option<&String>| -> Result<String, AppError> {
        match value.map(|v| v.trim()).filter(|v| !v.is_empty()) {
            None => Ok("unknown".into()),
            Some(v) if v.len() <= MAX_LABEL_LEN => Ok(v.to_string()),
            Some(_) => Err(AppError::invalid_data(
                "walletClientType and connectorType are at most 64 characters",
            )),
        }
    };
    Ok((
        label(metadata.wallet_client_type.as_ref())?,
        label(metadata.connector_type.as_ref())?,
    ))
}

/// The `wallet` identity of a proven address, with how the client connected it.
pub fn wallet_identity(
    chain: ChainType,
    address: String,
    metadata: &ExternalWalletMetadata,
) -> Result<VerifiedIdentity, AppError> {
    let (client, connector) = labels(metadata)?;
    let details = ExternalWalletDetails {
        chain_type: Some(chain),
        wallet_client_type: Some(client),
        connector_type: Some(connector),
    };
    Ok(VerifiedIdentity::with_details(
        LoginMethod::Wallet,
        WALLET,
        address,
        &details,
    )?)
}

/// `/siwe/unlink`, `/siws/unlink`: removes the caller's wallet (never an embedded one, never the
/// last way in) and answers with the user.
pub async fn unlink_wallet(
    deps: &WalletLoginDeps,
    signed_in: &SignedIn,
    address: Option<String>,
) -> Result<Json<User>, AppError> {
    let address = address.ok_or_else(|| AppError::invalid_data("Invalid wallet address"))?;
    accounts::unlink(&deps.login.accounts, &signed_in.user, WALLET, &address).await?;
    current_user(&deps.login, signed_in).await
}

/// `/siwe/transfer`, `/siws/transfer` (spec §7 "wallet {nonce, address, metadata}"): moves the
/// wallet from its owner with the nonce of `account_transfer_required`; `metadata` records how
/// the caller connects it.
pub async fn transfer_wallet(
    deps: &WalletLoginDeps,
    signed_in: &SignedIn,
    chain: ChainType,
    address: Option<String>,
    nonce: &str,
    metadata: Option<&ExternalWalletMetadata>,
) -> Result<Json<User>, AppError> {
    let address = address.ok_or_else(|| AppError::invalid_data("Invalid wallet address"))?;
    if let Some(metadata) = metadata {
        check_metadata(metadata)?;
    }
    let (app, user) = (&signed_in.ctx.app, &signed_in.user);
    accounts::transfer(&deps.login.accounts, app, user, nonce, WALLET, &address).await?;
    if let Some(metadata) = metadata {
        let identity = wallet_identity(chain, address.clone(), metadata)?;
        if let Some(details) = identity.details_json() {
            deps.db
                .set_account_details(&user.id, WALLET, &address, &details)
                .await?;
        }
    }
    current_user(&deps.login, signed_in).await
}

/// RFC 3339 text of a unix time.
pub fn rfc3339(unix: i64) -> Result<String, AppError> {
    OffsetDateTime::from_unix_timestamp(unix)
        .ok()
        .and_then(|t| t.format(&Rfc3339).ok())
        .ok_or_else(|| AppError::invalid_data("Invalid time"))
}

/// Unix seconds of RFC 3339 text.
pub fn parse_rfc3339(text: &str) -> Option<i64> {
    OffsetDateTime::parse(text.trim(), &Rfc3339)
        .ok()
        .map(OffsetDateTime::unix_timestamp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_times_are_rfc3339() {
        assert_eq!(
            parse_rfc3339("2026-01-01T00:00:00.123Z"),
            Some(1_767_225_600)
        );
        assert_eq!(parse_rfc3339("yesterday"), None);
    }

    #[test]
    fn wallet_details_are_written_with_the_previous_keys() -> Result<(), AppError> {
        let metadata = ExternalWalletMetadata {
            wallet_client_type: Some(" metamask ".into()),
            connector_type: None,
        };
        let address = "0x8ba1f109551bD432803012645Ac136ddd64DBA72".to_string();
        let identity = wallet_identity(ChainType::Ethereum, address, &metadata)?;
        // What the previous release's `json!` wrote.
        let previous = serde_json::json!({
            "chain_type": "ethereum",
            "wallet_client_type": "metamask",
            "connector_type": "unknown",
        });
        assert_eq!(identity.details.as_ref(), Some(&previous));
        assert_eq!(identity.details_json(), Some(previous.to_string()));
        assert_eq!(identity.detail("wallet_client_type"), Some("metamask"));
        Ok(())
    }
}
