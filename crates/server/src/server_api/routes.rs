//! The `/v1` routes: their table (the OpenAPI document is built from it) and thin handlers.

use axum::Json;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use symbolon_protocol::app::AppConfigResponse;
use symbolon_protocol::server_api::{
    CreateUserRequest, CustomAuthLookup, CustomMetadataRequest, EmailLookup, FarcasterLookup,
    ImportUsersRequest, ImportUsersResponse, PhoneLookup, PregenerateWalletsRequest, SubjectLookup,
    TelegramLookup, UnlinkAccountRequest, UserListQuery, UserPage, UserSearchRequest,
    UsernameLookup, WalletLookup,
};
use symbolon_protocol::user::User;

use super::apps::get_settings;
use super::deps::ServerApiDeps;
use super::{batch, search, users};
use crate::error::AppError;
use crate::web::back_end::BackEnd;
use crate::web::json_body::JsonBody;
use crate::web::path_param::PathParam;
use crate::web::routes::Access::AppSecret;
use crate::web::routes::Verb::{Delete, Get, Post};
use crate::web::routes::{Body, Mount, Route, Routes, json, r};

/// The app's user by id (`did:privy:…` or the bare id).
async fn get_user(
    State(deps): State<ServerApiDeps>,
    back_end: BackEnd,
    PathParam(user_id): PathParam<String>,
) -> Result<Json<User>, AppError> {
    Ok(Json(users::get(&deps, &back_end.app, &user_id).await?))
}

/// A page of the app's users.
async fn list_users(
    State(deps): State<ServerApiDeps>,
    back_end: BackEnd,
    query: Result<Query<UserListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<UserPage>, AppError> {
    let Query(query) = query.map_err(|_| AppError::invalid_data(users::PAGE_LIMIT))?;
    let page = users::list(&deps, &back_end.app, query.cursor.as_deref(), query.limit).await?;
    Ok(Json(page))
}

/// Creates a user with accounts proven elsewhere.
async fn create_user(
    State(deps): State<ServerApiDeps>,
    back_end: BackEnd,
    JsonBody(body): JsonBody<CreateUserRequest>,
) -> Result<Json<User>, AppError> {
    Ok(Json(users::create(&deps, &back_end.app, &body).await?))
}

/// Creates many users, each on its own.
async fn import_users(
    State(deps): State<ServerApiDeps>,
    back_end: BackEnd,
    JsonBody(body): JsonBody<ImportUsersRequest>,
) -> Result<Json<ImportUsersResponse>, AppError> {
    let results = batch::import_many(&deps, &back_end.app, &body).await?;
    Ok(Json(ImportUsersResponse { results }))
}

/// One user found by a term or by lists of identifiers.
async fn search_users(
    State(deps): State<ServerApiDeps>,
    back_end: BackEnd,
    JsonBody(body): JsonBody<UserSearchRequest>,
) -> Result<Json<User>, AppError> {
    Ok(Json(search::search(&deps, &back_end.app, &body).await?))
}

/// Deletes the user and everything of theirs.
async fn delete_user(
    State(deps): State<ServerApiDeps>,
    back_end: BackEnd,
    PathParam(user_id): PathParam<String>,
) -> Result<StatusCode, AppError> {
    users::delete(&deps, &back_end.app, &user_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Replaces the user's custom metadata.
async fn set_custom_metadata(
    State(deps): State<ServerApiDeps>,
    back_end: BackEnd,
    PathParam(user_id): PathParam<String>,
    JsonBody(body): JsonBody<CustomMetadataRequest>,
) -> Result<Json<User>, AppError> {
    let user =
        users::set_custom_metadata(&deps, &back_end.app, &user_id, &body.custom_metadata).await?;
    Ok(Json(user))
}

/// The lookups: each takes its request type, and finds the user by one account (its type and
/// subject, normalised as stored) or by a provider handle.
macro_rules! lookups {
    ($($name:ident($body:ident: $request:ty) => $find:ident($account_type:literal, $value:expr);)*) => {$(
        async fn $name(
            State(deps): State<ServerApiDeps>,
            back_end: BackEnd,
            JsonBody($body): JsonBody<$request>,
        ) -> Result<Json<User>, AppError> {
            Ok(Json(users::$find(&deps, &back_end.app, $account_type, $value).await?))
        }
    )*};
}

lookups! {
    by_email(body: EmailLookup) => by_account("email", &users::email_subject(&body.address)?);
    by_phone(body: PhoneLookup) => by_account("phone", &users::phone_subject(&body.number)?);
    by_wallet(body: WalletLookup) => by_account("wallet", &users::wallet_subject(&body.address)?);
    by_smart_wallet(body: WalletLookup) => by_account("smart_wallet", &users::wallet_subject(&body.address)?);
    by_custom_auth_id(body: CustomAuthLookup) => by_account("custom_auth", body.custom_user_id.trim());
    by_twitter_subject(body: SubjectLookup) => by_account("twitter_oauth", body.subject.trim());
    by_telegram_user_id(body: TelegramLookup) => by_account("telegram", body.telegram_user_id.trim());
    by_farcaster_id(body: FarcasterLookup) => by_account("farcaster", &body.fid.to_string());
    by_twitter_username(body: UsernameLookup) => by_username("twitter_oauth", &body.username);
    by_discord_username(body: UsernameLookup) => by_username("discord_oauth", &body.username);
    by_github_username(body: UsernameLookup) => by_username("github_oauth", &body.username);
    by_telegram_username(body: UsernameLookup) => by_username("telegram", &body.username);
}

/// Pregenerates embedded wallets for a user who has none yet.
async fn pregenerate_wallets(
    State(deps): State<ServerApiDeps>,
    back_end: BackEnd,
    PathParam(user_id): PathParam<String>,
    JsonBody(body): JsonBody<PregenerateWalletsRequest>,
) -> Result<Json<User>, AppError> {
    let user = users::pregenerate_wallets(&deps, &back_end.app, &user_id, &body.wallets).await?;
    Ok(Json(user))
}

/// Unlinks one of the user's accounts.
async fn unlink_account(
    State(deps): State<ServerApiDeps>,
    back_end: BackEnd,
    PathParam(user_id): PathParam<String>,
    JsonBody(body): JsonBody<UnlinkAccountRequest>,
) -> Result<Json<User>, AppError> {
    Ok(Json(
        users::unlink(&deps, &back_end.app, &user_id, &body).await?,
    ))
}

/// The `/v1` API: every route, one line each, and how they are mounted.
pub const ROUTES: Routes = Routes {
    table: TABLE,
    mount,
};

const USER: Body = Body::Json(json::<User>);

#[rustfmt::skip]
const TABLE: &[Route] = &[
    r(Get, "/v1/users", "A page of the app's users (cursor, limit ≤ 100)", None, Body::Json(json::<UserPage>), AppSecret, &[]),
    r(Post, "/v1/users", "Create a user with accounts proven elsewhere (an import), optionally with pregenerated wallets", Some(json::<CreateUserRequest>), USER, AppSecret, &[403, 422]),
    r(Get, "/v1/users/{user_id}", "The app's user by id", None, USER, AppSecret, &[404]),
    r(Delete, "/v1/users/{user_id}", "Delete the user and everything of theirs (204)", None, Body::Empty, AppSecret, &[404]),
    r(Post, "/v1/users/{user_id}/custom_metadata", "Replace the user's custom metadata", Some(json::<CustomMetadataRequest>), USER, AppSecret, &[404]),
    r(Post, "/v1/users/email/address", "The user with this email", Some(json::<EmailLookup>), USER, AppSecret, &[404]),
    r(Post, "/v1/users/phone/number", "The user with this phone number", Some(json::<PhoneLookup>), USER, AppSecret, &[404]),
    r(Post, "/v1/users/wallet/address", "The user with this wallet (external or embedded)", Some(json::<WalletLookup>), USER, AppSecret, &[404]),
    r(Post, "/v1/users/smart_wallet/address", "The user with this smart wallet", Some(json::<WalletLookup>), USER, AppSecret, &[404]),
    r(Post, "/v1/users/custom_auth/id", "The user with this custom-auth id", Some(json::<CustomAuthLookup>), USER, AppSecret, &[404]),
    r(Post, "/v1/users/twitter/subject", "The user with this Twitter subject", Some(json::<SubjectLookup>), USER, AppSecret, &[404]),
    r(Post, "/v1/users/telegram/telegram_user_id", "The user with this Telegram user id", Some(json::<TelegramLookup>), USER, AppSecret, &[404]),
    r(Post, "/v1/users/farcaster/fid", "The user with this Farcaster id", Some(json::<FarcasterLookup>), USER, AppSecret, &[404]),
    r(Post, "/v1/users/twitter/username", "The user with this Twitter username", Some(json::<UsernameLookup>), USER, AppSecret, &[404]),
    r(Post, "/v1/users/discord/username", "The user with this Discord username", Some(json::<UsernameLookup>), USER, AppSecret, &[404]),
    r(Post, "/v1/users/github/username", "The user with this GitHub username", Some(json::<UsernameLookup>), USER, AppSecret, &[404]),
    r(Post, "/v1/users/telegram/username", "The user with this Telegram username", Some(json::<UsernameLookup>), USER, AppSecret, &[404]),
    r(Post, "/v1/users/{user_id}/wallets", "Pregenerate embedded wallets the user owns from their first sign-in (a user without one)", Some(json::<PregenerateWalletsRequest>), USER, AppSecret, &[404]),
    r(Post, "/v1/users/import", "Create up to 100 users, each on its own: one result per user (created with its id, or why not)", Some(json::<ImportUsersRequest>), Body::Json(json::<ImportUsersResponse>), AppSecret, &[]),
    r(Post, "/v1/users/search", "One user: by a term (an id, or all or part of an account's identifier) or by lists of emails, phone numbers and wallet addresses", Some(json::<UserSearchRequest>), USER, AppSecret, &[404]),
    r(Get, "/v1/apps/{app_id}", "The calling app's settings (its client configuration, allowed origins, token verification key)", None, Body::Json(json::<AppConfigResponse>), AppSecret, &[404]),
    r(Post, "/v1/users/{user_id}/accounts/unlink", "Unlink one of the user's accounts (never the last way in, never an embedded wallet)", Some(json::<UnlinkAccountRequest>), USER, AppSecret, &[404, 422]),
];

fn mount(routes: Mount) -> Mount {
    routes
        .get("/v1/users", list_users)
        .post("/v1/users", create_user)
        .get("/v1/users/{user_id}", get_user)
        .delete("/v1/users/{user_id}", delete_user)
        .post("/v1/users/{user_id}/custom_metadata", set_custom_metadata)
        .post("/v1/users/email/address", by_email)
        .post("/v1/users/phone/number", by_phone)
        .post("/v1/users/wallet/address", by_wallet)
        .post("/v1/users/smart_wallet/address", by_smart_wallet)
        .post("/v1/users/custom_auth/id", by_custom_auth_id)
        .post("/v1/users/twitter/subject", by_twitter_subject)
        .post("/v1/users/telegram/telegram_user_id", by_telegram_user_id)
        .post("/v1/users/farcaster/fid", by_farcaster_id)
        .post("/v1/users/twitter/username", by_twitter_username)
        .post("/v1/users/discord/username", by_discord_username)
        .post("/v1/users/github/username", by_github_username)
        .post("/v1/users/telegram/username", by_telegram_username)
        .post("/v1/users/{user_id}/wallets", pregenerate_wallets)
        .post("/v1/users/{user_id}/accounts/unlink", unlink_account)
        .post("/v1/users/import", import_users)
        .post("/v1/users/search", search_users)
        .get("/v1/apps/{app_id}", get_settings)
}
