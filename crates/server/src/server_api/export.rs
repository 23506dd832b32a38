//! Moving an app's users between servers: the export `symbolon users export` writes, and the
//! import `symbolon users import` makes of such an export, of the vendor's (a JSON array of users
//! in the same form) or of a CSV. An import keeps each user's id, creation time and custom metadata
//! and imports every account it can; what it cannot (passkeys, whose public keys no export carries;
//! embedded wallets, unless the export sealed their shares to this server with `--wallets-to`,
//! `crate::wallets::moves`) is reported per user.

use std::collections::HashMap;

use serde_json::{Map, Value};
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::server_api::{
    CreateUserRequest, LinkedAccountInput, SealedWalletShares, UserExport,
};
use symbolon_protocol::user::{ChainType, User};

use super::deps::ServerApiDeps;
use super::users::{self, KeptIdentity};
use crate::db::apps::AppRecord;
use crate::error::AppError;
use crate::keys::wallet_transfer::TransferPublicKey;
use crate::users::view::user_view;
use crate::wallets::moves::{install_move, move_clashes, open_move, seal_for_move};

/// One user to import: where it came from, what is kept, the accounts, what was left out.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportRow {
    /// 1-based position in the file (a CSV's data line, an export's user).
    pub position: usize,
    /// Id, creation time and terms kept from the source, when it gave an id.
    pub kept: Option<KeptIdentity>,
    /// The accounts and metadata to create the user with.
    pub request: CreateUserRequest,
    /// Accounts left out, each with why.
    pub skipped: Vec<String>,
    /// The user's embedded wallets moved with them: their shares sealed to this server, and the
    /// wallets (index, address) the export lists.
    pub moved_wallets: Option<MovedWallets>,
}

/// One user's embedded wallets in an export made with `--wallets-to`.
#[derive(Debug, Clone, PartialEq)]
pub struct MovedWallets {
    /// The root wallet's shares, sealed to the destination.
    pub sealed: SealedWalletShares,
    /// Index → address of each wallet of the chain, as exported.
    pub wallets: Vec<(u32, String)>,
}

/// Every user of `app`, in the `/v1` form, by id; with `wallets_to` (another server's transfer
/// key), each embedded wallet's shares sealed to that server.
pub async fn export(
    deps: &ServerApiDeps,
    app: &AppRecord,
    wallets_to: Option<&TransferPublicKey>,
) -> Result<UserExport, AppError> {
    let mut users = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let page = deps.db.list_users(&app.id, cursor.as_deref(), 100).await?;
        for user in &page {
            users.push(user_view(&deps.db, user).await?);
        }
        match page.last() {
            Some(last) if page.len() == 100 => cursor = Some(last.id.clone()),
            _ => break,
        }
    }
    let wallet_shares = match wallets_to {
        Some(to) => {
            let mut sealed = Vec::new();
            for user in &users {
                if let Some(shares) =
                    seal_for_move(&deps.wallets, &user.id, ChainType::Ethereum, to).await?
                {
                    sealed.push(shares);
                }
            }
            Some(sealed)
        }
        None => None,
    };
    Ok(UserExport {
        app_id: app.id.clone(),
        exported_at: deps.clock.now(),
        users,
        wallet_shares,
    })
}

/// Creates the row's user (with the wallets moved with them); the user as created. Moved wallets
/// are opened and checked first: a user whose wallets do not open or clash is not created at all,
/// so a second run with the right file imports them whole.
pub async fn import(
    deps: &ServerApiDeps,
    app: &AppRecord,
    row: &ImportRow,
) -> Result<User, AppError> {
    let opened = match &row.moved_wallets {
        Some(moved) => {
            let opened = open_move(&deps.wallets.transfer, &moved.sealed, &moved.wallets)
                .map_err(AppError::invalid_data)?;
            if let Some(address) = move_clashes(&deps.wallets, &app.id, &opened).await? {
                return Err(AppError::new(
                    ServerErrorCode::ResourceAlreadyExists,
                    format!("The wallet {address} exists on this server already"),
                ));
            }
            Some(opened)
        }
        None => None,
    };
    let user = users::create_kept(deps, app, &row.request, row.kept.as_ref()).await?;
    match &opened {
        Some(opened) => {
            if let Err(failed) = install_move(&deps.wallets, &app.id, &user.id, opened).await {
                // Not half a user: a rerun imports them whole.
                deps.db
                    .delete_user(&app.id, &user.id, &[], deps.clock.now())
                    .await?;
                return Err(failed);
            }
            users::get(deps, app, &user.id).await
        }
        None => Ok(user),
    }
}

/// The rows of an export (`{"users": [...]}`) or of a bare array of users; a user that does not
/// read is that row's error, the others still import.
pub fn rows_from_json(text: &str) -> Result<Vec<Result<ImportRow, String>>, String> {
    let document: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let users = match &document {
        Value::Array(users) => users,
        Value::Object(object) => object
            .get("users")
            .and_then(Value::as_array)
            .ok_or("expected an array of users or an object with \"users\"")?,
        _ => return Err("expected an array of users or an object with \"users\"".into()),
    };
    let sealed: HashMap<String, SealedWalletShares> = match document.get("wallet_shares") {
        Some(list) if !list.is_null() => {
            serde_json::from_value::<Vec<SealedWalletShares>>(list.clone())
                .map_err(|e| format!("wallet_shares: {e}"))?
                .into_iter()
                .map(|s| (s.user_id.clone(), s))
                .collect()
        }
        _ => HashMap::new(),
    };
    Ok(users
        .iter()
        .enumerate()
        .map(|(index, user)| {
            let mut row = row_from_user(index + 1, user)?;
            let id = row.kept.as_ref().map(|k| k.id.as_str()).unwrap_or_default();
            if let Some(sealed) = sealed.get(id) {
                row.moved_wallets = Some(moved_wallets(user, sealed)?);
                // They move: no longer "left out".
                row.skipped
                    .retain(|why| !why.starts_with("embedded wallet "));
            }
            Ok(row)
        })
        .collect())
}

/// The exported user's embedded wallets of the sealed shares' chain, with the shares.
fn moved_wallets(user: &Value, sealed: &SealedWalletShares) -> Result<MovedWallets, String> {
    let mut wallets = Vec::new();
    for account in user["linked_accounts"].as_array().into_iter().flatten() {
        let embedded =
            account["connector_type"] == "embedded" || account["wallet_client_type"] == "privy";
        if account["type"] != "wallet"
            || !embedded
            || account["chain_type"] != sealed.chain_type.as_str()
        {
            continue;
        }
        let index = account["wallet_index"]
            .as_u64()
            .and_then(|i| u32::try_from(i).ok())
            .ok_or("an embedded wallet without wallet_index")?;
        let address = account["address"]
            .as_str()
            .ok_or("an embedded wallet without address")?;
        wallets.push((index, address.to_string()));
    }
    Ok(MovedWallets {
        sealed: sealed.clone(),
        wallets,
    })
}

fn row_from_user(position: usize, user: &Value) -> Result<ImportRow, String> {
    let object = user.as_object().ok_or("a user must be an object")?;
    let kept = match object.get("id").and_then(Value::as_str) {
        Some(id) => Some(KeptIdentity {
            id: id.to_string(),
            created_at: object
                .get("created_at")
                .and_then(Value::as_i64)
                .ok_or("created_at must be unix seconds")?,
            has_accepted_terms: object
                .get("has_accepted_terms")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        }),
        None => None,
    };
    let mut linked_accounts = Vec::new();
    let mut skipped = Vec::new();
    let accounts = object
        .get("linked_accounts")
        .and_then(Value::as_array)
        .ok_or("linked_accounts must be an array")?;
    for account in accounts {
        match account_input(account) {
            Ok(input) => linked_accounts.push(input),
            Err(why) => skipped.push(why),
        }
    }
    let custom_metadata = object
        .get("custom_metadata")
        .and_then(Value::as_object)
        .cloned();
    Ok(ImportRow {
        position,
        kept,
        request: CreateUserRequest {
            wallets: None,
            linked_accounts,
            custom_metadata,
        },
        skipped,
        moved_wallets: None,
    })
}

/// An exported account as import input, or why it is left out.
fn account_input(account: &Value) -> Result<LinkedAccountInput, String> {
    let kind = account["type"].as_str().unwrap_or("(no type)");
    let embedded =
        account["connector_type"] == "embedded" || account["wallet_client_type"] == "privy";
    let fields: &[&str] = match kind {
        "wallet" if embedded => {
            return Err(format!(
                "embedded wallet {}: its key shares stay with the server that holds them",
                account["address"].as_str().unwrap_or("?")
            ));
        }
        "passkey" => {
            return Err(
                "passkey: no export carries its public key; the user registers it again".into(),
            );
        }
        "email" => &["address"],
        "phone" => &["number"],
        "wallet" => &["address", "chain_type"],
        "custom_auth" => &["custom_user_id"],
        "telegram" => &[
            "telegram_user_id",
            "first_name",
            "last_name",
            "username",
            "photo_url",
        ],
        "farcaster" => &[
            "fid",
            "owner_address",
            "username",
            "display_name",
            "bio",
            "profile_picture_url",
        ],
        oauth if oauth.ends_with("_oauth") => &["subject", "email", "name", "username"],
        other => return Err(format!("{other} account: not importable")),
    };
    let mut input = Map::new();
    input.insert("type".into(), Value::from(kind));
    for field in fields {
        // The user form names a phone's number `phoneNumber`.
        let value = match *field {
            "number" => account.get("number").or_else(|| account.get("phoneNumber")),
            name => account.get(name),
        };
        if let Some(value) = value.filter(|v| !v.is_null()) {
            input.insert((*field).to_string(), value.clone());
        }
    }
    serde_json::from_value(Value::Object(input)).map_err(|e| format!("{kind} account: {e}"))
}

/// The rows of a CSV with a header line: `id`, `created_at`, `email`, `phone`, `wallet_address`,
/// `wallet_chain_type` (default `ethereum`), `custom_user_id`, `custom_metadata` (a JSON object);
/// every column optional, empty cells ignored.
pub fn rows_from_csv(text: &str) -> Result<Vec<Result<ImportRow, String>>, String> {
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let header = reader
        .headers()
        .map_err(|e| format!("no header line: {e}"))?
        .clone();
    Ok(reader
        .records()
        .enumerate()
        .map(|(index, record)| {
            let record = record.map_err(|e| e.to_string())?;
            let cells: HashMap<String, String> = header
                .iter()
                .zip(record.iter())
                .filter(|(_, value)| !value.is_empty())
                .map(|(name, value)| (name.to_ascii_lowercase(), value.to_string()))
                .collect();
            row_from_csv(index + 1, &cells)
        })
        .collect())
}

fn row_from_csv(position: usize, cells: &HashMap<String, String>) -> Result<ImportRow, String> {
    let cell = |name: &str| cells.get(name).map(String::as_str);
    let mut user = Map::new();
    let mut accounts = Vec::new();
    if let Some(email) = cell("email") {
        accounts.push(serde_json::json!({ "type": "email", "address": email }));
    }
    if let Some(phone) = cell("phone") {
        accounts.push(serde_json::json!({ "type": "phone", "number": phone }));
    }
    if let Some(address) = cell("wallet_address") {
        let chain_type = cell("wallet_chain_type").unwrap_or("ethereum");
        accounts.push(
            serde_json::json!({ "type": "wallet", "address": address, "chain_type": chain_type }),
        );
    }
    if let Some(id) = cell("custom_user_id") {
        accounts.push(serde_json::json!({ "type": "custom_auth", "custom_user_id": id }));
    }
    user.insert("linked_accounts".into(), Value::Array(accounts));
    if let Some(id) = cell("id") {
        user.insert("id".into(), Value::from(id));
        let created_at = match cell("created_at") {
            Some(text) => text
                .parse::<i64>()
                .map_err(|_| "created_at must be unix seconds".to_string())?,
            None => 0,
        };
        user.insert("created_at".into(), Value::from(created_at));
    }
    if let Some(metadata) = cell("custom_metadata") {
        let parsed: Value = serde_json::from_str(metadata)
            .map_err(|_| "custom_metadata must be a JSON object".to_string())?;
        user.insert("custom_metadata".into(), parsed);
    }
    row_from_user(position, &Value::Object(user))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_exported_user_keeps_what_can_move_and_says_what_cannot() -> Result<(), String> {
        let user = json!({
            "id": "did:privy:abc123", "created_at": 1_700_000_000, "has_accepted_terms": true,
            "is_guest": false, "mfa_methods": [], "custom_metadata": { "plan": "pro" },
            "linked_accounts": [
                { "type": "email", "address": "ada@example.com", "verified_at": 1 },
                { "type": "phone", "phoneNumber": "+14155550100", "verified_at": 1 },
                { "type": "wallet", "address": "0xabc", "chain_type": "ethereum", "connector_type": "embedded", "wallet_client_type": "privy" },
                { "type": "wallet", "address": "0xdef", "chain_type": "ethereum", "connector_type": "injected", "wallet_client_type": "metamask" },
                { "type": "google_oauth", "subject": "g-1", "email": "ada@example.com", "name": null },
                { "type": "passkey", "credential_id": "c" },
            ],
        });
        let row = row_from_user(1, &user)?;
        let kept = row.kept.ok_or("id kept")?;
        assert_eq!(
            (kept.id.as_str(), kept.created_at, kept.has_accepted_terms),
            ("did:privy:abc123", 1_700_000_000, true)
        );
        let types: Vec<String> = row
            .request
            .linked_accounts
            .iter()
            .map(|a| {
                serde_json::to_value(a)
                    .map(|v| v["type"].to_string())
                    .unwrap_or_default()
            })
            .collect();
        assert_eq!(
            types,
            ["\"email\"", "\"phone\"", "\"wallet\"", "\"google_oauth\""]
        );
        assert_eq!(row.skipped.len(), 2, "{:?}", row.skipped);
        assert!(row.skipped[0].starts_with("embedded wallet 0xabc"));
        assert_eq!(
            row.request.custom_metadata,
            json!({ "plan": "pro" }).as_object().cloned()
        );
        Ok(())
    }

    #[test]
    fn csv_rows_read_by_header_and_a_bad_row_is_its_own_error() -> Result<(), String> {
        let text = "email,phone,custom_metadata,id,created_at\n\
                    ada@example.com,,\"{\"\"plan\"\":\"\"pro\"\"}\",did:privy:a1,5\n\
                    bob@example.com,+14155550101,not json,,\n\
                    ,,,,\n";
        let rows = rows_from_csv(text)?;
        assert_eq!(rows.len(), 3);
        let first = rows[0].clone()?;
        assert_eq!(first.kept.map(|k| k.id), Some("did:privy:a1".into()));
        assert_eq!(first.request.linked_accounts.len(), 1);
        assert!(rows[1].is_err(), "bad metadata");
        assert_eq!(
            rows[2].clone()?.request.linked_accounts.len(),
            0,
            "an empty row has no accounts"
        );
        Ok(())
    }
}
