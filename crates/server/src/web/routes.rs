//! Route tables: each capability lists its routes, one line each ([`Route`]), and mounts them
//! through [`Mount`], which refuses a route missing from the table. The edge collects the tables
//! into the router and the OpenAPI document (`http::openapi`), so a route is documented the
//! moment it exists.
//!
//! To add a route:
//! 1. Give its request and response types in `crates/protocol` the derive
//!    `#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]` (next to `TS`).
//! 2. Add one line to its capability's table: method, full path (with `{param}`s), a summary, the
//!    request body (`Some(json::<T>)` or `None`), the success body (`Body::Json(json::<T>)`), who
//!    may call it ([`Access`]: decides the header parameters, the bearer scheme and the
//!    400/401/403 answers) and the other error statuses the handler can answer (e.g. `&[429]`).
//! 3. Mount it in the same file's `mount` with [`Mount::get`] / `post` / … (a second method on a
//!    path is a second line, axum merges them).
//! 4. `cargo test -p symbolon-server --test it openapi`, then `scripts/test.sh fuzz`.

use std::collections::BTreeMap;

use axum::handler::Handler;
use axum::routing::{MethodFilter, on};
use axum::{Extension, Router};
use serde_json::{Value, json};
use utoipa::ToSchema;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;

use crate::app_settings::login_methods::LoginMethod;
use crate::rate_limit::Budget;
use crate::state::AppState;

/// The table row of the route a request matched, for the extractors that enforce its policy
/// (`web::app_context`).
#[derive(Debug, Clone, Copy)]
pub struct MatchedRoute(pub &'static Route);

/// An HTTP method of a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    /// `GET`.
    Get,
    /// `POST`.
    Post,
    /// `PUT`.
    Put,
    /// `PATCH`.
    Patch,
    /// `DELETE`.
    Delete,
}

impl Verb {
    /// The lower-case name, as an OpenAPI path item key.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Get => "get",
            Self::Post => "post",
            Self::Put => "put",
            Self::Patch => "patch",
            Self::Delete => "delete",
        }
    }

    /// The method.
    pub fn method(self) -> axum::http::Method {
        use axum::http::Method;
        match self {
            Self::Get => Method::GET,
            Self::Post => Method::POST,
            Self::Put => Method::PUT,
            Self::Patch => Method::PATCH,
            Self::Delete => Method::DELETE,
        }
    }
}

/// Who may call a route: decides its header parameters, security and 400/401/403 answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone; no app header.
    Public,
    /// `privy-app-id` required; `Origin`, when sent, must be one of the app's.
    App,
    /// As [`Access::App`], and `Origin` required.
    AppOrigin,
    /// A Bearer access token and `privy-app-id`; `Origin` optional.
    User,
    /// A Bearer access token, `privy-app-id` and `Origin`.
    UserOrigin,
    /// The wallet frame: Bearer, `Origin` equal to the server's own, `privy-app-id` optional.
    Frame,
    /// A back channel: another server (an OAuth client's token and user-info calls) or this
    /// server's own pages; no app header, and outside CORS (no host page calls it).
    BackChannel,
    /// A host app's back end (`/v1`): HTTP Basic `app_id:app_secret` and `privy-app-id`; outside
    /// CORS (a secret never belongs in a page).
    AppSecret,
}

/// Collected component schemas, by name.
pub type Schemas = BTreeMap<String, Value>;

/// Registers `T` (and what it refers to) and answers a `$ref` to it.
pub type SchemaFn = fn(&mut Schemas) -> Value;

/// A success body.
#[derive(Debug, Clone, Copy)]
pub enum Body {
    /// `application/json` of a schema.
    Json(SchemaFn),
    /// Any JSON object (this document).
    AnyJson,
    /// The wallet frame page (`text/html`).
    Html,
    /// A static asset of the wallet frame.
    Asset,
    /// A `302` to another page (the OAuth callback).
    Redirect,
    /// `204`, no body.
    Empty,
}

/// One route of the server.
#[derive(Debug, Clone, Copy)]
pub struct Route {
    /// Method.
    pub verb: Verb,
    /// Full path, `{param}` for path parameters (axum's syntax is OpenAPI's).
    pub path: &'static str,
    /// One line for the document.
    pub summary: &'static str,
    /// The JSON request body, if any.
    pub request: Option<SchemaFn>,
    /// The success (200) body.
    pub response: Body,
    /// Who may call it.
    pub access: Access,
    /// Error statuses beyond those [`Access`] and every route imply (see `http::openapi`).
    pub errors: &'static [u16],
    /// The login method the route belongs to: refused (`disallowed_login_method`) for an app
    /// that does not enable it, before the handler runs ([`Self::gated`]).
    pub method: Option<LoginMethod>,
    /// The per-network budget its handler spends ([`Self::limited`]).
    pub budget: Option<Budget>,
}

impl Route {
    /// The same route, callable only for apps that enable `method`.
    pub const fn gated(mut self, method: LoginMethod) -> Self {
        self.method = Some(method);
        self
    }

    /// The same route, spending `budget` per client network (where its method has checked the
    /// input, so bad input spends nothing: `web::client_ip::ClientIp::spend`).
    pub const fn limited(mut self, budget: Budget) -> Self {
        self.budget = Some(budget);
        self
    }

    /// Whether the route needs an `Origin` (browser-only calls): refused with `missing_origin`
    /// before the handler runs.
    pub fn needs_origin(&self) -> bool {
        matches!(self.access, Access::AppOrigin | Access::UserOrigin)
    }

    /// Whether host pages call it (cross-origin, under the apps' CORS): every route but the wallet
    /// frame's calls, the back channels, and the pages a browser navigates to (pages, their
    /// assets, redirects).
    pub fn called_by_host_pages(&self) -> bool {
        !matches!(
            self.access,
            Access::Frame | Access::BackChannel | Access::AppSecret
        ) && !matches!(self.response, Body::Html | Body::Asset | Body::Redirect)
    }
}

/// A capability's routes: its table and how it mounts them.
#[derive(Debug, Clone, Copy)]
pub struct Routes {
    /// Every route, one line each.
    pub table: &'static [Route],
    /// Mounts each route of the table on its handler.
    pub mount: fn(Mount) -> Mount,
}

impl Routes {
    /// The routers of the host pages' calls and of the server's own pages and back channels.
    pub fn routers(&self) -> (Router<AppState>, Router<AppState>) {
        (self.mount)(Mount::new(self.table)).into_routers()
    }
}

/// Shorthand for a table line.
pub const fn r(
    verb: Verb,
    path: &'static str,
    summary: &'static str,
    request: Option<SchemaFn>,
    response: Body,
    access: Access,
    errors: &'static [u16],
) -> Route {
    Route {
        verb,
        path,
        summary,
        request,
        response,
        access,
        errors,
        method: None,
        budget: None,
    }
}

/// Registers `T` and its dependencies; answers a `$ref` to `T`.
pub fn json<T: ToSchema>(schemas: &mut Schemas) -> Value {
    let mut found: Vec<(String, RefOr<Schema>)> = Vec::new();
    T::schemas(&mut found);
    found.push((T::name().into_owned(), T::schema()));
    for (name, schema) in found {
        schemas
            .entry(name)
            .or_insert_with(|| serde_json::to_value(schema).unwrap_or(Value::Null));
    }
    json!({ "$ref": format!("#/components/schemas/{}", T::name()) })
}

/// Mounts only the routes of one table, each on the router of its callers
/// ([`Route::called_by_host_pages`]).
#[derive(Debug)]
pub struct Mount {
    table: &'static [Route],
    host: Router<AppState>,
    own: Router<AppState>,
}

impl Mount {
    /// Nothing mounted yet.
    pub fn new(table: &'static [Route]) -> Self {
        Self {
            table,
            host: Router::new(),
            own: Router::new(),
        }
    }

    /// Mounts `GET path`.
    pub fn get<H, T>(self, path: &str, handler: H) -> Self
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.add(Verb::Get, MethodFilter::GET, path, handler)
    }

    /// Mounts `POST path`.
    pub fn post<H, T>(self, path: &str, handler: H) -> Self
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.add(Verb::Post, MethodFilter::POST, path, handler)
    }

    /// Mounts `PATCH path`.
    pub fn patch<H, T>(self, path: &str, handler: H) -> Self
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.add(Verb::Patch, MethodFilter::PATCH, path, handler)
    }

    /// Mounts `DELETE path`.
    pub fn delete<H, T>(self, path: &str, handler: H) -> Self
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.add(Verb::Delete, MethodFilter::DELETE, path, handler)
    }

    fn add<H, T>(mut self, verb: Verb, filter: MethodFilter, path: &str, handler: H) -> Self
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        // A programming error caught by every test that builds the router.
        let route = self
            .table
            .iter()
            .find(|r| r.verb == verb && r.path == path)
            .unwrap_or_else(|| {
                panic!(
                    "{} {path} is mounted but missing from its capability's route table",
                    verb.as_str()
                )
            });
        let method_router = on(filter, handler).layer(Extension(MatchedRoute(route)));
        if route.called_by_host_pages() {
            self.host = self.host.route(path, method_router);
        } else {
            self.own = self.own.route(path, method_router);
        }
        self
    }

    /// The host pages' router and the own pages' router.
    pub fn into_routers(self) -> (Router<AppState>, Router<AppState>) {
        (self.host, self.own)
    }
}
