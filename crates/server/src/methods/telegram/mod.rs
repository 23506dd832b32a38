//! Login with Telegram (spec §4, §7): `POST /telegram/{authenticate, link, unlink, transfer}`.
//!
//! Telegram signs what it hands the page — the Login Widget's result on the web, a Mini App's
//! `initData` inside Telegram — with a key derived from the app's bot token ([`check`]); no call
//! to Telegram is needed. The proven identity is a `telegram` account whose subject is the
//! Telegram user id.

pub mod check;
pub mod deps;
pub mod routes;
pub mod widget_script;

use axum::Json;
use axum::extract::State;
use axum::response::Response;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::telegram::{
    TelegramAuthResult, TelegramAuthenticateRequest, TelegramLinkRequest, TelegramTransferRequest,
    TelegramUnlinkRequest, TelegramWebAppData,
};
use symbolon_protocol::user::User;

use self::check::{TelegramCheckError, check_login_widget, check_web_app_data};
use super::{current_user, link_to, sign_in_with};
use crate::accounts::{self, VerifiedIdentity};
use crate::app_secrets::TELEGRAM_BOT_TOKEN;
use crate::app_settings::login_methods::LoginMethod;
use crate::db::account_details::TelegramDetails;
use crate::db::apps::AppRecord;
use crate::error::AppError;
use crate::methods::telegram::deps::TelegramDeps;
use crate::web::auth::{LoginCaller, SignedIn};
use crate::web::client_ip::ClientIp;
use crate::web::json_body::JsonBody;

/// The linked-account type; its subject is the Telegram user id in decimal.
pub const TELEGRAM: &str = "telegram";

/// Default `max_auth_age_s`.
pub const DEFAULT_MAX_AUTH_AGE_S: i64 = 86_400;

/// Signs in (or up) with either proof.
pub async fn authenticate(
    State(deps): State<TelegramDeps>,
    caller: LoginCaller,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<TelegramAuthenticateRequest>,
) -> Result<Response, AppError> {
    let proof = Proof {
        widget: body.telegram_auth_result.as_ref(),
        web_app: body.telegram_web_app_data.as_ref(),
    };
    let (identity, auth_date) = verify(&deps, &caller.ctx.app, &client_ip, proof).await?;
    // A captured proof replays until it is too old: only a recent one signs in freshly.
    let proof = accounts::Proof::MadeAt(auth_date);
    sign_in_with(&deps.login, &caller, &identity, body.mode, proof).await
}

/// Links the proven Telegram account to the signed-in user.
pub async fn link(
    State(deps): State<TelegramDeps>,
    signed_in: SignedIn,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<TelegramLinkRequest>,
) -> Result<Json<User>, AppError> {
    let proof = Proof {
        widget: body.telegram_auth_result.as_ref(),
        web_app: body.telegram_web_app_data.as_ref(),
    };
    let (identity, _) = verify(&deps, &signed_in.ctx.app, &client_ip, proof).await?;
    link_to(&deps.login, &signed_in, &identity).await
}

/// Unlinks the Telegram account; never the user's last way in.
pub async fn unlink(
    State(deps): State<TelegramDeps>,
    signed_in: SignedIn,
    JsonBody(body): JsonBody<TelegramUnlinkRequest>,
) -> Result<Json<User>, AppError> {
    let subject = body.telegram_user_id.trim();
    accounts::unlink(&deps.login.accounts, &signed_in.user, TELEGRAM, subject).await?;
    current_user(&deps.login, &signed_in).await
}

/// Moves the Telegram account from its owner to the caller: the nonce of
/// `account_transfer_required` and the proof again (spec §7).
pub async fn transfer(
    State(deps): State<TelegramDeps>,
    signed_in: SignedIn,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<TelegramTransferRequest>,
) -> Result<Json<User>, AppError> {
    let app = &signed_in.ctx.app;
    let proof = Proof {
        widget: body.telegram_auth_result.as_ref(),
        web_app: body.telegram_web_app_data.as_ref(),
    };
    let (identity, _) = verify(&deps, app, &client_ip, proof).await?;
    let user = &signed_in.user;
    accounts::transfer(
        &deps.login.accounts,
        app,
        user,
        &body.nonce,
        TELEGRAM,
        &identity.subject,
    )
    .await?;
    current_user(&deps.login, &signed_in).await
}

/// What a client sends: the widget's result or a Mini App's `initData` (exactly one).
#[derive(Debug, Clone, Copy)]
struct Proof<'a> {
    widget: Option<&'a TelegramAuthResult>,
    web_app: Option<&'a TelegramWebAppData>,
}

/// Checks the proof with the app's bot token (limited per client IP like every credential
/// check) and returns the `telegram` identity with the proof's `auth_date`.
async fn verify(
    deps: &TelegramDeps,
    app: &AppRecord,
    client_ip: &ClientIp,
    proof: Proof<'_>,
) -> Result<(VerifiedIdentity, i64), AppError> {
    let Some(settings) = &app.settings.telegram else {
        return Err(AppError::new(
            ServerErrorCode::FeatureNotEnabled,
            "Telegram is not configured for this app",
        ));
    };
    let now = deps.clock.now();
    client_ip.spend(&deps.ip_limits, now).await?;
    let max_age = settings.max_auth_age_s.unwrap_or(DEFAULT_MAX_AUTH_AGE_S);
    let token = deps
        .app_secrets
        .open(&app.id, TELEGRAM_BOT_TOKEN, &settings.bot_token)?;
    let token = token.as_str();
    let checked = match (proof.widget, proof.web_app) {
        (Some(widget), None) => check_login_widget(widget, token, now, max_age),
        (None, Some(data)) => check_web_app_data(data, token, now, max_age),
        _ => {
            return Err(AppError::invalid_data(
                "Send either telegram_auth_result or telegram_web_app_data",
            ));
        }
    };
    let user = checked.map_err(|error| {
        tracing::info!(app = %app.id, %error, "Telegram proof refused");
        match error {
            TelegramCheckError::Malformed(_) => AppError::invalid_data(error.to_string()),
            _ => AppError::new(ServerErrorCode::InvalidCredentials, error.to_string()),
        }
    })?;
    let details = TelegramDetails {
        first_name: user.first_name,
        last_name: user.last_name,
        username: user.username,
        photo_url: user.photo_url,
    };
    let identity =
        VerifiedIdentity::with_details(LoginMethod::Telegram, TELEGRAM, user.id, &details)?;
    Ok((identity, user.auth_date))
}

#[cfg(test)]
mod tests {

    use crate::app_settings::AppSettings;
    use crate::app_settings::telegram::TelegramSettings;

    fn with_bot(token: &str) -> AppSettings {
        let mut settings = AppSettings {
            telegram: Some(TelegramSettings {
                bot_token: token.into(),
                bot_name: "@my_bot".into(),
                ..TelegramSettings::default()
            }),
            ..AppSettings::default()
        };
        settings.login_methods.primary.push("telegram".into());
        settings
    }

    #[test]
    fn settings_need_a_botfather_token_and_show_only_its_id() {
        let checked = with_bot("123456:secret-part").checked();
        let telegram = checked.ok().and_then(|s| s.telegram).unwrap_or_default();
        assert_eq!(telegram.bot_name, "my_bot");
        let public = telegram.public_config(telegram.bot_token.plain().unwrap_or_default());
        assert_eq!(public.bot_id, "123456");
        assert!(!format!("{public:?}").contains("secret-part"));
        for bad in ["", "no-colon", ":secret", "12a:secret", "123:"] {
            assert!(with_bot(bad).checked().is_err(), "{bad:?} accepted");
        }
        let mut listed_without_bot = AppSettings::default();
        listed_without_bot
            .login_methods
            .overflow
            .push("telegram".into());
        assert!(listed_without_bot.checked().is_err());
    }
}
