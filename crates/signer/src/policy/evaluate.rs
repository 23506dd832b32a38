//! Whether a wallet request passes a policy: the rules of its method (and `*`) whose conditions
//! all hold apply; a `DENY` that applies wins; without an `ALLOW` that applies the request is
//! refused (default deny). A condition whose field the request lacks does not hold.

use std::collections::BTreeMap;
use std::str::FromStr;

use ruint::aliases::U256;
use serde_json::Value;
use symbolon_protocol::policies::{
    AGGREGATION_REFERENCE_PREFIX, ConditionOperator, ConditionValue, Policy, PolicyAction,
    PolicyCondition, PolicyRule,
};

use super::calldata::{Argument, argument, parse_signed, signed_order};

/// What a wallet request says, as the conditions read it.
#[derive(Debug, Clone, Default)]
pub struct RequestFacts {
    /// The wallet method (`eth_sendTransaction`, …).
    pub method: String,
    /// An Ethereum transaction's fields.
    pub transaction: Option<TransactionFacts>,
    /// EIP-712 typed data (`domain`, `types`, `primary_type`, `message`).
    pub typed_data: Option<Value>,
    /// The bytes a `personal_sign` signs.
    pub message: Option<Vec<u8>>,
    /// The contract an EIP-7702 authorization delegates to.
    pub authorization_contract: Option<String>,
    /// The request's body as sent.
    pub body: Value,
    /// Unix seconds.
    pub now: i64,
    /// Only a rule naming the method itself may allow it, not one for `*`: blind hashes and
    /// messages whose bytes parse as a transaction (signing them could sign a transaction).
    pub needs_explicit_rule: bool,
    /// For a transaction: each consented aggregation's value (`reference` conditions,
    /// `aggregation.{id}`) by id — the wallet's sum over the window, this request included. Empty
    /// for other methods: their `reference` conditions do not hold.
    pub aggregations: BTreeMap<String, U256>,
}

/// An Ethereum transaction's fields the conditions read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransactionFacts {
    /// The recipient (none when it creates a contract).
    pub to: Option<String>,
    /// Wei (0 when absent).
    pub value: U256,
    /// The chain.
    pub chain_id: u64,
    /// The call data (`ethereum_calldata` conditions decode it).
    pub data: Vec<u8>,
}

/// The outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// An `ALLOW` rule applies and no `DENY` does.
    Allowed {
        /// The allowing rule's name.
        rule: String,
    },
    /// A `DENY` rule applies.
    Denied {
        /// Its name.
        rule: String,
    },
    /// No rule allows this request.
    NotAllowed,
}

/// The verdict of `policies` (all must allow) on `facts`.
pub fn evaluate(policies: &[Policy], facts: &RequestFacts) -> Verdict {
    let applying = |action: PolicyAction| {
        policies
            .iter()
            .flat_map(|p| &p.rules)
            .filter(move |rule| rule.action == action && rule_applies(rule, facts))
    };
    if let Some(denying) = applying(PolicyAction::Deny).next() {
        return Verdict::Denied {
            rule: denying.name.clone(),
        };
    }
    let allowing = applying(PolicyAction::Allow)
        .find(|rule| !(facts.needs_explicit_rule && rule.method == "*"));
    match allowing {
        Some(allowing) => Verdict::Allowed {
            rule: allowing.name.clone(),
        },
        None => Verdict::NotAllowed,
    }
}

fn rule_applies(rule: &PolicyRule, facts: &RequestFacts) -> bool {
    (rule.method == "*" || rule.method == facts.method)
        && rule.conditions.iter().all(|c| condition_holds(c, facts))
}

/// A request field as the conditions compare it.
enum Field {
    Text(String),
    Number(U256),
    /// Two's complement (`intN` calldata arguments).
    Signed(U256),
}

fn condition_holds(condition: &PolicyCondition, facts: &RequestFacts) -> bool {
    let Some(field) = field_of(condition, facts) else {
        return false;
    };
    let one = |value: &str| compare(condition.operator, &field, value);
    match (&condition.value, condition.operator) {
        (ConditionValue::Many(values), ConditionOperator::In) => values
            .iter()
            .any(|v| compare(ConditionOperator::Eq, &field, v)),
        (ConditionValue::One(value), operator) if operator != ConditionOperator::In => one(value),
        _ => false,
    }
}

fn field_of(condition: &PolicyCondition, facts: &RequestFacts) -> Option<Field> {
    let field = condition.field.as_str();
    match condition.field_source.as_str() {
        "ethereum_transaction" => {
            let tx = facts.transaction.as_ref()?;
            match field {
                "to" => tx.to.clone().map(Field::Text),
                "value" => Some(Field::Number(tx.value)),
                "chain_id" => Some(Field::Number(U256::from(tx.chain_id))),
                _ => None,
            }
        }
        "ethereum_typed_data_domain" => {
            let domain = facts.typed_data.as_ref()?.get("domain")?;
            let key = match field {
                "chainId" | "chain_id" => "chainId",
                _ => "verifyingContract",
            };
            json_field(domain.get(key)?)
        }
        "ethereum_typed_data_message" => {
            let typed = facts.typed_data.as_ref()?;
            // Only typed data of the primary type the condition names.
            let wanted = condition.typed_data.as_ref()?.get("primary_type")?;
            let primary = typed
                .get("primary_type")
                .or_else(|| typed.get("primaryType"))?;
            if primary != wanted {
                return None;
            }
            json_field(path(typed.get("message")?, field)?)
        }
        "ethereum_7702_authorization" => facts.authorization_contract.clone().map(Field::Text),
        "message" => {
            let message = facts.message.as_ref()?;
            match field {
                "byte_length" => Some(Field::Number(U256::from(message.len()))),
                _ => String::from_utf8(message.clone()).ok().map(Field::Text),
            }
        }
        "system" => u64::try_from(facts.now)
            .ok()
            .map(|now| Field::Number(U256::from(now))),
        "action_request_body" => json_field(path(&facts.body, field)?),
        "reference" => {
            let id = field.strip_prefix(AGGREGATION_REFERENCE_PREFIX)?;
            facts.aggregations.get(id).copied().map(Field::Number)
        }
        "ethereum_calldata" => {
            let tx = facts.transaction.as_ref()?;
            Some(match argument(condition.abi.as_ref()?, field, &tx.data)? {
                Argument::Unsigned(number) => Field::Number(number),
                Argument::Signed(number) => Field::Signed(number),
                Argument::Text(text) => Field::Text(text),
            })
        }
        _ => None,
    }
}

/// The aggregations `policies` name in `reference` conditions that `carried` lacks (a consent
/// whose copies do not match: the signer then refuses rather than let such a condition fail).
pub fn missing_aggregations<'a>(
    policies: &'a [Policy],
    carried: &[symbolon_protocol::policies::Aggregation],
) -> Vec<&'a str> {
    let mut missing: Vec<&str> = policies
        .iter()
        .flat_map(|p| &p.rules)
        .flat_map(|r| &r.conditions)
        .filter(|c| c.field_source == "reference")
        .map(|c| {
            c.field
                .strip_prefix(AGGREGATION_REFERENCE_PREFIX)
                .unwrap_or(&c.field)
        })
        .filter(|id| !carried.iter().any(|a| a.id == *id))
        .collect();
    missing.sort_unstable();
    missing.dedup();
    missing
}

/// `a.b.c` inside `value`.
fn path<'a>(value: &'a Value, dotted: &str) -> Option<&'a Value> {
    dotted.split('.').try_fold(value, |at, key| match at {
        Value::Array(items) => items.get(key.parse::<usize>().ok()?),
        _ => at.get(key),
    })
}

fn json_field(value: &Value) -> Option<Field> {
    match value {
        Value::String(text) => Some(Field::Text(text.clone())),
        Value::Number(number) => parse_number(&number.to_string()).map(Field::Number),
        Value::Bool(flag) => Some(Field::Text(flag.to_string())),
        _ => None,
    }
}

/// A number as conditions write it: decimal, or `0x` hex; up to 256 bits, never negative.
pub fn parse_number(text: &str) -> Option<U256> {
    let text = text.trim();
    let well_formed = match text.strip_prefix("0x") {
        Some(hex) => !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()),
        None => !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()),
    };
    well_formed.then(|| U256::from_str(text).ok()).flatten()
}

/// An address-like text (`0x` and 40 hex digits) compares in any case.
fn is_address(text: &str) -> bool {
    text.len() == 42 && text.starts_with("0x") && text[2..].bytes().all(|b| b.is_ascii_hexdigit())
}

fn compare(operator: ConditionOperator, field: &Field, value: &str) -> bool {
    match field {
        Field::Signed(number) => {
            let Some(wanted) = parse_signed(value) else {
                return false;
            };
            let (number, wanted) = (signed_order(*number), signed_order(wanted));
            match operator {
                ConditionOperator::Eq | ConditionOperator::In => number == wanted,
                ConditionOperator::Gt => number > wanted,
                ConditionOperator::Gte => number >= wanted,
                ConditionOperator::Lt => number < wanted,
                ConditionOperator::Lte => number <= wanted,
                _ => false,
            }
        }
        Field::Number(number) => {
            // A field that is a number compares as one; a value that is not a number matches nothing.
            let Some(wanted) = parse_number(value) else {
                return false;
            };
            match operator {
                ConditionOperator::Eq | ConditionOperator::In => *number == wanted,
                ConditionOperator::Gt => *number > wanted,
                ConditionOperator::Gte => *number >= wanted,
                ConditionOperator::Lt => *number < wanted,
                ConditionOperator::Lte => *number <= wanted,
                _ => false,
            }
        }
        Field::Text(text) => {
            let (text, value) = if is_address(text) || is_address(value) {
                (text.to_ascii_lowercase(), value.to_ascii_lowercase())
            } else {
                (text.clone(), value.to_string())
            };
            match operator {
                ConditionOperator::Eq | ConditionOperator::In => {
                    text == value
                        || matches!((parse_number(&text), parse_number(&value)), (Some(a), Some(b)) if a == b)
                }
                ConditionOperator::Contains => text.contains(&value),
                ConditionOperator::StartsWith => text.starts_with(&value),
                ConditionOperator::EndsWith => text.ends_with(&value),
                ConditionOperator::Gt
                | ConditionOperator::Gte
                | ConditionOperator::Lt
                | ConditionOperator::Lte => match (parse_number(&text), parse_number(&value)) {
                    (Some(a), Some(b)) => match operator {
                        ConditionOperator::Gt => a > b,
                        ConditionOperator::Gte => a >= b,
                        ConditionOperator::Lt => a < b,
                        _ => a <= b,
                    },
                    _ => false,
                },
                ConditionOperator::InConditionSet => false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    fn policy(rules: Value) -> Policy {
        let rules: Vec<PolicyRule> = serde_json::from_value(rules).unwrap();
        Policy {
            id: "p".into(),
            version: "1.0".into(),
            name: "p".into(),
            chain_type: "ethereum".into(),
            created_at: 0,
            owner_id: None,
            rules,
        }
    }

    fn send(to: &str, value: &str, chain_id: u64) -> RequestFacts {
        RequestFacts {
            method: "eth_sendTransaction".into(),
            transaction: Some(TransactionFacts {
                to: Some(to.into()),
                value: parse_number(value).unwrap(),
                chain_id,
                data: Vec::new(),
            }),
            now: 1_800_000_000,
            ..RequestFacts::default()
        }
    }

    const SHOP: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

    fn shop_policy() -> Policy {
        policy(json!([
            { "id": "1", "name": "pay the shop", "method": "eth_sendTransaction", "action": "ALLOW", "conditions": [
                { "field_source": "ethereum_transaction", "field": "to", "operator": "eq", "value": SHOP },
                { "field_source": "ethereum_transaction", "field": "chain_id", "operator": "in", "value": ["50312", "0x1"] },
            ]},
            { "id": "2", "name": "at most 1 ETH", "method": "*", "action": "DENY", "conditions": [
                { "field_source": "ethereum_transaction", "field": "value", "operator": "gt", "value": "1000000000000000000" },
            ]},
        ]))
    }

    #[test]
    fn an_allow_applies_only_when_every_condition_holds_and_a_deny_wins() {
        let shop = shop_policy();
        let verdict = |facts: &RequestFacts| evaluate(std::slice::from_ref(&shop), facts);
        assert_eq!(
            verdict(&send(&SHOP.to_lowercase(), "0x10", 50312)),
            Verdict::Allowed {
                rule: "pay the shop".into()
            },
            "addresses compare in any case; chain ids by value"
        );
        assert_eq!(
            verdict(&send(SHOP, "5", 1)),
            Verdict::Allowed {
                rule: "pay the shop".into()
            }
        );
        assert_eq!(
            verdict(&send(SHOP, "5", 10)),
            Verdict::NotAllowed,
            "another chain"
        );
        assert_eq!(
            verdict(&send(
                "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
                "5",
                50312
            )),
            Verdict::NotAllowed,
            "another recipient: nothing allows it"
        );
        assert_eq!(
            verdict(&send(SHOP, "1000000000000000001", 50312)),
            Verdict::Denied {
                rule: "at most 1 ETH".into()
            },
            "the DENY wins over the matching ALLOW"
        );
        // A value past u128 still compares (256 bits): the DENY holds.
        let huge = "0x8000000000000000000000000000000000000000000000000000000000000000";
        assert_eq!(
            verdict(&send(SHOP, huge, 50312)),
            Verdict::Denied {
                rule: "at most 1 ETH".into()
            }
        );
        // Another method: the DENY (`*`) does not hold without a transaction, and no ALLOW applies.
        let sign = RequestFacts {
            method: "personal_sign".into(),
            message: Some(b"hi".to_vec()),
            ..RequestFacts::default()
        };
        assert_eq!(verdict(&sign), Verdict::NotAllowed);
        // A transaction creating a contract has no `to`: the ALLOW's condition does not hold.
        let mut create = send(SHOP, "1", 50312);
        create.transaction.as_mut().unwrap().to = None;
        assert_eq!(verdict(&create), Verdict::NotAllowed);
        // No policy rules at all: refused.
        assert_eq!(
            evaluate(&[policy(json!([]))], &send(SHOP, "1", 1)),
            Verdict::NotAllowed
        );
    }

    #[test]
    fn messages_typed_data_time_and_bodies_are_read_as_the_vendor_names_them() {
        let rules = policy(json!([
            { "id": "m", "name": "login messages", "method": "personal_sign", "action": "ALLOW", "conditions": [
                { "field_source": "message", "field": "content", "operator": "starts_with", "value": "Sign in to" },
                { "field_source": "message", "field": "byte_length", "operator": "lte", "value": "64" },
            ]},
            { "id": "t", "name": "permit on our token", "method": "eth_signTypedData_v4", "action": "ALLOW", "conditions": [
                { "field_source": "ethereum_typed_data_domain", "field": "verifyingContract", "operator": "eq", "value": SHOP },
                { "field_source": "ethereum_typed_data_domain", "field": "chain_id", "operator": "eq", "value": "50312" },
                { "field_source": "ethereum_typed_data_message", "field": "spender.wallet", "operator": "eq", "value": SHOP,
                  "typed_data": { "primary_type": "Permit", "types": {} } },
            ]},
            { "id": "s", "name": "until 2027", "method": "*", "action": "DENY", "conditions": [
                { "field_source": "system", "field": "current_unix_timestamp", "operator": "gte", "value": "1830297600" },
            ]},
            { "id": "b", "name": "no test memo", "method": "personal_sign", "action": "DENY", "conditions": [
                { "field_source": "action_request_body", "field": "params.memo", "operator": "contains", "value": "test" },
            ]},
        ]));
        let sign = |text: &str, memo: &str, now: i64| RequestFacts {
            method: "personal_sign".into(),
            message: Some(text.as_bytes().to_vec()),
            body: json!({ "params": { "memo": memo } }),
            now,
            ..RequestFacts::default()
        };
        let verdict = |facts: &RequestFacts| evaluate(std::slice::from_ref(&rules), facts);
        assert_eq!(
            verdict(&sign("Sign in to Shop", "", 1_800_000_000)),
            Verdict::Allowed {
                rule: "login messages".into()
            }
        );
        assert_eq!(
            verdict(&sign(
                &format!("Sign in to {}", "x".repeat(60)),
                "",
                1_800_000_000
            )),
            Verdict::NotAllowed,
            "over 64 bytes"
        );
        assert_eq!(
            verdict(&sign("Sign in to Shop", "a test", 1_800_000_000)),
            Verdict::Denied {
                rule: "no test memo".into()
            }
        );
        assert_eq!(
            verdict(&sign("Sign in to Shop", "", 1_830_297_600)),
            Verdict::Denied {
                rule: "until 2027".into()
            }
        );

        let typed = |primary: &str, spender: &str, chain: Value| RequestFacts {
            method: "eth_signTypedData_v4".into(),
            typed_data: Some(json!({
                "domain": { "verifyingContract": SHOP.to_lowercase(), "chainId": chain },
                "types": {}, "primary_type": primary,
                "message": { "spender": { "wallet": spender } },
            })),
            now: 1_800_000_000,
            ..RequestFacts::default()
        };
        assert_eq!(
            verdict(&typed("Permit", SHOP, json!(50312))),
            Verdict::Allowed {
                rule: "permit on our token".into()
            }
        );
        assert_eq!(
            verdict(&typed("Permit", SHOP, json!("0xc488"))),
            Verdict::Allowed {
                rule: "permit on our token".into()
            },
            "a hex chain id"
        );
        assert_eq!(
            verdict(&typed("Order", SHOP, json!(50312))),
            Verdict::NotAllowed,
            "another primary type"
        );
        assert_eq!(
            verdict(&typed(
                "Permit",
                "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
                json!(50312)
            )),
            Verdict::NotAllowed
        );
    }

    #[test]
    fn a_blind_or_transaction_like_message_needs_a_rule_of_its_own_method() {
        let rules = policy(json!([
            { "id": "a", "name": "anything", "method": "*", "action": "ALLOW", "conditions": [] },
        ]));
        let mut facts = RequestFacts {
            method: "personal_sign".into(),
            message: Some(vec![0xc0]),
            ..RequestFacts::default()
        };
        assert_eq!(
            evaluate(std::slice::from_ref(&rules), &facts),
            Verdict::Allowed {
                rule: "anything".into()
            }
        );
        facts.needs_explicit_rule = true;
        assert_eq!(
            evaluate(std::slice::from_ref(&rules), &facts),
            Verdict::NotAllowed,
            "a `*` rule does not allow it"
        );
        let explicit = policy(json!([
            { "id": "b", "name": "sign raw", "method": "personal_sign", "action": "ALLOW", "conditions": [] },
        ]));
        assert_eq!(
            evaluate(&[explicit], &facts),
            Verdict::Allowed {
                rule: "sign raw".into()
            }
        );
    }

    const ONE_ETH: &str = "1000000000000000000";
    const OTHER: &str = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

    fn sign_tx(to: &str, value: &str, data: Vec<u8>) -> RequestFacts {
        let mut facts = send(to, value, 1);
        facts.method = "eth_signTransaction".into();
        facts.transaction.as_mut().unwrap().data = data;
        facts
    }

    #[test]
    fn a_reference_condition_compares_the_aggregations_sum_this_request_included() {
        let rules = policy(json!([
            { "id": "1", "name": "pay the shop", "method": "eth_signTransaction", "action": "ALLOW", "conditions": [
                { "field_source": "ethereum_transaction", "field": "to", "operator": "eq", "value": SHOP } ]},
            { "id": "2", "name": "at most 1 ETH a day", "method": "*", "action": "DENY", "conditions": [
                { "field_source": "reference", "field": "aggregation.day", "operator": "gt", "value": ONE_ETH } ]},
            { "id": "3", "name": "sign-ins", "method": "personal_sign", "action": "ALLOW", "conditions": [] },
        ]));
        let verdict = |facts: &RequestFacts| evaluate(std::slice::from_ref(&rules), facts);
        let spent = |sum: &str| {
            let mut facts = sign_tx(SHOP, "1", Vec::new());
            facts
                .aggregations
                .insert("day".into(), parse_number(sum).unwrap());
            facts
        };
        let allowed = Verdict::Allowed {
            rule: "pay the shop".into(),
        };
        let denied = Verdict::Denied {
            rule: "at most 1 ETH a day".into(),
        };
        assert_eq!(verdict(&spent("0")), allowed);
        assert_eq!(verdict(&spent(ONE_ETH)), allowed, "exactly the limit");
        assert_eq!(verdict(&spent("1000000000000000001")), denied);
        assert_eq!(
            verdict(&spent(
                "0x8000000000000000000000000000000000000000000000000000000000000000"
            )),
            denied,
            "a sum past 128 bits"
        );
        // Another aggregation's value is not this one's.
        let mut other = sign_tx(SHOP, "1", Vec::new());
        other
            .aggregations
            .insert("week".into(), parse_number("5000000000000000000").unwrap());
        assert_eq!(verdict(&other), allowed);
        // A message is no transaction: it has no aggregation value, so the DENY does not hold.
        let message = RequestFacts {
            method: "personal_sign".into(),
            message: Some(b"Sign in".to_vec()),
            ..RequestFacts::default()
        };
        assert_eq!(
            verdict(&message),
            Verdict::Allowed {
                rule: "sign-ins".into()
            }
        );

        // An ALLOW within the budget: default deny beyond it.
        let within = policy(json!([
            { "id": "1", "name": "within the day's budget", "method": "eth_signTransaction", "action": "ALLOW", "conditions": [
                { "field_source": "reference", "field": "aggregation.day", "operator": "lte", "value": ONE_ETH } ]},
        ]));
        let verdict = |facts: &RequestFacts| evaluate(std::slice::from_ref(&within), facts);
        assert_eq!(
            verdict(&spent(ONE_ETH)),
            Verdict::Allowed {
                rule: "within the day's budget".into()
            }
        );
        assert_eq!(verdict(&spent("1000000000000000001")), Verdict::NotAllowed);

        // Which aggregations the policies name that a consent does not carry.
        let carried = |ids: &[&str]| -> Vec<symbolon_protocol::policies::Aggregation> {
            ids.iter()
                .map(|id| {
                    serde_json::from_value(json!({
                        "id": id, "created_at": 0, "name": "n", "method": "eth_signTransaction",
                        "metric": { "field_source": "ethereum_transaction", "field": "value", "function": "sum" },
                        "window": { "type": "rolling", "seconds": 86400 }, "owner_id": null,
                    }))
                    .unwrap()
                })
                .collect()
        };
        let both = [rules.clone(), within.clone()];
        assert!(missing_aggregations(&both, &carried(&["day"])).is_empty());
        assert_eq!(missing_aggregations(&both, &carried(&["week"])), ["day"]);
    }

    /// `transfer(address,uint256)` calldata (selector 0xa9059cbb).
    fn transfer(to: &str, amount: u64) -> Vec<u8> {
        let mut data = vec![0xa9, 0x05, 0x9c, 0xbb];
        data.extend([0u8; 12]);
        data.extend(symbolon_wallet_core::decode_hex(to).unwrap());
        data.extend([0u8; 24]);
        data.extend(amount.to_be_bytes());
        data
    }

    #[test]
    fn a_calldata_condition_reads_an_argument_of_the_abis_function() {
        let abi = super::super::calldata::tests::erc20();
        const TOKEN: &str = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
        let rules = policy(json!([
            { "id": "1", "name": "pay the shop in tokens", "method": "eth_signTransaction", "action": "ALLOW", "conditions": [
                { "field_source": "ethereum_transaction", "field": "to", "operator": "eq", "value": TOKEN },
                { "field_source": "ethereum_calldata", "field": "transfer.to", "operator": "eq", "value": SHOP, "abi": abi },
                { "field_source": "ethereum_calldata", "field": "transfer.amount", "operator": "lte", "value": "1000", "abi": abi },
            ]},
        ]));
        let verdict =
            |data: Vec<u8>| evaluate(std::slice::from_ref(&rules), &sign_tx(TOKEN, "0", data));
        let allowed = Verdict::Allowed {
            rule: "pay the shop in tokens".into(),
        };
        assert_eq!(verdict(transfer(SHOP, 1000)), allowed);
        assert_eq!(
            verdict(transfer(&SHOP.to_lowercase(), 7)),
            allowed,
            "addresses in any case"
        );
        assert_eq!(
            verdict(transfer(SHOP, 1001)),
            Verdict::NotAllowed,
            "over the amount"
        );
        assert_eq!(
            verdict(transfer(OTHER, 1)),
            Verdict::NotAllowed,
            "another recipient"
        );
        // approve(address,uint256) (0x095ea7b3): another function, same argument layout.
        let mut approve = transfer(SHOP, 1);
        approve[..4].copy_from_slice(&[0x09, 0x5e, 0xa7, 0xb3]);
        assert_eq!(verdict(approve), Verdict::NotAllowed, "another function");
        // Garbage: cut short, only a selector, nothing, not a call at all.
        let short = transfer(SHOP, 1)[..40].to_vec();
        for garbage in [
            short,
            vec![0xa9, 0x05, 0x9c, 0xbb],
            Vec::new(),
            b"hello".to_vec(),
        ] {
            assert_eq!(verdict(garbage), Verdict::NotAllowed);
        }

        // A DENY on calldata that does not decode does not hold (write limits as ALLOW rules).
        let deny = policy(json!([
            { "id": "1", "name": "anything", "method": "*", "action": "ALLOW", "conditions": [] },
            { "id": "2", "name": "no transfers to others", "method": "*", "action": "DENY", "conditions": [
                { "field_source": "ethereum_calldata", "field": "transfer.to", "operator": "in", "value": [OTHER], "abi": abi },
            ]},
        ]));
        let verdict =
            |data: Vec<u8>| evaluate(std::slice::from_ref(&deny), &sign_tx(TOKEN, "0", data));
        assert_eq!(
            verdict(transfer(OTHER, 1)),
            Verdict::Denied {
                rule: "no transfers to others".into()
            }
        );
        assert_eq!(
            verdict(transfer(SHOP, 1)),
            Verdict::Allowed {
                rule: "anything".into()
            }
        );

        // Signed arguments compare as signed numbers.
        let signed_abi = json!([{ "type": "function", "name": "shift", "inputs": [{ "name": "delta", "type": "int128" }] }]);
        let signed = policy(json!([
            { "id": "1", "name": "small shifts", "method": "eth_signTransaction", "action": "ALLOW", "conditions": [
                { "field_source": "ethereum_calldata", "field": "shift.delta", "operator": "gte", "value": "-5", "abi": signed_abi },
            ]},
        ]));
        let selector = symbolon_wallet_core::chains::ethereum::keccak256(b"shift(int128)");
        let shift = |delta: i8| {
            let mut data = selector[..4].to_vec();
            data.extend([if delta < 0 { 0xff } else { 0 }; 31]);
            data.push(delta.to_be_bytes()[0]);
            evaluate(std::slice::from_ref(&signed), &sign_tx(TOKEN, "0", data))
        };
        assert_eq!(
            shift(-5),
            Verdict::Allowed {
                rule: "small shifts".into()
            }
        );
        assert_eq!(shift(-6), Verdict::NotAllowed);
    }

    #[test]
    fn numbers_are_unsigned_decimal_or_hex() {
        assert_eq!(parse_number("10"), Some(U256::from(10)));
        assert_eq!(parse_number("0x10"), Some(U256::from(16)));
        for bad in [
            "",
            "-1",
            "+1",
            "1.5",
            "ten",
            "0x",
            "0b1",
            "1_000",
            "1".repeat(80).as_str(),
        ] {
            assert_eq!(parse_number(bad), None, "{bad}");
        }
    }
}
