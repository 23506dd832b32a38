//! Policies in the spec vendor's rule format (`/v1/policies`): what a signature made for a host's
//! back end must pass. A policy holds rules per method; a rule's conditions must all hold for its
//! action (`ALLOW` or `DENY`) to apply; a `DENY` that applies wins, and a request no `ALLOW`
//! applies to is refused.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The only policy version.
pub const POLICY_VERSION: &str = "1.0";

/// What a rule does when all its conditions hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "UPPERCASE")]
pub enum PolicyAction {
    /// Allows the request (unless a `DENY` applies too).
    Allow,
    /// Refuses the request.
    Deny,
}

/// How a condition compares the request's field with its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ConditionOperator {
    /// Equal (numbers by value, addresses in any case).
    Eq,
    /// Greater than (numbers).
    Gt,
    /// Greater than or equal (numbers).
    Gte,
    /// Less than (numbers).
    Lt,
    /// Less than or equal (numbers).
    Lte,
    /// Equal to one of a list.
    In,
    /// In a stored condition set (not served yet).
    InConditionSet,
    /// Contains the text.
    Contains,
    /// Starts with the text.
    StartsWith,
    /// Ends with the text.
    EndsWith,
}

/// A condition's value: one string, or a list for `in`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum ConditionValue {
    /// One value.
    One(String),
    /// Several values.
    Many(Vec<String>),
}

/// One condition: the request's `field` of `field_source`, compared by `operator` with `value`.
/// Kept as one flat shape (the vendor's union by `field_source`) so that a source this server does
/// not evaluate yet is refused with its name rather than an unreadable body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PolicyCondition {
    /// `ethereum_transaction`, `ethereum_typed_data_domain`, `ethereum_typed_data_message`,
    /// `ethereum_7702_authorization`, `message`, `system`, `action_request_body` (and the vendor's
    /// other sources, refused until served).
    pub field_source: String,
    /// The field within the source (`to`, `value`, `chain_id`; a dotted path for messages and
    /// bodies).
    pub field: String,
    /// The comparison.
    pub operator: ConditionOperator,
    /// What the field is compared with.
    pub value: ConditionValue,
    /// `ethereum_typed_data_message`: the typed data's `types` and `primary_type` the condition is
    /// about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub typed_data: Option<serde_json::Value>,
    /// `ethereum_calldata`: the contract's JSON ABI.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub abi: Option<serde_json::Value>,
}

/// A rule as a request gives it (`POST /v1/policies` rules, `POST /v1/policies/{id}/rules`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PolicyRuleInput {
    /// A name for people (and the refusal that names the rule).
    pub name: String,
    /// The wallet method it applies to (`eth_sendTransaction`, `personal_sign`, …, or `*`).
    pub method: String,
    /// All must hold for the action to apply.
    pub conditions: Vec<PolicyCondition>,
    /// What applies.
    pub action: PolicyAction,
}

/// A stored rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PolicyRule {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its method.
    pub method: String,
    /// Its conditions.
    pub conditions: Vec<PolicyCondition>,
    /// Its action.
    pub action: PolicyAction,
}

/// `POST /v1/policies`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreatePolicyRequest {
    /// `1.0`.
    pub version: String,
    /// A name for people.
    pub name: String,
    /// The chain of the wallets it governs (`ethereum`).
    pub chain_type: String,
    /// The rules.
    pub rules: Vec<PolicyRuleInput>,
    /// An owner whose authorization signature every change needs (not served yet: must be
    /// absent or null).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub owner: Option<serde_json::Value>,
    /// A key quorum as the owner (not served yet: must be absent or null).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub owner_id: Option<String>,
}

/// `PATCH /v1/policies/{id}`: what is given replaces what is stored (`rules` whole).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UpdatePolicyRequest {
    /// A new name.
    #[serde(default)]
    #[ts(optional)]
    pub name: Option<String>,
    /// New rules (all of them).
    #[serde(default)]
    #[ts(optional)]
    pub rules: Option<Vec<PolicyRuleInput>>,
    /// Not served yet (must be absent or null).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub owner: Option<serde_json::Value>,
    /// Not served yet (must be absent or null).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub owner_id: Option<String>,
}

/// A policy as the API answers it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Policy {
    /// Its id.
    pub id: String,
    /// `1.0`.
    pub version: String,
    /// Its name.
    pub name: String,
    /// The chain of the wallets it governs.
    pub chain_type: String,
    /// Unix milliseconds.
    #[ts(type = "number")]
    pub created_at: i64,
    /// Its owner's key quorum (always null here so far).
    pub owner_id: Option<String>,
    /// Its rules.
    pub rules: Vec<PolicyRule>,
}

/// `{success: true}` (deletes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SuccessResponse {
    /// Always true.
    pub success: bool,
}

/// The only aggregation window type.
pub const AGGREGATION_WINDOW_ROLLING: &str = "rolling";
/// The shortest rolling window (1 hour).
pub const AGGREGATION_MIN_WINDOW_SECONDS: u64 = 3_600;
/// The longest rolling window (72 hours).
pub const AGGREGATION_MAX_WINDOW_SECONDS: u64 = 259_200;
/// The prefix of a `reference` condition's field naming an aggregation: `aggregation.{id}`.
pub const AGGREGATION_REFERENCE_PREFIX: &str = "aggregation.";

/// What an aggregation measures: `field` of `field_source`, summed (`function: sum`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AggregationMetric {
    /// `ethereum_transaction`.
    pub field_source: String,
    /// `value` (wei).
    pub field: String,
    /// `sum`.
    pub function: String,
    /// A contract's JSON ABI (the vendor's calldata metrics; not served yet: must be absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub abi: Option<serde_json::Value>,
}

/// The time an aggregation looks back over: a rolling window of `seconds` (1 to 72 hours).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AggregationWindow {
    /// `rolling`.
    #[serde(rename = "type")]
    pub kind: String,
    /// 3600 to 259200.
    #[ts(type = "number")]
    pub seconds: u64,
}

/// `POST /v1/aggregations`: a measure of a wallet's requests over a rolling window (the vendor's
/// per-day limits), which a policy condition `{field_source: "reference", field:
/// "aggregation.{id}"}` compares.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AggregationInput {
    /// A name for people.
    pub name: String,
    /// `eth_signTransaction` (here it counts signed and sent transactions alike;
    /// `eth_sendTransaction` is taken as the same).
    pub method: String,
    /// What is summed.
    pub metric: AggregationMetric,
    /// Over how long.
    pub window: AggregationWindow,
    /// Filters on the requests counted (not served yet: must be absent or empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub conditions: Option<Vec<PolicyCondition>>,
    /// Buckets (not served yet: must be absent or empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Vec<Object>>))]
    pub group_by: Option<Vec<serde_json::Value>>,
    /// An owner (not served yet: must be absent or null).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub owner: Option<serde_json::Value>,
    /// A key quorum as the owner (not served yet: must be absent or null).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub owner_id: Option<String>,
}

/// An aggregation as the API answers it (and as a consent carries it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Aggregation {
    /// Its id (what `aggregation.{id}` names).
    pub id: String,
    /// Unix milliseconds.
    #[ts(type = "number")]
    pub created_at: i64,
    /// Its name.
    pub name: String,
    /// `eth_signTransaction` or `eth_sendTransaction` (both count signed and sent transactions).
    pub method: String,
    /// What is summed.
    pub metric: AggregationMetric,
    /// Over how long.
    pub window: AggregationWindow,
    /// Its owner's key quorum (always null here so far).
    pub owner_id: Option<String>,
}

/// The aggregation id a `reference` condition names (`aggregation.{id}`), if it names one.
pub fn referenced_aggregation(condition: &PolicyCondition) -> Option<&str> {
    if condition.field_source != "reference" {
        return None;
    }
    condition
        .field
        .strip_prefix(AGGREGATION_REFERENCE_PREFIX)
        .filter(|id| !id.is_empty())
}
