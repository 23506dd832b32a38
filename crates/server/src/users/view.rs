//! Stored users in their wire form.

use symbolon_protocol::user::{
    ChainType, CrossAppAccount, CrossAppWallet, CustomAuthAccount, CustomOAuthAccount,
    EmailAccount, FarcasterAccount, LinkedAccount, MfaMethod, OAuthAccount, PasskeyAccount,
    PhoneAccount, RecoveryMethod, TelegramAccount, User, Verification, WalletAccount,
};

use crate::db::users::{LinkedAccountRecord, UserRecord};
use crate::db::wallets::WALLET_ACCOUNT_TYPE;
use crate::error::AppError;
use crate::state::AppState;
use symbolon_protocol::mfa::MfaMethodType;

/// Loads the user's accounts and second factors and builds the wire [`User`].
pub async fn user_view(state: &AppState, user: &UserRecord) -> Result<User, AppError> {
    let accounts = state.db.linked_accounts(&user.id).await?;
    let mut view = wire_user(user, accounts);
    view.mfa_methods = mfa_methods(state, &user.id).await?;
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
    }
}

/// One stored account in wire form; `None` for kinds this server does not render.
pub fn wire_account(account: LinkedAccountRecord) -> Option<LinkedAccount> {
    let verification = Verification {
        verified_at: account.first_verified_at,
        first_verified_at: Some(account.first_verified_at),
        latest_verified_at: Some(account.latest_verified_at),
    };
    // What the login method knew beyond the subject (names, profile), stored as JSON.
    let details = details_json(account.details.as_deref());
    let field = |key: &str| text(&details, key);
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
        oauth if oauth.ends_with("_oauth") || oauth.starts_with("custom:") => {
            oauth_account(oauth, account.subject, &details, verification)
        }
        "cross_app" => {
            let wallets = |key: &str| {
                serde_json::from_value::<Vec<CrossAppWallet>>(details[key].clone())
                    .unwrap_or_default()
            };
            Some(LinkedAccount::CrossApp(CrossAppAccount {
                subject: account.subject,
                provider_app_id: field("provider_app_id").unwrap_or_default(),
                embedded_wallets: wallets("embedded_wallets"),
                smart_wallets: wallets("smart_wallets"),
                verification,
            }))
        }
        "farcaster" => Some(LinkedAccount::Farcaster(FarcasterAccount {
            fid: account.subject.parse().ok()?,
            owner_address: field("owner_address").unwrap_or_default(),
            username: field("username"),
            display_name: field("display_name"),
            bio: field("bio"),
            profile_picture_url: field("profile_picture_url"),
            signer_public_key: field("signer_public_key"),
            verification,
        })),
        "telegram" => Some(LinkedAccount::Telegram(TelegramAccount {
            telegram_user_id: account.subject,
            first_name: field("first_name"),
            last_name: field("last_name"),
            username: field("username"),
            photo_url: field("photo_url"),
            verification,
        })),
        // The stored credential (public key, counter) stays on the server.
        "passkey" => Some(LinkedAccount::Passkey(PasskeyAccount {
            credential_id: account.subject,
            authenticator_name: field("authenticator_name"),
            created_with_browser: field("created_with_browser"),
            created_with_os: field("created_with_os"),
            created_with_device: field("created_with_device"),
            enrolled_in_mfa: details["enrolled_in_mfa"].as_bool().unwrap_or(false),
            verification,
        })),
        // Guests have no account to show: their credential is a secret (stored as a hash).
        // Smart wallets (`/siwe/link_smart_wallet`) are stored but not a spec §3 linked-account
        // type: not shown until the client has a form for them.
        WALLET_ACCOUNT_TYPE => {
            let Some(wallet) = account.wallet else {
                // An external wallet (SIWE, SIWS): how it was connected, from `details`.
                return Some(LinkedAccount::Wallet(WalletAccount {
                    id: Some(account.id),
                    address: account.subject,
                    chain_type: ChainType::parse(&field("chain_type")?)?,
                    wallet_client_type: field("wallet_client_type")
                        .unwrap_or_else(|| "unknown".into()),
                    connector_type: field("connector_type").unwrap_or_else(|| "unknown".into()),
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
                delegated: false,
                verification,
            }))
        }
        _ => None,
    }
}

fn details_json(details: Option<&str>) -> serde_json::Value {
    details
        .and_then(|d| serde_json::from_str(d).ok())
        .unwrap_or_default()
}

fn text(details: &serde_json::Value, key: &str) -> Option<String> {
    details.get(key)?.as_str().map(str::to_string)
}

/// `google_oauth`, … and `custom:<name>` accounts, from what the provider told at sign-in.
fn oauth_account(
    account_type: &str,
    subject: String,
    details: &serde_json::Value,
    verification: Verification,
) -> Option<LinkedAccount> {
    let (email, name, username) = (
        text(details, "email"),
        text(details, "name"),
        text(details, "username"),
    );
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
pub async fn mfa_methods(state: &AppState, user_id: &str) -> Result<Vec<MfaMethod>, AppError> {
    let methods = state.db.mfa_methods(user_id).await?;
    Ok(methods
        .into_iter()
        .filter_map(|m| {
            let verified_at = m.verified_at;
            Some(match MfaMethodType::parse(&m.method)? {
                MfaMethodType::Totp => MfaMethod::Totp { verified_at },
                MfaMethodType::Sms => MfaMethod::Sms { verified_at },
                MfaMethodType::Passkey => MfaMethod::Passkey { verified_at },
            })
        })
        .collect())
}
