//! `GET /js/telegram-login.js`: the Login Widget's `Telegram.Login.auth` for host pages. The
//! published react-auth client loads it from its API origin (not from telegram.org) before it
//! opens Telegram's login popup; the script is ours (`assets/telegram-login.js`).

use axum::http::header;
use axum::response::{IntoResponse, Response};

/// The script, compiled in: one file, no build step, the same bytes on every server.
const SCRIPT: &str = include_str!("../../../assets/telegram-login.js");

/// The widget script (any page may load it, as Telegram's own is).
pub async fn script() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        SCRIPT,
    )
        .into_response()
}
