//! Business constants and limits (spec §9), header and storage names (wire notes).
//!
//! Each constant is declared once through [`constants!`], which also records it for the
//! generated TypeScript so both sides read the same number.

/// Declares `pub const`s and a table of `(name, TypeScript literal)` for code generation.
macro_rules! constants {
    ($( $(#[doc = $doc:expr])* $name:ident : $ty:ty = $value:expr; )*) => {
        $( $(#[doc = $doc])* pub const $name: $ty = $value; )*

        /// Every constant as `(name, doc, TypeScript literal)`, in declaration order.
        pub fn typescript_table() -> Vec<(&'static str, &'static str, String)> {
            vec![$( (stringify!($name), concat!($($doc, "\n",)*), $crate::constants::ToTs::to_ts(&$name)) ),*]
        }
    };
}

/// Renders a constant's value as a TypeScript literal.
pub trait ToTs {
    /// The literal, e.g. `20000`, `"privy:"` or `[408, 409] as const`.
    fn to_ts(&self) -> String;
}
impl ToTs for u64 {
    fn to_ts(&self) -> String {
        self.to_string()
    }
}
impl ToTs for u32 {
    fn to_ts(&self) -> String {
        self.to_string()
    }
}
impl ToTs for usize {
    fn to_ts(&self) -> String {
        self.to_string()
    }
}
impl ToTs for &str {
    fn to_ts(&self) -> String {
        format!("{self:?}")
    }
}
impl ToTs for &[&str] {
    fn to_ts(&self) -> String {
        let items: Vec<String> = self.iter().map(|item| format!("{item:?}")).collect();
        format!("[{}] as const", items.join(", "))
    }
}
impl ToTs for &[u16] {
    fn to_ts(&self) -> String {
        let items: Vec<String> = self.iter().map(u16::to_string).collect();
        format!("[{}] as const", items.join(", "))
    }
}

constants! {
    // --- HTTP client (spec §9, §7) ---
    /// A request is abandoned after this long.
    REQUEST_TIMEOUT_MS: u64 = 20_000;
    /// How many times a failed request is retried.
    REQUEST_MAX_RETRIES: u32 = 3;
    /// HTTP statuses that are retried (never 429: rate limits are answered with Retry-After).
    RETRYABLE_STATUSES: &[u16] = &[408, 409, 425, 500, 502, 503, 504];
    /// Delay before retry n (0-based) is `RETRY_BASE_DELAY_MS * RETRY_BACKOFF_FACTOR^n`.
    RETRY_BASE_DELAY_MS: u64 = 500;
    /// Growth factor of the retry delay.
    RETRY_BACKOFF_FACTOR: u64 = 3;

    // --- Sessions (spec §4, §9) ---
    /// An access token counts as inactive this many seconds before its `exp`.
    ACCESS_TOKEN_EXPIRY_SKEW_S: u64 = 30;
    /// Lifetime of an access token issued by the server.
    ACCESS_TOKEN_TTL_S: u64 = 3_600;
    /// Lifetime of an identity token issued by the server.
    IDENTITY_TOKEN_TTL_S: u64 = 36_000;
    /// Lifetime of a refresh token (and of the refresh-marker cookie), in days.
    REFRESH_TOKEN_TTL_DAYS: u64 = 30;
    /// A rotated refresh token presented again inside this window gets the same child token
    /// instead of revoking the session, so two tabs may refresh at once.
    REFRESH_REUSE_GRACE_S: u64 = 10;
    /// Name of the refresh-marker cookie (its value carries no secret).
    REFRESH_MARKER_COOKIE: &str = "privy-session";

    // --- One-time codes (spec §5, §9) ---
    /// Digits in an email or SMS code.
    PASSCODE_LENGTH: usize = 6;
    /// Lifetime of a one-time code.
    OTP_TTL_S: u64 = 600;
    /// Guesses after which a code dies.
    OTP_MAX_ATTEMPTS: u32 = 5;
    /// Seconds the server makes one address wait between two codes (the Resend wait).
    OTP_RESEND_COOLDOWN_S: u64 = 20;
    /// How every refusal of a wrong code begins ('Invalid code. 3 attempts left.').
    OTP_REFUSAL_WRONG_PREFIX: &str = "Invalid code.";
    /// The refusal once every guess of the pending code is used.
    OTP_REFUSAL_USED_UP: &str = "Too many wrong attempts for this code. Request a new code.";
    /// The refusal of an expired, used or unknown code.
    OTP_REFUSAL_EXPIRED: &str = "This code has expired or was already used. Request a new code.";
    /// How the refusal begins once an address's wrong-code budget is spent (429).
    OTP_REFUSAL_LOCKED_PREFIX: &str = "Too many wrong codes for this address.";

    // --- Wallet frame (spec §9) ---
    /// A frame operation fails after this long.
    IFRAME_OPERATION_TIMEOUT_MS: u64 = 15_000;
    /// Wallet creation and recovery fail after this long.
    WALLET_CREATION_TIMEOUT_MS: u64 = 60_000;
    /// The host polls the frame's readiness this often.
    IFRAME_READY_POLL_MS: u64 = 150;
    /// User-owned recovery fails after this long.
    USER_OWNED_RECOVERY_TIMEOUT_MS: u64 = 120_000;
    /// Every frame message event starts with this prefix.
    FRAME_MESSAGE_PREFIX: &str = "privy:";
    /// `<meta name>` through which the server tells the frame page which host origins it serves.
    WALLET_FRAME_ORIGINS_META: &str = "symbolon-allowed-origins";

    // --- MFA (spec §9) ---
    /// How long one MFA code wait lasts.
    MFA_CODE_WAIT_MS: u64 = 300_000;
    /// How long all MFA attempts of one operation may take.
    MFA_OVERALL_TIMEOUT_MS: u64 = 1_260_000;
    /// MFA attempts for one wallet operation.
    MFA_MAX_ATTEMPTS: u32 = 4;
    /// Seconds an MFA token lives; an export, a recovery or a factor change uses it up.
    MFA_TOKEN_TTL_S: u64 = 300;
    /// Seconds after its verification during which an MFA token also releases the key for signatures
    /// (with transaction protection on), so a second signature needs no new 30-second code.
    MFA_SIGNING_WINDOW_S: u64 = 120;
    /// Signatures one MFA verification covers within [`MFA_SIGNING_WINDOW_S`].
    MFA_SIGNING_USES: u32 = 10;
    /// Failed MFA verifications (across methods and screens) that lock the user out for a while.
    MFA_MAX_FAILED_VERIFICATIONS: u32 = 5;
    /// Seconds of the n-th lock-out in a row (0-based; the last one repeats): the first matches the
    /// spec §8 line 'try again in 10 seconds'.
    MFA_LOCKOUTS_S: &[u16] = &[10, 30, 60, 120, 300];
    /// Seconds without a failed MFA verification after which a user's failures and lock-outs are
    /// forgotten (the next lock-out is the first again). Long enough that waiting for it gives a
    /// guesser fewer guesses than staying at the longest lock-out (25 per 220 s + this, against
    /// 5 per 300 s).
    MFA_FAILURE_MEMORY_S: u64 = 3600;
    /// The server's message (`token_already_used`) for an authenticator code whose 30-second step
    /// was used already: the user re-entered the code still shown; no failure is counted.
    MFA_CODE_ALREADY_USED: &str = "This code was already used. Wait for the next one.";
    /// Seconds a TOTP secret waits for its first code before it is dropped.
    TOTP_PENDING_TTL_S: u64 = 600;
    /// Seconds a passkey challenge lives.
    PASSKEY_CHALLENGE_TTL_S: u64 = 300;
    /// The `timeout` of passkey options, in milliseconds.
    PASSKEY_TIMEOUT_MS: u64 = 60_000;

    // --- Accounts (spec §5, §9) ---
    /// The login methods an app enables by listing their names in `login_methods_and_order` (OAuth
    /// providers are listed by their own names; guest and custom auth have settings of their own).
    LISTED_LOGIN_METHODS: &[&str] = &crate::login_methods::LISTED_NAMES;
    /// Passkeys one user may link.
    MAX_PASSKEYS_PER_USER: u32 = 5;
    /// Accounts of any other type one user may link.
    MAX_ACCOUNTS_PER_TYPE: u32 = 1;
    /// Length of an app id.
    APP_ID_LENGTH: usize = 25;
    /// Random bytes in a guest credential (base64url-encoded).
    GUEST_CREDENTIAL_BYTES: usize = 32;
    /// Random bytes in an OAuth state code and in a PKCE code verifier.
    OAUTH_RANDOM_BYTES: usize = 36;

    // --- Farcaster and cross-app (spec §9) ---
    /// Farcaster signer status poll interval.
    FARCASTER_POLL_MS: u64 = 2_000;
    /// Farcaster signer request timeout.
    FARCASTER_TIMEOUT_MS: u64 = 300_000;
    /// Cross-app request timeout.
    CROSS_APP_TIMEOUT_MS: u64 = 120_000;
    /// How often a cross-app popup is checked for being closed.
    POPUP_CLOSED_CHECK_MS: u64 = 300;

    // --- Modal (spec §2, §4, §9) ---
    /// Width of the dialog above the mobile breakpoint.
    DIALOG_WIDTH_PX: u32 = 360;
    /// Below this screen width the modal is a bottom sheet.
    MOBILE_BREAKPOINT_PX: u32 = 440;
    /// Height of the full modal.
    MODAL_HEIGHT_FULL_PX: u32 = 620;
    /// Height of the compact modal.
    MODAL_HEIGHT_COMPACT_PX: u32 = 480;
    /// Delay between a call that opens the modal and the modal opening.
    MODAL_OPEN_DELAY_MS: u64 = 15;
    /// Flow state is cleared this long after the modal closes.
    FLOW_CLEAR_DELAY_MS: u64 = 200;
    /// Wait for wallet connectors to initialise.
    CONNECTOR_INIT_WAIT_MS: u64 = 1_500;
    /// Wait for the wallet proxy during delegation.
    DELEGATION_WALLET_PROXY_WAIT_MS: u64 = 15_000;
    /// The HPKE suite the wallet frame seals a delegation consent with (RFC 9180 ids: KEM 0x0010,
    /// KDF 0x0001, AEAD 0x0003): the suite the vendor uses for key export, import and signers.
    DELEGATION_HPKE_SUITE: &str = "DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, ChaCha20Poly1305";
    /// HPKE `info` of a sealed consent: its purpose and format version.
    DELEGATION_HPKE_INFO: &str = "symbolon delegated actions v1";
    /// The consent's format version.
    DELEGATION_CONSENT_VERSION: u32 = 1;
    /// How long the consent and revoke screens show their success before closing.
    DELEGATION_SUCCESS_CLOSE_MS: u64 = 1_500;
    /// Timeout of the permission revoke on disconnect.
    DISCONNECT_REVOKE_TIMEOUT_MS: u64 = 100;
    /// Default wait for injected wallets to initialise.
    INJECTED_WALLET_INIT_WAIT_MS: u64 = 1_000;

    // --- Versions and wire names (spec §9, wire notes) ---
    /// Version of the wallet-connection SDK the spec's client reports.
    WALLET_CONNECT_SDK_VERSION: &str = "4.3.2";
    /// Value of the `privy-client` header.
    SDK_VERSION_TAG: &str = "react-auth:3.3.0";
    /// Header carrying the app id.
    HEADER_APP_ID: &str = "privy-app-id";
    /// Header carrying the host's client id.
    HEADER_CLIENT_ID: &str = "privy-client-id";
    /// Header carrying the SDK name and version.
    HEADER_CLIENT: &str = "privy-client";
    /// Header carrying the analytics id.
    HEADER_ANALYTICS_ID: &str = "privy-ca-id";
    /// Header carrying a native app identifier.
    HEADER_NATIVE_APP_ID: &str = "x-native-app-identifier";
    /// Header carrying the retry number of a request: `0`, then `1`… on retries.
    HEADER_RETRY_ATTEMPT: &str = "privy-retry-attempt";
    /// Header carrying a client-chosen key that makes a write safe to retry.
    HEADER_IDEMPOTENCY_KEY: &str = "privy-idempotency-key";
    /// Header carrying the Farcaster relay channel token of `GET /farcaster/status`.
    HEADER_FARCASTER_CHANNEL_TOKEN: &str = "farcaster-channel-token";
    /// Every request header the spec's clients send cross-origin (lowercase): a CORS preflight
    /// must allow all of them, or the browser blocks the call.
    CLIENT_REQUEST_HEADERS: &[&str] = &[
        HEADER_APP_ID,
        HEADER_CLIENT_ID,
        HEADER_CLIENT,
        HEADER_ANALYTICS_ID,
        HEADER_NATIVE_APP_ID,
        HEADER_RETRY_ATTEMPT,
        HEADER_IDEMPOTENCY_KEY,
        HEADER_FARCASTER_CHANNEL_TOKEN,
        "authorization",
        "content-type",
    ];
    /// Path prefix of every API call.
    API_PREFIX: &str = "/api/v1";

    // --- External wallets: Sign-In With Ethereum / Solana (spec §9) ---
    /// The statement every SIWE and SIWS message must carry (spec §9 "sign-in message
    /// statement"); the server refuses a message with any other.
    SIWE_STATEMENT: &str = "By signing, you are proving you own this wallet and logging in. This does not initiate a transaction or cost any fees.";
    /// Seconds a `/siwe/init` or `/siws/init` nonce may be used.
    WALLET_NONCE_TTL_S: u64 = 600;
    /// The longest SIWE or SIWS message accepted, in bytes.
    WALLET_MESSAGE_MAX_LEN: usize = 4096;

    // --- Web app (spec §9) ---
    /// The web app's only chain: Somnia Testnet.
    WEB_CHAIN_ID: u64 = 50_312;
    /// Default agents API URL of the web app.
    WEB_DEFAULT_AGENTS_API_URL: &str = "http://localhost:8000";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_delays_follow_the_spec() {
        let delays: Vec<u64> = (0..REQUEST_MAX_RETRIES)
            .map(|n| RETRY_BASE_DELAY_MS * RETRY_BACKOFF_FACTOR.pow(n))
            .collect();
        assert_eq!(delays, vec![500, 1_500, 4_500]);
        assert!(!RETRYABLE_STATUSES.contains(&429));
    }

    #[test]
    fn table_renders_typescript_literals() {
        let table = typescript_table();
        let find = |n: &str| {
            table
                .iter()
                .find(|(name, _, _)| *name == n)
                .map(|(_, _, v)| v.clone())
        };
        assert_eq!(find("REQUEST_TIMEOUT_MS").as_deref(), Some("20000"));
        assert_eq!(find("FRAME_MESSAGE_PREFIX").as_deref(), Some("\"privy:\""));
        assert_eq!(
            find("RETRYABLE_STATUSES").as_deref(),
            Some("[408, 409, 425, 500, 502, 503, 504] as const")
        );
    }
}
