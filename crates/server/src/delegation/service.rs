//! Terms, consent and revoke, without HTTP types.

use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::DELEGATION_HPKE_SUITE;
use symbolon_protocol::delegation::{
    ConsentedSigner, DelegateWalletRequest, DelegateWalletResponse, DelegationTerms,
    DelegationTermsRequest, RevokeDelegationResponse, SessionSignerInput,
};
use symbolon_protocol::policies::{Aggregation, referenced_aggregation};
use symbolon_signer::wire::SealedConsent;

use super::deps::DelegationDeps;
use crate::db::apps::AppRecord;
use crate::db::delegations::DelegationRecord;
use crate::db::users::UserRecord;
use crate::db::wallets::EmbeddedWalletRecord;
use crate::error::AppError;
use crate::identifiers::wallet_address::normalize_wallet_address;
use crate::mfa::guard::{self, Operation};
use crate::random::random_id;
use crate::signer_client::require;
use crate::web::frame_caller::FrameCaller;
use crate::{aggregations, key_quorums, policies};

/// The refusal of an address that is not one of the caller's embedded wallets.
pub const NOT_USERS_WALLET: &str = "Address to delegate is not associated with current user.";
/// The refusal of a wallet of another chain.
pub const ETHEREUM_ONLY: &str =
    "Only Ethereum embedded wallets can be delegated for now (Solana comes with Solana wallets)";
/// The refusal of revoke without a delegated wallet.
pub const NOTHING_TO_REVOKE: &str = "User has no delegated wallets to revoke.";
/// The refusal when neither the request nor the app names a signer.
pub const NO_SIGNERS: &str = "The app names no delegation signer: pass signers ({signer_id, policy_ids}) or set the app's [delegation] signers";
/// The refusal of a signer without policies (it could sign nothing: policies deny by default).
pub const SIGNER_WITHOUT_POLICY: &str =
    "Each signer needs at least one policy (without one it could sign nothing)";
/// The refusal of a sealed consent the signer opened for another user or wallet.
pub const CONSENT_MISMATCH: &str = "The sealed consent is not for this user's wallet";

/// The caller's embedded Ethereum wallet at `address`.
async fn users_wallet(
    deps: &DelegationDeps,
    app: &AppRecord,
    user: &UserRecord,
    address: &str,
) -> Result<EmbeddedWalletRecord, AppError> {
    let checksummed = normalize_wallet_address(address)
        .ok_or_else(|| AppError::invalid_data(NOT_USERS_WALLET))?;
    let wallet = deps
        .db
        .find_embedded_wallet(&app.id, &checksummed)
        .await?
        .filter(|w| w.user_id == user.id)
        .ok_or_else(|| AppError::invalid_data(NOT_USERS_WALLET))?;
    if wallet.chain_type != "ethereum" {
        return Err(AppError::invalid_data(ETHEREUM_ONLY));
    }
    Ok(wallet)
}

/// What delegating `request.address` to the named (or the app's) signers would allow.
pub async fn terms(
    deps: &DelegationDeps,
    app: &AppRecord,
    user: &UserRecord,
    request: &DelegationTermsRequest,
) -> Result<DelegationTerms, AppError> {
    let signer = require(&deps.signer)?;
    let wallet_id = match &request.address {
        Some(address) => Some(users_wallet(deps, app, user, address).await?.id),
        None => None,
    };
    let wanted: &[SessionSignerInput] = match &request.signers {
        Some(signers) => signers,
        None => &app.settings.delegation.signers,
    };
    if wanted.is_empty() {
        return Err(AppError::new(
            ServerErrorCode::FeatureNotEnabled,
            NO_SIGNERS,
        ));
    }
    let mut signers = Vec::with_capacity(wanted.len());
    for input in wanted {
        if input.policy_ids.is_empty() {
            return Err(AppError::invalid_data(SIGNER_WITHOUT_POLICY));
        }
        let quorum = key_quorums::service::get(&deps.policies.quorums, &app.id, &input.signer_id)
            .await
            .map_err(|_| {
                AppError::invalid_data(format!(
                    "{:?} is not a key quorum of this app",
                    input.signer_id
                ))
            })?;
        let mut policies_of_signer = Vec::with_capacity(input.policy_ids.len());
        let mut carried: Vec<Aggregation> = Vec::new();
        for policy_id in &input.policy_ids {
            let policy = policies::service::get(&deps.policies, &app.id, policy_id)
                .await
                .map_err(|_| {
                    AppError::invalid_data(format!("{policy_id:?} is not a policy of this app"))
                })?;
            // The aggregations its `reference` conditions name, sealed with it: the signer sums
            // by these copies. One that is gone (deleted while the policy was being written)
            // makes the terms fail rather than a condition silently not hold.
            let named = policy
                .rules
                .iter()
                .flat_map(|r| &r.conditions)
                .filter_map(referenced_aggregation);
            for id in named {
                if carried.iter().any(|a| a.id == id) {
                    continue;
                }
                let aggregation = aggregations::service::find(&deps.db, &app.id, id)
                    .await?
                    .ok_or_else(|| {
                        AppError::invalid_data(format!(
                            "Policy {policy_id:?} names aggregation {id:?}, which this app no longer has"
                        ))
                    })?;
                carried.push(aggregation);
            }
            policies_of_signer.push(policy);
        }
        let public_keys: Vec<String> = quorum
            .authorization_keys
            .iter()
            .map(|k| k.public_key.clone())
            .collect();
        signers.push(ConsentedSigner {
            signer_id: quorum.id,
            display_name: quorum.display_name,
            threshold: quorum
                .authorization_threshold
                .unwrap_or(u32::try_from(public_keys.len()).unwrap_or(u32::MAX)),
            public_keys,
            policies: policies_of_signer,
            aggregations: carried,
        });
    }
    Ok(DelegationTerms {
        signer_public_key: signer.public_key().await?,
        hpke_suite: DELEGATION_HPKE_SUITE.to_string(),
        consent_id: format!("consent_{}", random_id(24)?),
        wallet_id,
        signers,
    })
}

/// Stores the consent the wallet frame sealed, once the signer has opened it for this user's
/// wallet; a wallet's earlier consent is revoked at the signer. A user with a second factor needs a
/// fresh MFA token, as for an export: the key leaves the device (sealed), so a session alone is not
/// enough; the token is used up once everything else passed.
pub async fn delegate(
    deps: &DelegationDeps,
    caller: &FrameCaller,
    request: &DelegateWalletRequest,
) -> Result<DelegateWalletResponse, AppError> {
    let (app, user) = (&caller.app, &caller.user);
    let signer = require(&deps.signer)?;
    let wallet = users_wallet(deps, app, user, &request.address).await?;
    let mfa = guard::check(
        &deps.mfa,
        caller,
        Operation::Export,
        request.mfa_token.as_deref(),
    )
    .await?;
    let sealed = SealedConsent {
        app_id: app.id.clone(),
        address: wallet.address.clone(),
        encapsulated_key: request.encapsulated_key.clone(),
        ciphertext: request.ciphertext.clone(),
    };
    let registered = signer.register(&sealed).await?;
    if registered.user_id != user.id
        || registered.wallet_id != wallet.id
        || registered.consent_id != request.consent_id
    {
        signer.revoke(vec![registered.consent_id]).await?;
        return Err(AppError::invalid_data(CONSENT_MISMATCH));
    }
    if let Err(refused) = mfa.consume(&deps.mfa, caller).await {
        signer.revoke(vec![registered.consent_id]).await?;
        return Err(refused);
    }
    let replaced = deps
        .db
        .put_delegation(&DelegationRecord {
            wallet_id: wallet.id.clone(),
            app_id: app.id.clone(),
            user_id: user.id.clone(),
            address: wallet.address.clone(),
            consent_id: registered.consent_id.clone(),
            encapsulated_key: sealed.encapsulated_key,
            ciphertext: sealed.ciphertext,
            signer_ids: serde_json::to_string(&registered.signer_ids)
                .map_err(|e| AppError::internal(&e))?,
            created_at: deps.clock.now(),
        })
        .await?;
    if let Some(old) = replaced {
        signer.revoke(vec![old]).await?;
    }
    tracing::info!(app = %app.id, user = %user.id, wallet = %wallet.id, "wallet delegated");
    Ok(DelegateWalletResponse {
        address: wallet.address,
        delegated: true,
        signer_ids: registered.signer_ids,
    })
}

/// Revokes every delegated wallet of the user: the signer refuses their consents from now on
/// (first, so an old copy of the database cannot bring them back), then their ciphertexts go.
pub async fn revoke(
    deps: &DelegationDeps,
    app: &AppRecord,
    user: &UserRecord,
) -> Result<RevokeDelegationResponse, AppError> {
    let delegated = deps.db.delegated_wallet_ids(&user.id).await?;
    if delegated.is_empty() {
        return Err(AppError::new(
            ServerErrorCode::UserHasNotDelegatedWallet,
            NOTHING_TO_REVOKE,
        ));
    }
    let mut consent_ids = Vec::new();
    for wallet_id in &delegated {
        if let Some(delegation) = deps.db.find_delegation(&app.id, wallet_id).await? {
            consent_ids.push(delegation.consent_id);
        }
    }
    if let Some(signer) = &deps.signer {
        signer.revoke(consent_ids).await?;
    }
    let revoked = deps
        .db
        .delete_delegations_of_user(&app.id, &user.id)
        .await?;
    tracing::info!(app = %app.id, user = %user.id, wallets = revoked.len(), "delegations revoked");
    Ok(RevokeDelegationResponse {
        success: true,
        revoked: revoked.into_iter().map(|(_, address)| address).collect(),
    })
}
