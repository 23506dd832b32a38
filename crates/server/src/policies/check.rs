//! What a policy may say: the checks every create and update runs, so a stored policy is one the
//! evaluator understands completely (a condition it could not evaluate would silently weaken a
//! `DENY`). Each refusal names what is wrong.

use symbolon_protocol::policies::{
    AGGREGATION_REFERENCE_PREFIX, ConditionOperator, ConditionValue, POLICY_VERSION,
    PolicyCondition, PolicyRuleInput, referenced_aggregation,
};

use crate::aggregations::deps::AggregationDeps;
use crate::aggregations::service as aggregations;
use crate::error::AppError;
use symbolon_signer::policy::calldata::{ArgumentKind, argument_kind, parse_signed};
use symbolon_signer::policy::parse_number;

/// Most rules in one policy.
pub const MAX_RULES: usize = 100;
/// Most conditions in one rule.
pub const MAX_CONDITIONS: usize = 50;
/// Longest name (policy or rule).
pub const MAX_NAME: usize = 50;

/// The wallet methods an Ethereum policy may name.
pub const ETHEREUM_METHODS: &[&str] = &[
    "eth_sendTransaction",
    "eth_signTransaction",
    "eth_signTypedData_v4",
    "personal_sign",
    "eth_sign7702Authorization",
    "*",
];

/// The methods of transactions (the sources that read a transaction apply to these).
const TRANSACTION_METHODS: &[&str] = &["eth_sendTransaction", "eth_signTransaction", "*"];

/// A source, the fields it has, which of those are numbers, and the methods it can apply to
/// (`None`: any field, a dotted path; `reference` and `ethereum_calldata` fields are checked on
/// their own).
struct Source {
    name: &'static str,
    fields: Option<&'static [&'static str]>,
    numeric: &'static [&'static str],
    methods: &'static [&'static str],
}

const SOURCES: &[Source] = &[
    Source {
        name: "ethereum_transaction",
        fields: Some(&["to", "value", "chain_id"]),
        numeric: &["value", "chain_id"],
        methods: TRANSACTION_METHODS,
    },
    Source {
        name: "ethereum_calldata",
        fields: None,
        numeric: &[],
        methods: TRANSACTION_METHODS,
    },
    Source {
        name: "reference",
        fields: None,
        numeric: &[],
        methods: TRANSACTION_METHODS,
    },
    Source {
        name: "ethereum_typed_data_domain",
        fields: Some(&[
            "chainId",
            "chain_id",
            "verifyingContract",
            "verifying_contract",
        ]),
        numeric: &["chainId", "chain_id"],
        methods: &["eth_signTypedData_v4", "*"],
    },
    Source {
        name: "ethereum_typed_data_message",
        fields: None,
        numeric: &[],
        methods: &["eth_signTypedData_v4", "*"],
    },
    Source {
        name: "ethereum_7702_authorization",
        fields: Some(&["contract"]),
        numeric: &[],
        methods: &["eth_sign7702Authorization", "*"],
    },
    Source {
        name: "message",
        fields: Some(&["content", "byte_length"]),
        numeric: &["byte_length"],
        methods: &["personal_sign", "*"],
    },
    Source {
        name: "system",
        fields: Some(&["current_unix_timestamp"]),
        numeric: &["current_unix_timestamp"],
        methods: ETHEREUM_METHODS,
    },
    Source {
        name: "action_request_body",
        fields: None,
        numeric: &[],
        methods: ETHEREUM_METHODS,
    },
];

/// The policy's own fields: version, name, chain.
pub fn check_policy_fields(version: &str, name: &str, chain_type: &str) -> Result<(), AppError> {
    if version != POLICY_VERSION {
        return Err(AppError::invalid_data(format!(
            "version must be {POLICY_VERSION}"
        )));
    }
    check_name(name, "name")?;
    if chain_type != "ethereum" {
        return Err(AppError::invalid_data(format!(
            "Policies for {chain_type:?} wallets are not supported yet; chain_type must be ethereum"
        )));
    }
    Ok(())
}

/// A name: 1 to [`MAX_NAME`] characters, not only spaces.
pub fn check_name(name: &str, what: &str) -> Result<(), AppError> {
    let length = name.trim().chars().count();
    if length == 0 || name.chars().count() > MAX_NAME {
        return Err(AppError::invalid_data(format!(
            "{what} must be 1 to {MAX_NAME} characters"
        )));
    }
    Ok(())
}

/// The rules of a policy.
pub fn check_rules(rules: &[PolicyRuleInput]) -> Result<(), AppError> {
    if rules.len() > MAX_RULES {
        return Err(AppError::invalid_data(format!(
            "A policy has at most {MAX_RULES} rules"
        )));
    }
    rules.iter().try_for_each(check_rule)
}

/// One rule: name, method, each condition.
pub fn check_rule(rule: &PolicyRuleInput) -> Result<(), AppError> {
    check_name(&rule.name, "A rule's name")?;
    if !ETHEREUM_METHODS.contains(&rule.method.as_str()) {
        return Err(AppError::invalid_data(format!(
            "Rule {:?}: method {:?} is not supported for ethereum policies (one of {})",
            rule.name,
            rule.method,
            ETHEREUM_METHODS.join(", ")
        )));
    }
    if rule.conditions.len() > MAX_CONDITIONS {
        return Err(AppError::invalid_data(format!(
            "Rule {:?}: at most {MAX_CONDITIONS} conditions",
            rule.name
        )));
    }
    rule.conditions
        .iter()
        .try_for_each(|condition| check_condition(&rule.name, &rule.method, condition))
}

fn check_condition(rule: &str, method: &str, condition: &PolicyCondition) -> Result<(), AppError> {
    let refuse = |why: String| AppError::invalid_data(format!("Rule {rule:?}: {why}"));
    let source = SOURCES
        .iter()
        .find(|s| s.name == condition.field_source)
        .ok_or_else(|| {
            refuse(format!(
                "field_source {:?} is not supported yet",
                condition.field_source
            ))
        })?;
    if !source.methods.contains(&method) {
        return Err(refuse(format!(
            "{} conditions do not apply to {method}",
            source.name
        )));
    }
    let field = condition.field.as_str();
    match source.fields {
        Some(fields) if !fields.contains(&field) => {
            return Err(refuse(format!(
                "{} has no field {field:?} (one of {})",
                source.name,
                fields.join(", ")
            )));
        }
        // `reference` and `ethereum_calldata` fields are checked below.
        None if !matches!(source.name, "reference" | "ethereum_calldata")
            && (field.trim().is_empty() || field.split('.').any(str::is_empty)) =>
        {
            return Err(refuse(format!(
                "{}: field must be a dotted path",
                source.name
            )));
        }
        _ => {}
    }
    if source.name == "ethereum_typed_data_message" {
        let typed = condition.typed_data.as_ref();
        let primary = typed
            .and_then(|t| t.get("primary_type"))
            .and_then(|p| p.as_str());
        let types = typed.and_then(|t| t.get("types")).filter(|t| t.is_object());
        if primary.is_none_or(str::is_empty) || types.is_none() {
            return Err(refuse(
                "ethereum_typed_data_message conditions need typed_data with types and primary_type"
                    .into(),
            ));
        }
    }
    let compares = match (source.name, source.fields) {
        ("reference", _) => {
            if referenced_aggregation(condition).is_none_or(|id| id.contains('.')) {
                return Err(refuse(format!(
                    "reference conditions name an aggregation: field must be {AGGREGATION_REFERENCE_PREFIX}{{aggregation id}}"
                )));
            }
            Compares::Number
        }
        ("ethereum_calldata", _) => {
            let abi = condition.abi.as_ref().ok_or_else(|| {
                refuse("ethereum_calldata conditions need the contract's abi".into())
            })?;
            match argument_kind(abi, field).map_err(refuse)? {
                ArgumentKind::Unsigned => Compares::Number,
                ArgumentKind::Signed => Compares::Signed,
                ArgumentKind::Text => Compares::Text,
            }
        }
        (_, Some(_)) if source.numeric.contains(&field) => Compares::Number,
        (_, Some(_)) => Compares::Text,
        (_, None) => Compares::Any,
    };
    let is_number = |value: &str| match compares {
        Compares::Signed => parse_signed(value).is_some(),
        _ => parse_number(value).is_some(),
    };
    let numeric = matches!(compares, Compares::Number | Compares::Signed);
    match (condition.operator, &condition.value) {
        (ConditionOperator::InConditionSet, _) => {
            Err(refuse("in_condition_set is not supported yet".into()))
        }
        (ConditionOperator::In, ConditionValue::Many(values)) if !values.is_empty() => {
            if numeric && values.iter().any(|v| !is_number(v)) {
                return Err(refuse(format!("{field} compares numbers")));
            }
            Ok(())
        }
        (ConditionOperator::In, _) => Err(refuse("in takes a non-empty list of values".into())),
        (_, ConditionValue::Many(_)) => Err(refuse(format!(
            "{:?} takes one value, not a list",
            condition.operator
        ))),
        (
            ConditionOperator::Gt
            | ConditionOperator::Gte
            | ConditionOperator::Lt
            | ConditionOperator::Lte,
            ConditionValue::One(value),
        ) => {
            if compares == Compares::Text {
                return Err(refuse(format!("{field} is not a number")));
            }
            if !is_number(value) {
                return Err(refuse(format!(
                    "{value:?} is not a number (decimal or 0x hex)"
                )));
            }
            Ok(())
        }
        (ConditionOperator::Eq, ConditionValue::One(value)) => {
            if numeric && !is_number(value) {
                return Err(refuse(format!("{field} compares numbers")));
            }
            Ok(())
        }
        (_, ConditionValue::One(_)) => {
            if numeric {
                return Err(refuse(format!(
                    "{field} is a number: use eq, in, gt, gte, lt or lte"
                )));
            }
            Ok(())
        }
    }
}

/// How a condition's field compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Compares {
    /// An unsigned number.
    Number,
    /// A signed number (`intN` calldata arguments).
    Signed,
    /// Text.
    Text,
    /// Whatever the request holds there (dotted paths): numbers or text.
    Any,
}

/// Every `reference` condition of `rules` names an aggregation of `app_id` (checked apart from the
/// rest, which needs no store).
pub async fn check_aggregations<'a>(
    deps: &AggregationDeps,
    app_id: &str,
    rules: impl IntoIterator<Item = &'a PolicyRuleInput>,
) -> Result<(), AppError> {
    for rule in rules {
        for id in rule.conditions.iter().filter_map(referenced_aggregation) {
            if aggregations::find(&deps.db, app_id, id).await?.is_none() {
                return Err(AppError::invalid_data(format!(
                    "Rule {:?}: {id:?} is not an aggregation of this app",
                    rule.name
                )));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    fn rule(method: &str, conditions: serde_json::Value) -> PolicyRuleInput {
        serde_json::from_value(json!({
            "name": "r", "method": method, "action": "ALLOW", "conditions": conditions,
        }))
        .unwrap()
    }

    fn refusal(rule: &PolicyRuleInput) -> String {
        check_rule(rule).unwrap_err().message
    }

    #[test]
    fn a_rule_the_evaluator_could_not_read_whole_is_refused_with_its_reason() {
        let tx = |field: &str, operator: &str, value: serde_json::Value| {
            rule(
                "eth_sendTransaction",
                json!([{ "field_source": "ethereum_transaction", "field": field, "operator": operator, "value": value }]),
            )
        };
        assert!(check_rule(&tx("value", "lte", json!("1000"))).is_ok());
        assert!(check_rule(&tx("to", "in", json!(["0xab", "0xcd"]))).is_ok());
        for (bad, why) in [
            (
                tx("gas", "eq", json!("1")),
                "ethereum_transaction has no field \"gas\" (one of to, value, chain_id)",
            ),
            (tx("to", "gt", json!("1")), "to is not a number"),
            (
                tx("value", "gt", json!("lots")),
                "\"lots\" is not a number (decimal or 0x hex)",
            ),
            (
                tx("value", "contains", json!("1")),
                "value is a number: use eq, in, gt, gte, lt or lte",
            ),
            (
                tx("to", "in", json!("0xab")),
                "in takes a non-empty list of values",
            ),
            (
                tx("to", "in", json!([])),
                "in takes a non-empty list of values",
            ),
            (
                tx("to", "eq", json!(["0xab"])),
                "Eq takes one value, not a list",
            ),
            (
                tx("to", "in_condition_set", json!("set")),
                "in_condition_set is not supported yet",
            ),
        ] {
            assert_eq!(refusal(&bad), format!("Rule \"r\": {why}"));
        }
        let source = |method: &str, source: &str| {
            rule(
                method,
                json!([{ "field_source": source, "field": "x", "operator": "eq", "value": "1" }]),
            )
        };
        assert_eq!(
            refusal(&source("personal_sign", "solana_program_instruction")),
            "Rule \"r\": field_source \"solana_program_instruction\" is not supported yet"
        );
        assert_eq!(
            refusal(&source("personal_sign", "ethereum_transaction")),
            "Rule \"r\": ethereum_transaction conditions do not apply to personal_sign"
        );
        assert!(
            refusal(&rule("signAndSendTransaction", json!([]))).contains(
                "method \"signAndSendTransaction\" is not supported for ethereum policies"
            )
        );
        let typed = rule(
            "eth_signTypedData_v4",
            json!([{ "field_source": "ethereum_typed_data_message", "field": "amount", "operator": "lt", "value": "5" }]),
        );
        assert_eq!(
            refusal(&typed),
            "Rule \"r\": ethereum_typed_data_message conditions need typed_data with types and primary_type"
        );
        let body = rule(
            "*",
            json!([{ "field_source": "action_request_body", "field": "a..b", "operator": "eq", "value": "1" }]),
        );
        assert_eq!(
            refusal(&body),
            "Rule \"r\": action_request_body: field must be a dotted path"
        );
    }

    #[test]
    fn references_and_calldata_are_checked_like_the_other_sources() {
        let reference = |method: &str, field: &str, operator: &str, value: serde_json::Value| {
            rule(
                method,
                json!([{ "field_source": "reference", "field": field, "operator": operator, "value": value }]),
            )
        };
        assert!(check_rule(&reference("*", "aggregation.abc", "gt", json!("1"))).is_ok());
        assert!(
            check_rule(&reference(
                "eth_signTransaction",
                "aggregation.abc",
                "lte",
                json!("0x10")
            ))
            .is_ok()
        );
        for (bad, why) in [
            (
                reference("personal_sign", "aggregation.abc", "gt", json!("1")),
                "reference conditions do not apply to personal_sign",
            ),
            (
                reference("*", "abc", "gt", json!("1")),
                "reference conditions name an aggregation: field must be aggregation.{aggregation id}",
            ),
            (
                reference("*", "aggregation.", "gt", json!("1")),
                "reference conditions name an aggregation: field must be aggregation.{aggregation id}",
            ),
            (
                reference("*", "aggregation.abc", "contains", json!("1")),
                "aggregation.abc is a number: use eq, in, gt, gte, lt or lte",
            ),
            (
                reference("*", "aggregation.abc", "gt", json!("lots")),
                "\"lots\" is not a number (decimal or 0x hex)",
            ),
        ] {
            assert_eq!(refusal(&bad), format!("Rule \"r\": {why}"));
        }

        let abi = json!([{ "type": "function", "name": "transfer", "inputs": [
            { "name": "to", "type": "address" }, { "name": "amount", "type": "uint256" }] }]);
        let calldata = |field: &str,
                        operator: &str,
                        value: serde_json::Value,
                        abi: serde_json::Value| {
            rule(
                "eth_sendTransaction",
                json!([{ "field_source": "ethereum_calldata", "field": field, "operator": operator, "value": value, "abi": abi }]),
            )
        };
        assert!(check_rule(&calldata("transfer.to", "eq", json!("0xab"), abi.clone())).is_ok());
        assert!(
            check_rule(&calldata(
                "transfer.amount",
                "lte",
                json!("1000"),
                abi.clone()
            ))
            .is_ok()
        );
        for (bad, why) in [
            (
                calldata("transfer.amount", "starts_with", json!("1"), abi.clone()),
                "transfer.amount is a number: use eq, in, gt, gte, lt or lte".to_string(),
            ),
            (
                calldata("transfer.to", "gt", json!("1"), abi.clone()),
                "transfer.to is not a number".into(),
            ),
            (
                calldata("transfer.from", "eq", json!("0xab"), abi.clone()),
                "function \"transfer\" of the abi has no input named \"from\"".into(),
            ),
            (
                calldata("approve.spender", "eq", json!("0xab"), abi.clone()),
                "the abi has no function \"approve\" (field \"approve.spender\")".into(),
            ),
            (
                calldata("transfer.to", "eq", json!("0xab"), json!("not an abi")),
                "abi must be a JSON ABI (a list of items)".into(),
            ),
        ] {
            assert_eq!(refusal(&bad), format!("Rule \"r\": {why}"));
        }
        let without_abi = rule(
            "eth_signTransaction",
            json!([{ "field_source": "ethereum_calldata", "field": "transfer.to", "operator": "eq", "value": "0xab" }]),
        );
        assert_eq!(
            refusal(&without_abi),
            "Rule \"r\": ethereum_calldata conditions need the contract's abi"
        );
        let unparsed = calldata(
            "transfer.to",
            "eq",
            json!("0xab"),
            json!([{ "type": "function", "name": "transfer", "inputs": "nope" }]),
        );
        assert!(refusal(&unparsed).starts_with("Rule \"r\": abi does not parse"));
    }

    #[test]
    fn a_policy_is_version_1_0_for_ethereum_and_named() {
        assert!(check_policy_fields("1.0", "Shop", "ethereum").is_ok());
        let long = "n".repeat(51);
        for (version, name, chain, why) in [
            ("2.0", "Shop", "ethereum", "version must be 1.0"),
            ("1.0", " ", "ethereum", "name must be 1 to 50 characters"),
            (
                "1.0",
                long.as_str(),
                "ethereum",
                "name must be 1 to 50 characters",
            ),
            (
                "1.0",
                "Shop",
                "solana",
                "Policies for \"solana\" wallets are not supported yet; chain_type must be ethereum",
            ),
        ] {
            let refused = check_policy_fields(version, name, chain).unwrap_err();
            assert_eq!(refused.message, why);
        }
    }
}
