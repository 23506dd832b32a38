//! The policies API's rules, without HTTP: create, read, change and delete an app's policies and
//! their rules. Every change is checked whole ([`super::check`]) and written while the policy's row
//! is held, so concurrent rule edits never lose one another.

use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::policies::{
    CreatePolicyRequest, POLICY_VERSION, Policy, PolicyRule, PolicyRuleInput, UpdatePolicyRequest,
};

use super::check::{MAX_RULES, check_name, check_policy_fields, check_rule, check_rules};
use super::deps::PolicyDeps;
use crate::db::DbError;
use crate::db::policies::PolicyRecord;
use crate::error::AppError;
use crate::random::random_id;

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
    let owned = request.owner.as_ref().is_some_and(|o| !o.is_null()) || request.owner_id.is_some();
    check_policy_fields(&request.version, &request.name, &request.chain_type, owned)?;
    check_rules(&request.rules)?;
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
) -> Result<Policy, AppError> {
    if request.owner.as_ref().is_some_and(|o| !o.is_null()) || request.owner_id.is_some() {
        return Err(AppError::invalid_data(
            "Policy owners are not supported yet: leave owner and owner_id empty",
        ));
    }
    if let Some(name) = &request.name {
        check_name(name, "name")?;
    }
    let new_rules = match &request.rules {
        Some(rules) => {
            check_rules(rules)?;
            Some(
                rules
                    .iter()
                    .map(stored_rule)
                    .collect::<Result<Vec<_>, _>>()?,
            )
        }
        None => None,
    };
    change(deps, app_id, id, |name, rules| {
        if let Some(new) = &request.name {
            *name = new.clone();
        }
        if let Some(new) = &new_rules {
            *rules = new.clone();
        }
        Ok(())
    })
    .await
    .map(|(policy, ())| policy)
}

/// Deletes the policy.
pub async fn delete(deps: &PolicyDeps, app_id: &str, id: &str) -> Result<(), AppError> {
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
) -> Result<PolicyRule, AppError> {
    check_rule(input)?;
    let rule = stored_rule(input)?;
    change(deps, app_id, id, |_, rules| {
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
) -> Result<PolicyRule, AppError> {
    check_rule(input)?;
    let mut rule = stored_rule(input)?;
    rule.id = rule_id.to_string();
    change(deps, app_id, id, |_, rules| {
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
) -> Result<(), AppError> {
    change(deps, app_id, id, |_, rules| {
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

/// Applies `edit` to the policy's name and rules and stores the result, holding the policy while
/// it does (`Db::edit_policy`): concurrent edits never lose one another.
async fn change<T>(
    deps: &PolicyDeps,
    app_id: &str,
    id: &str,
    edit: impl FnOnce(&mut String, &mut Vec<PolicyRule>) -> Result<T, AppError>,
) -> Result<(Policy, T), AppError> {
    deps.db
        .edit_policy(app_id, id, |record| {
            let mut rules = stored_rules(record)?;
            let outcome = edit(&mut record.name, &mut rules)?;
            record.rules = rules_json(&rules)?;
            record.revision += 1;
            Ok::<_, AppError>((view(record)?, outcome))
        })
        .await?
        .ok_or_else(|| not_found(POLICY_NOT_FOUND))
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
        owner_id: None,
        rules: stored_rules(record)?,
    })
}
