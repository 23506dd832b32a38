//! The `/v1/policies` routes: their table and thin handlers.

use axum::Json;
use axum::extract::State;
use serde_json::Value;
use symbolon_protocol::policies::{
    CreatePolicyRequest, Policy, PolicyRule, PolicyRuleInput, SuccessResponse, UpdatePolicyRequest,
};

use super::deps::PolicyDeps;
use super::service;
use crate::error::AppError;
use crate::web::authorization_signature::Signed;
use crate::web::back_end::BackEnd;
use crate::web::json_body::JsonBody;
use crate::web::path_param::PathParam;
use crate::web::routes::Access::AppSecret;
use crate::web::routes::Verb::{Delete, Get, Patch, Post};
use crate::web::routes::{Body, Mount, Route, Routes, json, r};

async fn create(
    State(deps): State<PolicyDeps>,
    back_end: BackEnd,
    JsonBody(body): JsonBody<CreatePolicyRequest>,
) -> Result<Json<Policy>, AppError> {
    Ok(Json(service::create(&deps, &back_end.app.id, &body).await?))
}

async fn get(
    State(deps): State<PolicyDeps>,
    back_end: BackEnd,
    PathParam(id): PathParam<String>,
) -> Result<Json<Policy>, AppError> {
    Ok(Json(service::get(&deps, &back_end.app.id, &id).await?))
}

async fn update(
    State(deps): State<PolicyDeps>,
    back_end: BackEnd,
    PathParam(id): PathParam<String>,
    signed: Signed<UpdatePolicyRequest>,
) -> Result<Json<Policy>, AppError> {
    let (body, request) = (&signed.body, &signed.request);
    Ok(Json(
        service::update(&deps, &back_end.app.id, &id, body, request).await?,
    ))
}

async fn delete(
    State(deps): State<PolicyDeps>,
    back_end: BackEnd,
    PathParam(id): PathParam<String>,
    signed: Signed<Value>,
) -> Result<Json<SuccessResponse>, AppError> {
    service::delete(&deps, &back_end.app.id, &id, &signed.request).await?;
    Ok(Json(SuccessResponse { success: true }))
}

async fn add_rule(
    State(deps): State<PolicyDeps>,
    back_end: BackEnd,
    PathParam(id): PathParam<String>,
    signed: Signed<PolicyRuleInput>,
) -> Result<Json<PolicyRule>, AppError> {
    let (body, request) = (&signed.body, &signed.request);
    Ok(Json(
        service::add_rule(&deps, &back_end.app.id, &id, body, request).await?,
    ))
}

async fn get_rule(
    State(deps): State<PolicyDeps>,
    back_end: BackEnd,
    PathParam((id, rule_id)): PathParam<(String, String)>,
) -> Result<Json<PolicyRule>, AppError> {
    Ok(Json(
        service::get_rule(&deps, &back_end.app.id, &id, &rule_id).await?,
    ))
}

async fn update_rule(
    State(deps): State<PolicyDeps>,
    back_end: BackEnd,
    PathParam((id, rule_id)): PathParam<(String, String)>,
    signed: Signed<PolicyRuleInput>,
) -> Result<Json<PolicyRule>, AppError> {
    let (body, request) = (&signed.body, &signed.request);
    let rule = service::update_rule(&deps, &back_end.app.id, &id, &rule_id, body, request).await?;
    Ok(Json(rule))
}

async fn delete_rule(
    State(deps): State<PolicyDeps>,
    back_end: BackEnd,
    PathParam((id, rule_id)): PathParam<(String, String)>,
    signed: Signed<Value>,
) -> Result<Json<SuccessResponse>, AppError> {
    service::delete_rule(&deps, &back_end.app.id, &id, &rule_id, &signed.request).await?;
    Ok(Json(SuccessResponse { success: true }))
}

/// The policies API: every route, one line each, and how they are mounted.
pub const ROUTES: Routes = Routes {
    table: TABLE,
    mount,
};

const POLICY: Body = Body::Json(json::<Policy>);
const RULE: Body = Body::Json(json::<PolicyRule>);
const SUCCESS: Body = Body::Json(json::<SuccessResponse>);

#[rustfmt::skip]
const TABLE: &[Route] = &[
    r(Post, "/v1/policies", "Create a policy (rules in the vendor's format; an owner key quorum optional)", Some(json::<CreatePolicyRequest>), POLICY, AppSecret, &[]),
    r(Get, "/v1/policies/{policy_id}", "The app's policy", None, POLICY, AppSecret, &[404]),
    r(Patch, "/v1/policies/{policy_id}", "Rename a policy, replace its rules or its owner (the owner's authorization signatures)", Some(json::<UpdatePolicyRequest>), POLICY, AppSecret, &[404, 409]),
    r(Delete, "/v1/policies/{policy_id}", "Delete a policy", None, SUCCESS, AppSecret, &[404]),
    r(Post, "/v1/policies/{policy_id}/rules", "Add a rule to a policy", Some(json::<PolicyRuleInput>), RULE, AppSecret, &[404, 409]),
    r(Get, "/v1/policies/{policy_id}/rules/{rule_id}", "One rule of a policy", None, RULE, AppSecret, &[404]),
    r(Patch, "/v1/policies/{policy_id}/rules/{rule_id}", "Replace a rule of a policy", Some(json::<PolicyRuleInput>), RULE, AppSecret, &[404, 409]),
    r(Delete, "/v1/policies/{policy_id}/rules/{rule_id}", "Remove a rule from a policy", None, SUCCESS, AppSecret, &[404, 409]),
];

fn mount(routes: Mount) -> Mount {
    routes
        .post("/v1/policies", create)
        .get("/v1/policies/{policy_id}", get)
        .patch("/v1/policies/{policy_id}", update)
        .delete("/v1/policies/{policy_id}", delete)
        .post("/v1/policies/{policy_id}/rules", add_rule)
        .get("/v1/policies/{policy_id}/rules/{rule_id}", get_rule)
        .patch("/v1/policies/{policy_id}/rules/{rule_id}", update_rule)
        .delete("/v1/policies/{policy_id}/rules/{rule_id}", delete_rule)
}
