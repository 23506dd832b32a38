//! The wallet audit log: every release and refusal of a secret, under `symbolon::audit`.

use crate::web::frame_caller::FrameCaller;

/// Logs one wallet-secret event under `symbolon::audit` (never a share or a signature).
pub fn audit(caller: &FrameCaller, address: &str, action: &str, outcome: &str) {
    let ip = caller.client_ip.ip();
    tracing::info!(
        target: "symbolon::audit",
        app = %caller.app.id,
        user = %caller.user.id,
        session = %caller.claims.sid,
        ip = %ip,
        address = %address,
        action,
        outcome,
        "wallet audit"
    );
}
