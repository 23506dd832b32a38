//! The policies API's rules, without HTTP: create, read, change and delete an app's policies and
//! their rules. Every change is checked whole ([`super::check`]) and written while the policy's row
//! is held, so concurrent rule edits never lose one another.

use serde_json::Value;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::policies::{
    CreatePolicyRequest, POLICY_VERSION, Policy, PolicyRule, PolicyRuleInput, UpdatePolicyRequest,
};

use super::check::{
    MAX_RULES, check_aggregations, check_name, check_policy_fields, check_rule, check_rules,
};
use super::deps::PolicyDeps;
use crate::db::DbError;
use crate::db::policies::PolicyRecord;
use crate::error::AppError;
use crate::key_quorums::service::{authorize_owner, create_for_key, exists};
use crate::random::random_id;
use crate::web::authorization_signature::{SignedRequest, parse_public_key};

/// The refusal of a policy the app does not have.
pub const POLICY_NOT_FOUND: &str = "Policy not found";
/// The refusal of a rule the policy does not have.
pub const RULE_NOT_FOUND: &str = "Rule not found";

fn not_found(what: &str) -> AppError {
    AppError::new(ServerErrorCode::NotFound, what)
}

/// Creates a policy of `app_id`.
pub async fn create(
    deps: &PolicyDeps,
    app_id: &str,
    request: &CreatePolicyRequest,
) -> Result<Policy, AppError> {
    check_policy_fields(&request.version, &request.name, &request.chain_type)?;
    check_rules(&request.rules)?;
    check_aggregations(&deps.aggregations, app_id, &request.rules).await?;
    let owner_id = new_owner(
        deps,
        app_id,
        request.owner.as_ref(),
        request.owner_id.as_deref(),
    )
    .await?;
    let rules = request
        .rules
        .iter()
        .map(stored_rule)
        .collect::<Result<Vec<_>, _>>()?;
    let record = PolicyRecord {
        id: random_id(24)?,
        app_id: app_id.to_string(),
        name: request.name.clone(),
        chain_type: request.chain_type.clone(),
        version: POLICY_VERSION.into(),
        rules: rules_json(&rules)?,
        revision: 0,
        created_at: deps.clock.now().saturating_mul(1000),
        owner_id,
    };
    deps.db.insert_policy(&record).await?;
    view(&record)
}

/// `app_id`'s policy `id`.
pub async fn get(deps: &PolicyDeps, app_id: &str, id: &str) -> Result<Policy, AppError> {
    view(&read(deps, app_id, id).await?)
}

/// Replaces the name and/or all the rules.
pub async fn update(
    deps: &PolicyDeps,
    app_id: &str,
    id: &str,
    request: &UpdatePolicyRequest,
    signed: &SignedRequest,
) -> Result<Policy, AppError> {
    // `owner: null` (or `owner_id: null`) removes the owner; absent keeps it.
    let body = signed.body();
    let owner_change = if body.get("owner").is_some() || body.get("owner_id").is_some() {
        Some(
            new_owner(
                deps,
                app_id,
                request.owner.as_ref(),
                request.owner_id.as_deref(),
            )
            .await?,
        )
    } else {
        None
    };
    if let Some(name) = &request.name {
        check_name(name, "name")?;
    }
    let new_rules = match &request.rules {
        Some(rules) => {
            check_rules(rules)?;
            check_aggregations(&deps.aggregations, app_id, rules).await?;
            Some(
                rules
                    .iter()
                    .map(stored_rule)
                    .collect::<Result<Vec<_>, _>>()?,
            )
        }
        None => None,
    };
    change(deps, app_id, id, signed, |policy, rules| {
        if let Some(new) = &request.name {
            policy.name = new.clone();
        }
        if let Some(new) = &new_rules {
            *rules = new.clone();
        }
        if let Some(owner) = &owner_change {
            policy.owner_id = owner.clone();
        }
        Ok(())
    })
    .await
    .map(|(policy, ())| policy)
}

/// Deletes the policy (with its owner's signatures).
pub async fn delete(
    deps: &PolicyDeps,
    app_id: &str,
    id: &str,
    signed: &SignedRequest,
) -> Result<(), AppError> {
    let policy = read(deps, app_id, id).await?;
    authorize(deps, &policy, signed).await?;
    if deps.db.delete_policy(app_id, id).await? {
        Ok(())
    } else {
        Err(not_found(POLICY_NOT_FOUND))
    }
}

/// Adds a rule; the rule as stored.
pub async fn add_rule(
    deps: &PolicyDeps,
    app_id: &str,
    id: &str,
    input: &PolicyRuleInput,
    signed: &SignedRequest,
) -> Result<PolicyRule, AppError> {
    check_rule(input)?;
    check_aggregations(&deps.aggregations, app_id, [input]).await?;
    let rule = stored_rule(input)?;
    change(deps, app_id, id, signed, |_, rules| {
        if rules.len() >= MAX_RULES {
            return Err(AppError::invalid_data(format!(
                "A policy has at most {MAX_RULES} rules"
            )));
        }
        rules.push(rule.clone());
        Ok(())
    })
    .await?;
    Ok(rule)
}

/// The policy's rule `rule_id`.
pub async fn get_rule(
    deps: &PolicyDeps,
    app_id: &str,
    id: &str,
    rule_id: &str,
) -> Result<PolicyRule, AppError> {
    let policy = get(deps, app_id, id).await?;
    policy
        .rules
        .into_iter()
        .find(|r| r.id == rule_id)
        .ok_or_else(|| not_found(RULE_NOT_FOUND))
}

/// Replaces the rule `rule_id` (keeping its id and place).
pub async fn update_rule(
    deps: &PolicyDeps,
    app_id: &str,
    id: &str,
    rule_id: &str,
    input: &PolicyRuleInput,
    signed: &SignedRequest,
) -> Result<PolicyRule, AppError> {
    check_rule(input)?;
    check_aggregations(&deps.aggregations, app_id, [input]).await?;
    let mut rule = stored_rule(input)?;
    rule.id = rule_id.to_string();
    change(deps, app_id, id, signed, |_, rules| {
        let slot = rules
            .iter_mut()
            .find(|r| r.id == rule_id)
            .ok_or_else(|| not_found(RULE_NOT_FOUND))?;
        *slot = rule.clone();
        Ok(())
    })
    .await?;
    Ok(rule)
}

/// Removes the rule `rule_id`.
pub async fn delete_rule(
    deps: &PolicyDeps,
    app_id: &str,
    id: &str,
    rule_id: &str,
    signed: &SignedRequest,
) -> Result<(), AppError> {
    change(deps, app_id, id, signed, |_, rules| {
        let before = rules.len();
        rules.retain(|r| r.id != rule_id);
        if rules.len() == before {
            return Err(not_found(RULE_NOT_FOUND));
        }
        Ok(())
    })
    .await
    .map(|_| ())
}

/// Applies `edit` to the policy and its rules and stores the result, holding the policy while it
/// does (`Db::edit_policy`): concurrent edits never lose one another. An owned policy changes only
/// with its owner's signatures, checked against the owner the edit then finds (an owner changed
/// in between refuses the edit).
async fn change<T>(
    deps: &PolicyDeps,
    app_id: &str,
    id: &str,
    signed: &SignedRequest,
    edit: impl FnOnce(&mut PolicyRecord, &mut Vec<PolicyRule>) -> Result<T, AppError>,
) -> Result<(Policy, T), AppError> {
    let before = read(deps, app_id, id).await?;
    authorize(deps, &before, signed).await?;
    deps.db
        .edit_policy(app_id, id, |record| {
            if record.owner_id != before.owner_id {
                return Err(DbError::Conflict { constraint: None }.into());
            }
            let mut rules = stored_rules(record)?;
            let outcome = edit(record, &mut rules)?;
            record.rules = rules_json(&rules)?;
            record.revision += 1;
            Ok::<_, AppError>((view(record)?, outcome))
        })
        .await?
        .ok_or_else(|| not_found(POLICY_NOT_FOUND))
}

/// The owner's signatures on `signed`, when the policy has an owner.
async fn authorize(
    deps: &PolicyDeps,
    policy: &PolicyRecord,
    signed: &SignedRequest,
) -> Result<(), AppError> {
    let now_ms = deps.clock.now().saturating_mul(1000);
    authorize_owner(
        &deps.db,
        &policy.app_id,
        policy.owner_id.as_deref(),
        signed,
        now_ms,
    )
    .await
}

/// The owner a request names: `owner: {public_key}` (a new quorum of that key), `owner_id` (a quorum
/// of the app), or none.
async fn new_owner(
    deps: &PolicyDeps,
    app_id: &str,
    owner: Option<&Value>,
    owner_id: Option<&str>,
) -> Result<Option<String>, AppError> {
    let owner = owner.filter(|o| !o.is_null());
    match (owner, owner_id) {
        (Some(_), Some(_)) => Err(AppError::invalid_data("Give owner or owner_id, not both")),
        (Some(owner), None) => match owner.get("public_key").and_then(Value::as_str) {
            Some(key) if parse_public_key(key).is_none() => Err(AppError::invalid_data(
                "owner.public_key is not a P-256 public key (base64 DER SPKI)",
            )),
            Some(key) => Ok(Some(create_for_key(&deps.quorums, app_id, key).await?)),
            None if owner.get("user_id").is_some() => Err(AppError::invalid_data(
                "Users as owners are not supported yet: give owner.public_key",
            )),
            None => Err(AppError::invalid_data(
                "owner must be {public_key} (base64 DER SPKI of a P-256 key)",
            )),
        },
        (None, Some(id)) => {
            if exists(&deps.db, app_id, id).await? {
                Ok(Some(id.to_string()))
            } else {
                Err(AppError::invalid_data(format!(
                    "owner_id {id:?} is not a key quorum of this app"
                )))
            }
        }
        (None, None) => Ok(None),
    }
}

async fn read(deps: &PolicyDeps, app_id: &str, id: &str) -> Result<PolicyRecord, AppError> {
    deps.db
        .find_policy(app_id, id)
        .await?
        .ok_or_else(|| not_found(POLICY_NOT_FOUND))
}

fn stored_rule(input: &PolicyRuleInput) -> Result<PolicyRule, AppError> {
    Ok(PolicyRule {
        id: random_id(24)?,
        name: input.name.clone(),
        method: input.method.clone(),
        conditions: input.conditions.clone(),
        action: input.action,
    })
}

fn rules_json(rules: &[PolicyRule]) -> Result<String, AppError> {
    serde_json::to_string(rules).map_err(|e| AppError::internal(&e))
}

fn stored_rules(record: &PolicyRecord) -> Result<Vec<PolicyRule>, AppError> {
    serde_json::from_str(&record.rules).map_err(|e| AppError::internal(&DbError::corrupt(e)))
}

/// The policy as the API answers it.
pub fn view(record: &PolicyRecord) -> Result<Policy, AppError> {
    Ok(Policy {
        id: record.id.clone(),
        version: record.version.clone(),
        name: record.name.clone(),
        chain_type: record.chain_type.clone(),
        created_at: record.created_at,
        owner_id: record.owner_id.clone(),
        rules: stored_rules(record)?,
    })
}
