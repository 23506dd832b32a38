//! Listing, reading and signing for the app's wallets, without HTTP types.

use serde_json::{Value, json};
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::wallet_api::{
    ServerWallet, WalletAdditionalSigner, WalletListResponse, WalletRpcResponse,
};
use symbolon_signer::methods::{Route, caip2_chain};
use symbolon_signer::wire::{SealedConsent, SignRequest};

use super::chain;
use super::deps::WalletApiDeps;
use crate::db::apps::AppRecord;
use crate::db::delegations::{ListedWallet, WalletFilter};
use crate::error::AppError;
use crate::identifiers::wallet_address::normalize_wallet_address;
use crate::signer_client::require;
use crate::web::authorization_signature::SignedRequest;

/// The most wallets on one page, and the default.
pub const MAX_PAGE: u32 = 100;
/// The refusal of a wallet its user has not delegated.
pub const NOT_DELEGATED: &str =
    "The user has not delegated this wallet: they delegate it in the app (useDelegatedActions)";
/// The refusal of an unknown wallet.
pub const WALLET_NOT_FOUND: &str = "No such wallet in this app";

fn view((wallet, signer_ids): ListedWallet) -> ServerWallet {
    let signers: Vec<String> = signer_ids
        .as_deref()
        .and_then(|json| serde_json::from_str(json).ok())
        .unwrap_or_default();
    ServerWallet {
        id: wallet.id,
        address: wallet.address,
        chain_type: wallet.chain_type,
        created_at: wallet.created_at.saturating_mul(1000),
        exported_at: None,
        imported_at: None,
        owner_id: None,
        policy_ids: Vec::new(),
        additional_signers: signers
            .into_iter()
            .map(|signer_id| WalletAdditionalSigner {
                signer_id,
                override_policy_ids: Vec::new(),
            })
            .collect(),
        user_id: wallet.user_id,
        delegated: signer_ids.is_some(),
    }
}

/// A page of the app's wallets.
pub async fn list(
    deps: &WalletApiDeps,
    app: &AppRecord,
    mut filter: WalletFilter,
    cursor: Option<&str>,
    limit: Option<u32>,
) -> Result<WalletListResponse, AppError> {
    let limit = limit.unwrap_or(MAX_PAGE);
    if !(1..=MAX_PAGE).contains(&limit) {
        return Err(AppError::invalid_data(format!(
            "limit must be between 1 and {MAX_PAGE}"
        )));
    }
    if let Some(address) = &filter.address {
        filter.address = Some(
            normalize_wallet_address(address)
                .ok_or_else(|| AppError::invalid_data("address is not a wallet address"))?,
        );
    }
    let mut rows = deps
        .db
        .list_wallets(&app.id, &filter, cursor, limit + 1)
        .await?;
    let more = rows.len() > limit as usize;
    rows.truncate(limit as usize);
    let next_cursor = more
        .then(|| rows.last().map(|(w, _)| w.id.clone()))
        .flatten();
    Ok(WalletListResponse {
        data: rows.into_iter().map(view).collect(),
        next_cursor,
    })
}

/// The app's wallet `wallet_id`.
pub async fn get(
    deps: &WalletApiDeps,
    app: &AppRecord,
    wallet_id: &str,
) -> Result<ServerWallet, AppError> {
    find(deps, app, wallet_id).await.map(view)
}

async fn find(
    deps: &WalletApiDeps,
    app: &AppRecord,
    wallet_id: &str,
) -> Result<ListedWallet, AppError> {
    deps.db
        .find_listed_wallet(&app.id, wallet_id)
        .await?
        .ok_or_else(|| AppError::new(ServerErrorCode::NotFound, WALLET_NOT_FOUND))
}

/// Signs (and for `eth_sendTransaction` broadcasts) a wallet-API request through the signer.
pub async fn sign(
    deps: &WalletApiDeps,
    app: &AppRecord,
    wallet_id: &str,
    route: Route,
    signed: &SignedRequest,
) -> Result<WalletRpcResponse, AppError> {
    let signer = require(&deps.signer)?;
    let (wallet, _) = find(deps, app, wallet_id).await?;
    let delegation = deps
        .db
        .find_delegation(&app.id, &wallet.id)
        .await?
        .ok_or_else(|| AppError::new(ServerErrorCode::UserHasNotDelegatedWallet, NOT_DELEGATED))?;
    let body = signed.body();
    let method = body
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let sends = route == Route::Rpc && method == "eth_sendTransaction";
    let transaction = body
        .pointer("/params/transaction")
        .and_then(Value::as_object);
    let chain_id = match (body.get("caip2").and_then(Value::as_str), transaction) {
        (Some(caip2), _) => {
            Some(caip2_chain(caip2).map_err(|e| AppError::invalid_data(e.message))?)
        }
        (None, Some(tx)) => tx
            .get("chain_id")
            .and_then(|v| v.as_u64().or_else(|| v.as_str().and_then(parse_quantity))),
        (None, None) => None,
    };
    let rpc_url = chain_id.and_then(|id| app.settings.wallets.rpc_url(id));
    let completion = match (transaction, rpc_url) {
        (Some(tx), Some(url)) if route == Route::Rpc => {
            Some(chain::complete(url, &wallet.address, tx).await?)
        }
        _ => None,
    };
    if sends && rpc_url.is_none() {
        return Err(chain::no_rpc(chain_id.unwrap_or_default()));
    }
    let answer = signer
        .sign(&SignRequest {
            sealed: SealedConsent {
                app_id: app.id.clone(),
                address: delegation.address,
                encapsulated_key: delegation.encapsulated_key,
                ciphertext: delegation.ciphertext,
            },
            request: signed.clone(),
            completion,
        })
        .await?;
    if let (true, Some(url)) = (sends, rpc_url) {
        let raw = answer.data["signed_transaction"]
            .as_str()
            .unwrap_or_default();
        let hash = chain::broadcast(url, raw).await?;
        tracing::info!(app = %app.id, wallet = %wallet.id, %hash, rule = %answer.allowed_by, "delegated transaction sent");
        return Ok(WalletRpcResponse {
            method: answer.method,
            data: json!({ "hash": hash, "caip2": answer.data["caip2"] }),
        });
    }
    Ok(WalletRpcResponse {
        method: answer.method,
        data: answer.data,
    })
}

fn parse_quantity(text: &str) -> Option<u64> {
    match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}
