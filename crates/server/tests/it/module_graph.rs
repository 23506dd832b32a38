//! The server's modules depend one way (docs/architecture.md "The server's layers"): the edge on
//! the capabilities, the capabilities on the request support and the store, never back. Read
//! from the source: every `crate::…`, `super::…` and `self::…` path in production code (unit
//! tests excluded) names the module it uses. Each capability reads only the slice of the state it
//! declares in its one `deps.rs` (docs/architecture.md "The state"): no other file of it names
//! `AppState`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The router, its error mapping, OpenAPI and the binary's commands: nothing imports these.
const EDGE: &[&str] = &["cli", "http", "serve"];
/// What users and host apps do, each with its routes and rules.
const CAPABILITIES: &[&str] = &[
    "accounts",
    "aggregations",
    "delegation",
    "key_quorums",
    "methods",
    "mfa",
    "policies",
    "provider_app",
    "server_api",
    "sessions",
    "users",
    "wallet_api",
    "wallets",
    "webhooks",
];
/// What every route takes from a request, and the state handed to handlers.
const REQUEST: &[&str] = &["state", "web"];
/// The store and support below everything: no HTTP routes, no capability rules.
const SUPPORT: &[&str] = &[
    "api_secrets",
    "app_secrets",
    "app_settings",
    "chain_rpc",
    "clock",
    "config",
    "db",
    "digest",
    "error",
    "html",
    "identifiers",
    "jwt_verifier",
    "keys",
    "mail",
    "origin",
    "otp",
    "outbound_http",
    "random",
    "rate_limit",
    "signer_client",
    "sms",
    "tokens",
];
/// The one file of a capability that names the whole state: the slices the capability reads and
/// their `FromRef<AppState>` impls.
const STATE_SLICES: &str = "deps.rs";
/// Wallet rules a service without HTTP (a signer, an agents back end) could take as they are.
const WITHOUT_HTTP: &[&str] = &[
    "wallets/service.rs",
    "wallets/recovery",
    "wallets/chains",
    "wallets/proofs.rs",
    "wallets/shares.rs",
    "wallets/pregenerate.rs",
];

type Result<T = ()> = std::result::Result<T, Box<dyn std::error::Error>>;

/// One source file: its module path and its text without comments.
struct Source {
    module: Vec<String>,
    relative: String,
    code: String,
}

fn sources() -> Result<Vec<Source>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    collect(&root, &mut files)?;
    let mut sources = Vec::new();
    for path in files {
        let relative = path
            .strip_prefix(&root)?
            .to_string_lossy()
            .replace('\\', "/");
        let module = module_of(&relative);
        if module == ["lib"] || module == ["main"] {
            continue;
        }
        // Production code only: unit tests (at the end of a file, the house style) may reach
        // anywhere to build their fixtures.
        let text = std::fs::read_to_string(&path)?;
        let production = text.split("#[cfg(test)]").next().unwrap_or_default();
        let code = production
            .lines()
            .map(|line| line.split("//").next().unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\n");
        sources.push(Source {
            module,
            relative,
            code,
        });
    }
    Ok(sources)
}

/// `wallets/recovery/mod.rs` → `["wallets", "recovery"]`.
fn module_of(relative: &str) -> Vec<String> {
    let mut module: Vec<String> = relative
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if module.last().is_some_and(|last| last == "mod") {
        module.pop();
    }
    module
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) -> Result {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, files)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    Ok(())
}

/// The absolute module paths `code` (in module `module`) names.
fn used_paths(module: &[String], code: &str) -> Vec<Vec<String>> {
    let mut used = Vec::new();
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(found) = code[from..].find(start) {
            let at = from + found;
            from = at + start.len();
            // Only whole words: `xcrate::` or `my_self::` are not paths.
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
                continue;
            }
            let Some(base) = resolve_base(module, code, at) else {
                continue;
            };
            for tail in path_tails(&code[from..]) {
                let mut path = base.clone();
                path.extend(tail);
                used.push(path);
            }
        }
    }
    used
}

/// The module a path starting at `at` is relative to (`super::super::` climbs twice).
fn resolve_base(module: &[String], code: &str, at: usize) -> Option<Vec<String>> {
    let rest = &code[at..];
    if rest.starts_with("crate::") {
        return Some(Vec::new());
    }
    if rest.starts_with("self::") {
        return Some(module.to_vec());
    }
    // Count the `super::`s only at their first one (the later ones are found and skipped here).
    if code[..at].ends_with("super::") {
        return None;
    }
    let supers = rest
        .as_bytes()
        .chunks(7)
        .take_while(|chunk| *chunk == b"super::")
        .count();
    let keep = module.len().checked_sub(supers)?;
    Some(module[..keep].to_vec())
}

/// The module paths after a `crate::`-like prefix: `a::b::C` or a `{a, b::{c, d}}` group.
fn path_tails(rest: &str) -> Vec<Vec<String>> {
    let rest = rest.trim_start_matches("super::");
    if let Some(group) = rest.strip_prefix('{') {
        let mut depth = 0;
        let mut end = group.len();
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    end = i;
                    break;
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        return split_top_level(&group[..end])
            .iter()
            .filter_map(|item| segments(item))
            .collect();
    }
    segments(rest).into_iter().collect()
}

fn split_top_level(group: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&group[start..]);
    items
}

/// `a::b::C…` → `["a", "b", "C"]` (stops at the first character that is not part of a path).
fn segments(text: &str) -> Option<Vec<String>> {
    let text = text.trim();
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(text.len());
    let parts: Vec<String> = text[..end]
        .split("::")
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    (!parts.is_empty()).then_some(parts)
}

/// Edges between modules `depth` segments deep (`1`: top-level; `2`: the children of a folder).
fn edges(sources: &[Source], depth: usize) -> BTreeMap<String, BTreeSet<String>> {
    let node = |path: &[String]| path[..path.len().min(depth)].join("::");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for source in sources {
        let me = node(&source.module);
        for used in used_paths(&source.module, &source.code) {
            let other = node(&used);
            let related = me == other
                || me.starts_with(&format!("{other}::"))
                || other.starts_with(&format!("{me}::"));
            if !related && !other.is_empty() {
                graph.entry(me.clone()).or_default().insert(other);
            }
        }
    }
    graph
}

/// A cycle through the graph, if there is one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        done: &mut BTreeSet<String>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, done, path) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|start| visit(start, graph, &mut done, &mut Vec::new()))
}

/// Whether `code` has `word` as a whole identifier (not part of a longer one).
fn names(code: &str, word: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    code.match_indices(word)
        .any(|(at, _)| !code[..at].ends_with(ident) && !code[at + word.len()..].starts_with(ident))
}

/// What breaks "each capability reads only its declared slice of the state": a capability file
/// other than its `deps.rs` that names `AppState` or uses the `state` module, and a capability
/// whose `deps.rs` is missing or holds no `FromRef<AppState>` impl.
fn state_outside_slices(sources: &[Source]) -> Vec<String> {
    let mut found = Vec::new();
    for source in sources {
        let capability = &source.module[0];
        // A login method is one unit: it may declare its own slice (`methods/<method>/deps.rs`).
        let method_slices = capability == "methods"
            && source.module.len() == 3
            && source.relative.ends_with(&format!("/{STATE_SLICES}"));
        if !CAPABILITIES.contains(&capability.as_str())
            || source.relative == format!("{capability}/{STATE_SLICES}")
            || method_slices
        {
            continue;
        }
        let uses_state = used_paths(&source.module, &source.code)
            .iter()
            .any(|path| path.first().is_some_and(|m| m == "state"));
        if names(&source.code, "AppState") || uses_state {
            found.push(format!(
                "{} names the state: take the capability's slice (declared in {capability}/{STATE_SLICES})",
                source.relative
            ));
        }
    }
    for capability in CAPABILITIES {
        let slices = format!("{capability}/{STATE_SLICES}");
        let declares = sources
            .iter()
            .any(|s| s.relative == slices && s.code.contains("FromRef<AppState>"));
        if !declares {
            found.push(format!(
                "{slices} is missing or holds no FromRef<AppState> impl"
            ));
        }
    }
    found
}

fn layer(module: &str) -> Option<usize> {
    [SUPPORT, REQUEST, CAPABILITIES, EDGE]
        .iter()
        .position(|layer| layer.contains(&module))
}

#[test]
fn the_reader_finds_every_kind_of_path() {
    let module = vec!["wallets".to_string(), "service".to_string()];
    let code = "use crate::db::Db;\nuse super::{audit::audit, recovery::{self, x}};\nuse self::inner::T;\nfn f() { crate::error::AppError::new(); }";
    let used: BTreeSet<String> = used_paths(&module, code)
        .iter()
        .map(|p| p.join("::"))
        .collect();
    for expected in [
        "db::Db",
        "wallets::audit::audit",
        "wallets::recovery",
        "wallets::service::inner::T",
        "error::AppError::new",
    ] {
        assert!(used.contains(expected), "{expected} in {used:?}");
    }
    let graph = BTreeMap::from([
        ("a".to_string(), BTreeSet::from(["b".to_string()])),
        ("b".to_string(), BTreeSet::from(["a".to_string()])),
    ]);
    assert_eq!(
        find_cycle(&graph),
        Some(vec!["a".into(), "b".into(), "a".into()])
    );
}

#[test]
fn the_state_check_refuses_a_capability_reading_the_whole_state() {
    let source = |relative: &str, code: &str| Source {
        module: module_of(relative),
        relative: relative.to_string(),
        code: code.to_string(),
    };
    let mut sources: Vec<Source> = CAPABILITIES
        .iter()
        .map(|c| {
            source(
                &format!("{c}/{STATE_SLICES}"),
                "impl FromRef<AppState> for Deps {}",
            )
        })
        .collect();
    // The edge and the request layer may name it; so may a name that only contains it.
    sources.push(source("http/mod.rs", "pub fn app(state: AppState) {}"));
    sources.push(source("web/auth.rs", "use crate::state::AppState;"));
    sources.push(source("users/view.rs", "struct NotAppStateful;"));
    // A login method declares its own slice beside its routes.
    sources.push(source(
        "methods/email/deps.rs",
        "impl FromRef<AppState> for EmailDeps {}",
    ));
    assert_eq!(state_outside_slices(&sources), Vec::<String>::new());

    sources.retain(|s| s.relative != "mfa/deps.rs");
    for (file, code) in [
        ("wallets/service.rs", "fn f(state: &AppState) {}"),
        (
            "methods/email/mod.rs",
            "async fn h(State(s): State<crate::AppState>) {}",
        ),
        ("sessions/routes.rs", "use super::super::state;"),
        ("accounts/mod.rs", "fn f(s: &crate::state::Shared) {}"),
        // Only a method's folder, not any folder of a capability, holds a slice of its own.
        ("wallets/chains/deps.rs", "impl FromRef<AppState> for X {}"),
    ] {
        sources.push(source(file, code));
    }
    let found = state_outside_slices(&sources);
    for expected in [
        "wallets/service.rs",
        "methods/email/mod.rs",
        "sessions/routes.rs",
        "accounts/mod.rs",
        "wallets/chains/deps.rs",
        "mfa/deps.rs is missing",
    ] {
        assert!(
            found.iter().any(|f| f.starts_with(expected)),
            "{expected} not reported in {found:?}"
        );
    }
    assert_eq!(found.len(), 6, "{found:?}");
}

#[test]
fn no_module_cycles_at_the_top_or_inside_a_folder() -> Result {
    let sources = sources()?;
    for depth in [1, 2] {
        let graph = edges(&sources, depth);
        assert!(
            !graph.is_empty(),
            "the reader found no paths at depth {depth}"
        );
        if let Some(cycle) = find_cycle(&graph) {
            return Err(format!("module cycle: {}", cycle.join(" -> ")).into());
        }
    }
    Ok(())
}

#[test]
fn dependencies_point_down_the_layers() -> Result {
    let sources = sources()?;
    let graph = edges(&sources, 1);
    let mut unplaced: BTreeSet<&str> = BTreeSet::new();
    for source in &sources {
        if layer(&source.module[0]).is_none() {
            unplaced.insert(&source.module[0]);
        }
    }
    assert!(
        unplaced.is_empty(),
        "modules in no layer (add them to a list above and to docs/architecture.md): {unplaced:?}"
    );
    let mut upward = Vec::new();
    for (from, targets) in &graph {
        for to in targets {
            if let (Some(a), Some(b)) = (layer(from), layer(to))
                && b > a
            {
                upward.push(format!("{from} -> {to}"));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "dependencies against the layers: {upward:?}"
    );
    Ok(())
}

#[test]
fn the_wallet_rules_take_no_http_types() -> Result {
    let sources = sources()?;
    let mut checked = 0;
    for source in &sources {
        if WITHOUT_HTTP
            .iter()
            .any(|prefix| source.relative.starts_with(prefix))
        {
            checked += 1;
            assert!(
                !source.code.contains("axum"),
                "{} uses axum",
                source.relative
            );
        }
    }
    assert!(
        checked >= WITHOUT_HTTP.len(),
        "only {checked} files checked"
    );
    Ok(())
}

#[test]
fn capabilities_read_only_the_state_they_declare() -> Result {
    let sources = sources()?;
    let found = state_outside_slices(&sources);
    assert!(found.is_empty(), "{found:#?}");
    Ok(())
}
