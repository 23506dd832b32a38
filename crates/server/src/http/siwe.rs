//! `POST /siwe/unlink`. Sign-in with Ethereum itself comes later; for now the only wallets are
//! embedded ones, and those cannot be unlinked (spec §5).

use axum::Json;
use axum::extract::State;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::user::User;
use symbolon_protocol::wallet::SiweUnlinkRequest;

use super::auth::Authenticated;
use super::embedded_wallets::parse_address;
use super::error::AppError;
use super::json_body::JsonBody;
use crate::state::AppState;

/// Refuses embedded wallets; any other address is not linked.
pub async fn unlink(
    State(state): State<AppState>,
    auth: Authenticated,
    JsonBody(body): JsonBody<SiweUnlinkRequest>,
) -> Result<Json<User>, AppError> {
    auth.ctx.require_origin()?;
    let address = parse_address(&body.address)?;
    let wallet = state
        .db
        .find_embedded_wallet(&auth.ctx.app.id, &address.to_checksum())
        .await?;
    if wallet.is_some_and(|w| w.user_id == auth.claims.sub) {
        return Err(AppError::new(
            ServerErrorCode::CannotUnlinkEmbeddedWallet,
            "Cannot unlink an embedded wallet",
        ));
    }
    Err(AppError::new(
        ServerErrorCode::LinkedAccountNotFound,
        "No wallet with this address is linked to the user",
    ))
}
