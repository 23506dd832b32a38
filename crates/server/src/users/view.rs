//! Stored users in their wire form.

use symbolon_protocol::user::{
    ChainType, CrossAppAccount, CustomAuthAccount, CustomOAuthAccount, EmailAccount,
    FarcasterAccount, LinkedAccount, MfaMethod, OAuthAccount, PasskeyAccount, PhoneAccount,
    RecoveryMethod, TelegramAccount, User, Verification, WalletAccount,
};

use std::collections::HashMap;

use crate::db::Db;
use crate::db::account_details::{
    AccountDetails, CrossAppDetails, ExternalWalletDetails, FarcasterDetails, OAuthDetails,
    PasskeyDetails, TelegramDetails,
};
use crate::db::mfa::MfaMethodRecord;
use crate::db::users::{LinkedAccountRecord, UserRecord};
use crate::db::wallets::WALLET_ACCOUNT_TYPE;
use crate::error::AppError;
use symbolon_protocol::mfa::MfaMethodType;

/// Loads the user's accounts and second factors and builds the wire [`User`]. Reads only the
/// store: callers hand it their slice's `db`.
pub async fn user_view(db: &Db, user: &UserRecord) -> Result<User, AppError> {
    let accounts = db.linked_accounts(&user.id).await?;
    let mut view = wire_user(user, accounts);
    view.mfa_methods = mfa_methods(db, &user.id).await?;
    Ok(view)
}

/// The wire [`User`] from a stored user and its accounts (oldest first); `mfa_methods` empty
/// (filled by [`user_view`]).
pub fn wire_user(user: &UserRecord, accounts: Vec<LinkedAccountRecord>) -> User {
    User {
        id: user.id.clone(),
        created_at: user.created_at,
        linked_accounts: accounts.into_iter().filter_map(wire_account).collect(),
        mfa_methods: Vec::new(),
        has_accepted_terms: user.has_accepted_terms,
        is_guest: user.is_guest,
        // Written only as a checked object (`/v1/users/{id}/custom_metadata`).
        custom_metadata: user
            .custom_metadata
            .as_deref()
            .and_then(|json| serde_json::from_str(json).ok()),
    }
}

/// One stored account in wire form; `None` for kinds this server does not render.
pub fn wire_account(account: LinkedAccountRecord) -> Option<LinkedAccount> {
    let verification = Verification {
        verified_at: account.first_verified_at,
        first_verified_at: Some(account.first_verified_at),
        latest_verified_at: Some(account.latest_verified_at),
    };
    // What the login method knew beyond the subject (names, profile), stored as JSON: read as
    // the account kind's type, whose fields are absent when the stored JSON lacks them.
    let details = account.details.as_deref();
    match account.account_type.as_str() {
        "email" => Some(LinkedAccount::Email(EmailAccount {
            address: account.subject,
            verification,
        })),
        "phone" => Some(LinkedAccount::Phone(PhoneAccount {
            phone_number: account.subject,
            verification,
        })),
        "custom_auth" => Some(LinkedAccount::CustomAuth(CustomAuthAccount {
            custom_user_id: account.subject,
            verification,
        })),
        oauth if oauth.ends_with("_oauth") || oauth.starts_with("custom:") => oauth_account(
            oauth,
            account.subject,
            OAuthDetails::read(details),
            verification,
        ),
        "cross_app" => {
            let details = CrossAppDetails::read(details);
            Some(LinkedAccount::CrossApp(CrossAppAccount {
                subject: account.subject,
                provider_app_id: details.provider_app_id,
                embedded_wallets: details.embedded_wallets,
                smart_wallets: details.smart_wallets,
                verification,
            }))
        }
        "farcaster" => {
            let details = FarcasterDetails::read(details);
            Some(LinkedAccount::Farcaster(FarcasterAccount {
                fid: account.subject.parse().ok()?,
                owner_address: details.owner_address,
                username: details.username,
                display_name: details.display_name,
                bio: details.bio,
                profile_picture_url: details.profile_picture_url,
                signer_public_key: details.signer_public_key,
                verification,
            }))
        }
        "telegram" => {
            let details = TelegramDetails::read(details);
            Some(LinkedAccount::Telegram(TelegramAccount {
                telegram_user_id: account.subject,
                first_name: details.first_name,
                last_name: details.last_name,
                username: details.username,
                photo_url: details.photo_url,
                verification,
            }))
        }
        // The stored credential (public key, counter) stays on the server.
        "passkey" => {
            let details = PasskeyDetails::read(details);
            Some(LinkedAccount::Passkey(PasskeyAccount {
                credential_id: account.subject,
                enrolled_in_mfa: details.is_enrolled_in_mfa(),
                authenticator_name: details.authenticator_name,
                created_with_browser: details.created_with_browser,
                created_with_os: details.created_with_os,
                created_with_device: details.created_with_device,
                verification,
            }))
        }
        // Guests have no account to show: their credential is a secret (stored as a hash).
        // Smart wallets (`/siwe/link_smart_wallet`) are stored but not a spec §3 linked-account
        // type: not shown until the client has a form for them.
        WALLET_ACCOUNT_TYPE => {
            let Some(wallet) = account.wallet else {
                // An external wallet (SIWE, SIWS): how it was connected, from `details`.
                let details = ExternalWalletDetails::read(details);
                let unknown = || "unknown".to_string();
                return Some(LinkedAccount::Wallet(WalletAccount {
                    id: Some(account.id),
                    address: account.subject,
                    chain_type: details.chain_type?,
                    wallet_client_type: details.wallet_client_type.unwrap_or_else(unknown),
                    connector_type: details.connector_type.unwrap_or_else(unknown),
                    wallet_index: None,
                    recovery_method: None,
                    imported: false,
                    delegated: false,
                    verification,
                }));
            };
            Some(LinkedAccount::Wallet(WalletAccount {
                id: Some(account.id),
                address: account.subject,
                chain_type: ChainType::parse(&wallet.chain_type)?,
                wallet_client_type: "privy".into(),
                connector_type: "embedded".into(),
                wallet_index: Some(wallet.wallet_index),
                recovery_method: RecoveryMethod::parse(&wallet.recovery_method),
                imported: wallet.imported,
                delegated: wallet.delegated,
                verification,
            }))
        }
        _ => None,
    }
}

/// `google_oauth`, … and `custom:<name>` accounts, from what the provider told at sign-in.
fn oauth_account(
    account_type: &str,
    subject: String,
    details: OAuthDetails,
    verification: Verification,
) -> Option<LinkedAccount> {
    let OAuthDetails {
        email,
        name,
        username,
        ..
    } = details;
    if account_type.starts_with("custom:") {
        return Some(LinkedAccount::CustomOauth(CustomOAuthAccount {
            account_type: account_type.to_string(),
            subject,
            email,
            name,
            username,
            verification,
        }));
    }
    let account = OAuthAccount {
        subject,
        email,
        name,
        username,
        verification,
    };
    Some(match account_type {
        "google_oauth" => LinkedAccount::GoogleOauth(account),
        "apple_oauth" => LinkedAccount::AppleOauth(account),
        "twitter_oauth" => LinkedAccount::TwitterOauth(account),
        "discord_oauth" => LinkedAccount::DiscordOauth(account),
        "github_oauth" => LinkedAccount::GithubOauth(account),
        "linkedin_oauth" => LinkedAccount::LinkedinOauth(account),
        "spotify_oauth" => LinkedAccount::SpotifyOauth(account),
        "instagram_oauth" => LinkedAccount::InstagramOauth(account),
        "tiktok_oauth" => LinkedAccount::TiktokOauth(account),
        "line_oauth" => LinkedAccount::LineOauth(account),
        "twitch_oauth" => LinkedAccount::TwitchOauth(account),
        _ => return None,
    })
}

/// The user's enrolled methods in wire form (`User.mfa_methods`).
pub async fn mfa_methods(db: &Db, user_id: &str) -> Result<Vec<MfaMethod>, AppError> {
    let methods = db.mfa_methods(user_id).await?;
    Ok(methods.into_iter().filter_map(wire_mfa_method).collect())
}

/// One enrolled method in wire form; `None` for a kind this server does not know.
fn wire_mfa_method(m: MfaMethodRecord) -> Option<MfaMethod> {
    let verified_at = m.verified_at;
    Some(match MfaMethodType::parse(&m.method)? {
        MfaMethodType::Totp => MfaMethod::Totp { verified_at },
        MfaMethodType::Sms => MfaMethod::Sms { verified_at },
        MfaMethodType::Passkey => MfaMethod::Passkey { verified_at },
    })
}

/// The wire form of one page of `app_id`'s users (ids ascending, all after `after`), with their
/// accounts and second factors read in one query each for the whole page.
pub async fn user_page_view(
    db: &Db,
    app_id: &str,
    after: Option<&str>,
    users: &[UserRecord],
) -> Result<Vec<User>, AppError> {
    let Some(last) = users.last() else {
        return Ok(Vec::new());
    };
    let mut accounts: HashMap<String, Vec<LinkedAccountRecord>> = HashMap::new();
    for (user_id, account) in db
        .linked_accounts_of_id_range(app_id, after, &last.id)
        .await?
    {
        accounts.entry(user_id).or_default().push(account);
    }
    let mut factors: HashMap<String, Vec<MfaMethod>> = HashMap::new();
    for (user_id, method) in db.mfa_methods_of_id_range(app_id, after, &last.id).await? {
        if let Some(method) = wire_mfa_method(method) {
            factors.entry(user_id).or_default().push(method);
        }
    }
    Ok(users
        .iter()
        .map(|user| {
            let mut view = wire_user(user, accounts.remove(&user.id).unwrap_or_default());
            view.mfa_methods = factors.remove(&user.id).unwrap_or_default();
            view
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::wire_account;
    use crate::db::users::LinkedAccountRecord;

    /// A stored account verified at 100 and 200.
    fn stored(account_type: &str, subject: &str, details: Option<&str>) -> LinkedAccountRecord {
        LinkedAccountRecord {
            id: "acc-1".into(),
            account_type: account_type.into(),
            subject: subject.into(),
            first_verified_at: 100,
            latest_verified_at: 200,
            wallet: None,
            details: details.map(str::to_string),
        }
    }

    /// The wire JSON of a stored account (`null` when not shown).
    fn wire(account_type: &str, subject: &str, details: Option<&str>) -> Value {
        serde_json::to_value(wire_account(stored(account_type, subject, details)))
            .unwrap_or_else(|e| json!(e.to_string()))
    }

    /// `expected` with the verification times of [`stored`].
    fn verified(mut expected: Value) -> Value {
        expected["verified_at"] = json!(100);
        expected["first_verified_at"] = json!(100);
        expected["latest_verified_at"] = json!(200);
        expected
    }

    // Each `details` literal is what the previous release's `json!` wrote.

    #[test]
    fn oauth_rows_render_as_before() {
        let details =
            json!({"provider": "github", "email": null, "name": "Ada", "username": "ada"});
        let expected = json!({"type": "github_oauth", "subject": "42", "email": null,
            "name": "Ada", "username": "ada"});
        assert_eq!(
            wire("github_oauth", "42", Some(&details.to_string())),
            verified(expected)
        );
        let details = json!({"provider": "custom:acme", "email": "a@acme.test", "name": null,
            "username": null});
        let expected = json!({"type": "custom:acme", "subject": "u1", "email": "a@acme.test",
            "name": null, "username": null});
        assert_eq!(
            wire("custom:acme", "u1", Some(&details.to_string())),
            verified(expected)
        );
    }

    #[test]
    fn cross_app_rows_render_as_before() {
        let details = json!({"provider": "privy:app-a", "email": null, "name": null,
            "username": null, "provider_app_id": "app-a",
            "embedded_wallets": [{"address": "0xaa"}], "smart_wallets": [{"address": "0xbb"}]});
        let expected = json!({"type": "cross_app", "subject": "user-a",
            "provider_app_id": "app-a", "embedded_wallets": [{"address": "0xaa"}],
            "smart_wallets": [{"address": "0xbb"}]});
        assert_eq!(
            wire("cross_app", "user-a", Some(&details.to_string())),
            verified(expected)
        );
    }

    #[test]
    fn farcaster_rows_render_as_before() {
        let details = json!({"owner_address": "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
            "username": "alice", "display_name": null, "bio": "hi", "profile_picture_url": null,
            "signer_public_key": "0xkey"});
        let expected = json!({"type": "farcaster", "fid": 7,
            "owner_address": "0x8ba1f109551bD432803012645Ac136ddd64DBA72", "username": "alice",
            "display_name": null, "bio": "hi", "profile_picture_url": null,
            "signer_public_key": "0xkey"});
        assert_eq!(
            wire("farcaster", "7", Some(&details.to_string())),
            verified(expected)
        );
        assert_eq!(wire("farcaster", "not-a-fid", Some("{}")), Value::Null);
    }

    #[test]
    fn telegram_rows_render_as_before() {
        let details = json!({"first_name": "Ada", "last_name": null, "username": "ada",
            "photo_url": "https://t.me/i/a.jpg"});
        let expected = json!({"type": "telegram", "telegram_user_id": "42", "first_name": "Ada",
            "last_name": null, "username": "ada", "photo_url": "https://t.me/i/a.jpg"});
        assert_eq!(
            wire("telegram", "42", Some(&details.to_string())),
            verified(expected)
        );
    }

    #[test]
    fn passkey_rows_render_as_before() {
        let details = json!({"credential": {"cred": {"counter": 3}}, "aaguid": null,
            "authenticator_name": null, "created_with_browser": "Firefox",
            "created_with_os": "Linux", "created_with_device": "desktop",
            "enrolled_in_mfa": true});
        let expected = json!({"type": "passkey", "credential_id": "AQID",
            "authenticator_name": null, "created_with_browser": "Firefox",
            "created_with_os": "Linux", "created_with_device": "desktop",
            "enrolled_in_mfa": true});
        assert_eq!(
            wire("passkey", "AQID", Some(&details.to_string())),
            verified(expected)
        );
    }

    #[test]
    fn external_wallet_rows_render_as_before() {
        let details = json!({"chain_type": "ethereum", "wallet_client_type": "metamask",
            "connector_type": "injected"});
        let address = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
        let expected = json!({"type": "wallet", "id": "acc-1", "address": address,
            "chain_type": "ethereum", "wallet_client_type": "metamask",
            "connector_type": "injected", "wallet_index": null, "recovery_method": null,
            "imported": false, "delegated": false});
        assert_eq!(
            wire("wallet", address, Some(&details.to_string())),
            verified(expected)
        );
        // Labels not stored read as `unknown`; an unknown chain is not shown.
        let shown = wire("wallet", address, Some(r#"{"chain_type": "solana"}"#));
        assert_eq!(shown["wallet_client_type"], "unknown");
        assert_eq!(shown["connector_type"], "unknown");
        assert_eq!(
            wire("wallet", address, Some(r#"{"chain_type": "bitcoin"}"#)),
            Value::Null
        );
        // Smart wallets are stored but not shown.
        let smart = json!({"smart_wallet_type": "kernel", "smart_wallet_version": null});
        assert_eq!(
            wire("smart_wallet", address, Some(&smart.to_string())),
            Value::Null
        );
    }

    #[test]
    fn unreadable_details_render_with_fields_absent() {
        for details in [None, Some("not json"), Some("[1, 2]"), Some(r#""text""#)] {
            assert_eq!(
                wire("telegram", "42", details),
                verified(json!({"type": "telegram", "telegram_user_id": "42",
                    "first_name": null, "last_name": null, "username": null, "photo_url": null})),
                "{details:?}"
            );
            assert_eq!(
                wire("passkey", "AQID", details)["enrolled_in_mfa"],
                false,
                "{details:?}"
            );
            assert_eq!(wire("cross_app", "u", details)["provider_app_id"], "");
            assert_eq!(wire("farcaster", "7", details)["owner_address"], "");
            assert_eq!(wire("wallet", "0xaa", details), Value::Null);
        }
        // A field of another type is absent; the others still render.
        let details = r#"{"email": 5, "name": ["x"], "username": "ada"}"#;
        assert_eq!(
            wire("google_oauth", "g", Some(details)),
            verified(
                json!({"type": "google_oauth", "subject": "g", "email": null,
                "name": null, "username": "ada"})
            )
        );
        let details =
            r#"{"embedded_wallets": [{"addr": "0xaa"}], "smart_wallets": [{"address": "0xbb"}]}"#;
        let cross_app = wire("cross_app", "u", Some(details));
        assert_eq!(cross_app["embedded_wallets"], json!([]));
        assert_eq!(cross_app["smart_wallets"], json!([{"address": "0xbb"}]));
        let details = r#"{"enrolled_in_mfa": "true", "authenticator_name": "YubiKey 5"}"#;
        let passkey = wire("passkey", "AQID", Some(details));
        assert_eq!(passkey["enrolled_in_mfa"], false);
        assert_eq!(passkey["authenticator_name"], "YubiKey 5");
    }
}
