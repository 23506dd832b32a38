// Generated from crates/protocol by `cargo run -p symbolon-protocol --bin gen-ts`. Do not edit.

export type ErrorResponse = { 
/**
 * A message a person can read.
 */
error: string, 
/**
 * The stable machine-readable code.
 */
code: ServerErrorCode, 
/**
 * Details some refusals carry: `account_transfer_required` has an
 * [`AccountTransferData`](crate::accounts::AccountTransferData).
 */
data?: unknown, };

export type ServerErrorCode = "oauth_account_suspended" | "missing_or_invalid_privy_app_id" | "missing_or_invalid_privy_client_id" | "missing_or_invalid_token" | "missing_mfa_enrollment" | "missing_or_invalid_mfa" | "expired_or_invalid_mfa_token" | "invalid_data" | "invalid_credentials" | "invalid_captcha" | "linked_to_another_user" | "allowlist_rejected" | "cannot_unlink_embedded_wallet" | "cannot_unlink_sole_account" | "cannot_link_more_of_type" | "linked_account_not_found" | "too_many_requests" | "resource_conflict" | "invalid_origin" | "missing_origin" | "token_already_used" | "already_logged_out" | "not_supported" | "max_accounts_reached" | "device_revoked" | "disallowed_login_method" | "disallowed_plus_email" | "disallowed_recovery_method" | "cannot_set_password" | "invalid_pkce_parameters" | "user_does_not_exist" | "resource_already_exists" | "account_transfer_required" | "user_has_not_delegated_wallet" | "feature_not_enabled" | "insufficient_funds" | "transaction_broadcast_failure" | "policy_violation" | "signup_disabled" | "not_found" | "internal_error";

export type ClientErrorCode = "storage_error" | "attempted_rpc_call_before_logged_in" | "pkce_state_code_mismatch" | "embedded_wallet_request_error" | "embedded_wallet_creation_error" | "embedded_wallet_recovery_error" | "unsupported_recovery_method" | "mfa_timeout" | "mfa_verification_max_attempts_reached" | "missing_or_invalid_mfa" | "invalid_input" | "unsupported_wallet_type" | "user_signer_sign_error" | "network_error" | "wallet_not_on_device";

export type User = { 
/**
 * Stable id, `did:privy:…`.
 */
id: string, 
/**
 * Unix seconds.
 */
created_at: number, 
/**
 * Every account the user can sign in with or has linked, wallets included.
 */
linked_accounts: Array<LinkedAccount>, 
/**
 * MFA methods the user has enrolled in.
 */
mfa_methods: Array<MfaMethod>, 
/**
 * Whether the user accepted the app's terms.
 */
has_accepted_terms: boolean, 
/**
 * Whether this is a guest user.
 */
is_guest: boolean, 
/**
 * What the host app's back end stored about the user (`/v1/users/{id}/custom_metadata`);
 * absent when it stored nothing.
 */
custom_metadata?: Record<string, string | number | boolean>, };

export type MfaMethod = { "type": "totp", 
/**
 * Unix seconds.
 */
verified_at: number, } | { "type": "sms", 
/**
 * Unix seconds.
 */
verified_at: number, } | { "type": "passkey", 
/**
 * Unix seconds.
 */
verified_at: number, };

export type LinkedAccount = { "type": "email" } & EmailAccount | { "type": "wallet" } & WalletAccount | { "type": "phone" } & PhoneAccount | { "type": "custom_auth" } & CustomAuthAccount | { "type": "google_oauth" } & OAuthAccount | { "type": "apple_oauth" } & OAuthAccount | { "type": "twitter_oauth" } & OAuthAccount | { "type": "discord_oauth" } & OAuthAccount | { "type": "github_oauth" } & OAuthAccount | { "type": "linkedin_oauth" } & OAuthAccount | { "type": "spotify_oauth" } & OAuthAccount | { "type": "instagram_oauth" } & OAuthAccount | { "type": "tiktok_oauth" } & OAuthAccount | { "type": "line_oauth" } & OAuthAccount | { "type": "twitch_oauth" } & OAuthAccount | { "type": "cross_app" } & CrossAppAccount | { "type": "farcaster" } & FarcasterAccount | { "type": "telegram" } & TelegramAccount | { "type": "passkey" } & PasskeyAccount | CustomOAuthAccount;

export type Verification = { 
/**
 * First verification (kept for compatibility with clients that read `verified_at`).
 */
verified_at: number, 
/**
 * First verification.
 */
first_verified_at: number | null, 
/**
 * Most recent verification.
 */
latest_verified_at: number | null, };

export type EmailAccount = { 
/**
 * Trimmed and lower-cased.
 */
address: string, 
/**
 * First verification (kept for compatibility with clients that read `verified_at`).
 */
verified_at: number, 
/**
 * First verification.
 */
first_verified_at: number | null, 
/**
 * Most recent verification.
 */
latest_verified_at: number | null, };

export type PhoneAccount = { 
/**
 * E.164, e.g. `+12015550123`.
 */
phoneNumber: string, 
/**
 * First verification (kept for compatibility with clients that read `verified_at`).
 */
verified_at: number, 
/**
 * First verification.
 */
first_verified_at: number | null, 
/**
 * Most recent verification.
 */
latest_verified_at: number | null, };

export type CustomAuthAccount = { 
/**
 * The host's user id (the token's subject claim).
 */
custom_user_id: string, 
/**
 * First verification (kept for compatibility with clients that read `verified_at`).
 */
verified_at: number, 
/**
 * First verification.
 */
first_verified_at: number | null, 
/**
 * Most recent verification.
 */
latest_verified_at: number | null, };

export type OAuthAccount = { 
/**
 * The provider's stable id of the user (`sub`, or its user id).
 */
subject: string, 
/**
 * Email, when the provider gives one.
 */
email: string | null, 
/**
 * Display name.
 */
name: string | null, 
/**
 * Handle (`login`, `username`, …).
 */
username: string | null, 
/**
 * First verification (kept for compatibility with clients that read `verified_at`).
 */
verified_at: number, 
/**
 * First verification.
 */
first_verified_at: number | null, 
/**
 * Most recent verification.
 */
latest_verified_at: number | null, };

export type CustomOAuthAccount = { 
/**
 * `custom:<name>`.
 */
type: `custom:${string}`, 
/**
 * The provider's id of the user.
 */
subject: string, 
/**
 * Email, when mapped.
 */
email: string | null, 
/**
 * Display name, when mapped.
 */
name: string | null, 
/**
 * Handle, when mapped.
 */
username: string | null, 
/**
 * First verification (kept for compatibility with clients that read `verified_at`).
 */
verified_at: number, 
/**
 * First verification.
 */
first_verified_at: number | null, 
/**
 * Most recent verification.
 */
latest_verified_at: number | null, };

export type CrossAppWallet = { 
/**
 * The wallet's address.
 */
address: string, };

export type CrossAppAccount = { 
/**
 * The user's id in the provider app.
 */
subject: string, 
/**
 * The provider app's id.
 */
provider_app_id: string, 
/**
 * The user's embedded wallets in the provider app.
 */
embedded_wallets: Array<CrossAppWallet>, 
/**
 * The user's smart wallets in the provider app.
 */
smart_wallets: Array<CrossAppWallet>, 
/**
 * First verification (kept for compatibility with clients that read `verified_at`).
 */
verified_at: number, 
/**
 * First verification.
 */
first_verified_at: number | null, 
/**
 * Most recent verification.
 */
latest_verified_at: number | null, };

export type FarcasterAccount = { 
/**
 * The Farcaster id.
 */
fid: number, 
/**
 * The fid's custody address (checksummed) that signed the sign-in.
 */
owner_address: string, 
/**
 * Farcaster username, as the relay reported it.
 */
username: string | null, 
/**
 * Display name.
 */
display_name: string | null, 
/**
 * Profile text.
 */
bio: string | null, 
/**
 * Profile picture.
 */
profile_picture_url: string | null, 
/**
 * Ed25519 key of the user's approved Farcaster signer; null until one exists.
 */
signer_public_key: string | null, 
/**
 * First verification (kept for compatibility with clients that read `verified_at`).
 */
verified_at: number, 
/**
 * First verification.
 */
first_verified_at: number | null, 
/**
 * Most recent verification.
 */
latest_verified_at: number | null, };

export type TelegramAccount = { 
/**
 * The Telegram user id, in decimal.
 */
telegram_user_id: string, 
/**
 * First name, as Telegram last reported it.
 */
first_name: string | null, 
/**
 * Last name.
 */
last_name: string | null, 
/**
 * Username, without the `@`.
 */
username: string | null, 
/**
 * Profile picture.
 */
photo_url: string | null, 
/**
 * First verification (kept for compatibility with clients that read `verified_at`).
 */
verified_at: number, 
/**
 * First verification.
 */
first_verified_at: number | null, 
/**
 * Most recent verification.
 */
latest_verified_at: number | null, };

export type ChainType = "ethereum" | "solana";

export type RecoveryMethod = "privy" | "privy-v2" | "user-passcode" | "google-drive" | "icloud" | "icloud-native" | "recovery-encryption-key";

export type WalletAccount = { 
/**
 * Server id of the wallet.
 */
id: string | null, 
/**
 * Checksummed (EVM) or base58 (Solana) address.
 */
address: string, 
/**
 * `ethereum` or `solana`.
 */
chain_type: ChainType, 
/**
 * `privy` for embedded wallets, else the external wallet's client name.
 */
wallet_client_type: string, 
/**
 * `embedded` for embedded wallets, else the connector used.
 */
connector_type: string, 
/**
 * Index among the user's embedded wallets of this chain type (first is 0).
 */
wallet_index: number | null, 
/**
 * Embedded wallets only.
 */
recovery_method: RecoveryMethod | null, 
/**
 * Whether the key was imported.
 */
imported: boolean, 
/**
 * Whether the user delegated actions on this wallet to the app.
 */
delegated: boolean, 
/**
 * First verification (kept for compatibility with clients that read `verified_at`).
 */
verified_at: number, 
/**
 * First verification.
 */
first_verified_at: number | null, 
/**
 * Most recent verification.
 */
latest_verified_at: number | null, };

export type AppConfigResponse = { 
/**
 * The 25-character app id.
 */
id: string, 
/**
 * Display name.
 */
name: string, 
/**
 * Logo shown in the modal.
 */
logo_url: string | null, 
/**
 * Base URL the client should call instead of the default, if any.
 */
custom_api_url: string | null, 
/**
 * Email code login enabled.
 */
email_auth: boolean, 
/**
 * SMS code login enabled.
 */
sms_auth: boolean, 
/**
 * External wallet login enabled.
 */
wallet_auth: boolean, 
/**
 * Passkey login enabled.
 */
passkey_auth: boolean, 
/**
 * Guest login enabled.
 */
guest_auth: boolean, 
/**
 * The app signs users in with its own JWTs (spec §3 `customAuth`).
 */
custom_jwt_auth: boolean, 
/**
 * Google login enabled (and configured).
 */
google_oauth: boolean, 
/**
 * Apple login enabled.
 */
apple_oauth: boolean, 
/**
 * Twitter (X) login enabled.
 */
twitter_oauth: boolean, 
/**
 * Discord login enabled.
 */
discord_oauth: boolean, 
/**
 * GitHub login enabled.
 */
github_oauth: boolean, 
/**
 * LinkedIn login enabled.
 */
linkedin_oauth: boolean, 
/**
 * Spotify login enabled.
 */
spotify_oauth: boolean, 
/**
 * Instagram login enabled.
 */
instagram_oauth: boolean, 
/**
 * TikTok login enabled.
 */
tiktok_oauth: boolean, 
/**
 * LINE login enabled.
 */
line_oauth: boolean, 
/**
 * Twitch login enabled.
 */
twitch_oauth: boolean, 
/**
 * The operator's own OAuth providers (spec §3 `customOAuthProviders`).
 */
custom_oauth_providers: Array<CustomOAuthProviderConfig>, 
/**
 * The login methods the modal lists, in order (spec §3 `loginMethodsAndOrder`).
 */
login_methods_and_order: LoginMethodsAndOrder, 
/**
 * Email addresses with '+' are refused.
 */
disable_plus_emails: boolean, 
/**
 * Users must accept the terms before using the app.
 */
require_users_accept_terms: boolean, 
/**
 * Link to the terms.
 */
terms_and_conditions_url: string | null, 
/**
 * Link to the privacy policy.
 */
privacy_policy_url: string | null, 
/**
 * Invisible captcha enabled.
 */
captcha_enabled: boolean, 
/**
 * Captcha site key (must start with `t:`); absent without one (the published schema takes a
 * string or nothing, not null).
 */
captcha_site_key?: string, 
/**
 * Embedded wallet behaviour.
 */
embedded_wallet_config: EmbeddedWalletConfig, 
/**
 * MFA methods the app offers.
 */
mfa_methods: Array<string>, 
/**
 * Every signature and transaction of a user enrolled in MFA needs a fresh verification
 * (transaction protection).
 */
mfa_protect_transactions: boolean, 
/**
 * Login with Telegram, when the app has a bot (spec §3 `telegramAuthConfiguration`).
 */
telegram_auth_config: TelegramAuthConfig | null, 
/**
 * The WalletConnect Cloud project id of the app's external-wallet connections (spec §3
 * `walletConnectCloudProjectId`); absent when the operator set none.
 */
wallet_connect_cloud_project_id?: string, 
/**
 * What the modal shows a user the allowlist refuses. Always present (every field may be
 * null): the published react-auth reads it while rendering the app's config.
 */
allowlist_config: AllowlistConfig, 
/**
 * The app's small icon (none: the logo serves).
 */
icon_url: string | null, 
/**
 * The modal's theme when the host sets none.
 */
theme: string, 
/**
 * The modal's accent colour when the host sets none.
 */
accent_color: string | null, 
/**
 * List wallets before the other methods.
 */
show_wallet_login_first: boolean, 
/**
 * The origins the app serves (its allowed origins).
 */
allowed_domains: Array<string>, 
/**
 * Native apps allowed to use the app id (none: web only).
 */
allowed_native_app_ids: Array<string>, 
/**
 * Native apps' URL schemes (none).
 */
allowed_native_app_url_schemes: Array<string>, 
/**
 * Sign In With Farcaster offered.
 */
farcaster_auth: boolean, 
/**
 * New users may sign up with a passkey.
 */
passkeys_for_signup_enabled: boolean, 
/**
 * Login with Telegram offered.
 */
telegram_auth: boolean, 
/**
 * Sign-in with Solana wallets offered.
 */
solana_wallet_auth: boolean, 
/**
 * Only listed accounts may sign in.
 */
allowlist_enabled: boolean, 
/**
 * Wallet confirmation screens are forced on (no).
 */
enforce_wallet_uis: boolean, 
/**
 * The vendor's older wallet screens (no).
 */
legacy_wallet_ui_config: boolean, 
/**
 * Fiat on-ramp (not offered).
 */
fiat_on_ramp_enabled: boolean, 
/**
 * Twitter login on mobile (not offered separately).
 */
twitter_oauth_on_mobile_enabled: boolean, 
/**
 * A verification key in PEM; empty: the token keys are published as a JWKS instead.
 */
verification_key: string, 
/**
 * At most this many external wallets per user (none: no limit of its own).
 */
max_linked_wallets_per_user: number | null, 
/**
 * Farcaster accounts link their verified wallets (no).
 */
farcaster_link_wallets_enabled: boolean, 
/**
 * WhatsApp codes (not offered).
 */
whatsapp_enabled: boolean, };

export type AllowlistConfig = { 
/**
 * The screen's title.
 */
error_title: string | null, 
/**
 * The screen's explanation.
 */
error_detail: string | null, 
/**
 * The label of the screen's button.
 */
cta_text: string | null, 
/**
 * Where the screen's button leads.
 */
cta_link: string | null, };

export type CreateOnLogin = "off" | "users-without-wallets" | "all-users";

export type ChainWalletConfig = { 
/**
 * When to create a wallet of this chain type on login.
 */
create_on_login: CreateOnLogin, };

export type EmbeddedWalletConfig = { 
/**
 * When to create a wallet on login (the published schema's top-level copy of Ethereum's).
 */
create_on_login: CreateOnLogin, 
/**
 * Ethereum wallets.
 */
ethereum: ChainWalletConfig, 
/**
 * Solana wallets.
 */
solana: ChainWalletConfig, 
/**
 * A user password is required when creating a wallet.
 */
require_user_password_on_create: boolean, 
/**
 * Recovery methods users may choose.
 */
user_owned_recovery_options: Array<string>, 
/**
 * Wallet stack: `legacy-embedded-wallets-only` or `user-controlled-server-wallets-only`.
 */
mode: string, };

export type AuthMode = "login-or-sign-up" | "no-signup";

export type PasswordlessInitRequest = { 
/**
 * The address to send the code to.
 */
email: string, 
/**
 * Captcha token, when the app uses a captcha.
 */
token?: string, };

export type PasswordlessAuthenticateRequest = { 
/**
 * The address the code was sent to.
 */
email: string, 
/**
 * The 6-digit code.
 */
code: string, 
/**
 * Whether sign-up is allowed.
 */
mode?: AuthMode, };

export type RefreshSessionRequest = { 
/**
 * The current refresh token; it is rotated by this call.
 */
refresh_token: string, };

export type LogoutRequest = { 
/**
 * The session's refresh token.
 */
refresh_token: string, };

export type SessionUpdateAction = "set" | "clear" | "ignore";

export type OAuthTokens = { 
/**
 * Provider name.
 */
provider: string, 
/**
 * Provider access token.
 */
access_token: string, 
/**
 * Seconds until it expires.
 */
access_token_expires_in_seconds: number | null, 
/**
 * Provider refresh token.
 */
refresh_token: string | null, 
/**
 * Seconds until it expires.
 */
refresh_token_expires_in_seconds: number | null, 
/**
 * Granted scopes.
 */
scopes: Array<string> | null, };

export type SessionResponse = { 
/**
 * The signed-in user.
 */
user: User, 
/**
 * Access token: an ES256 JWT (see [`AccessTokenClaims`]).
 */
token: string | null, 
/**
 * Access token issued by us when the app uses its own (custom) tokens; `null` otherwise. Always
 * present: the published session schema requires the key (nullable).
 */
privy_access_token: string | null, 
/**
 * Opaque refresh token, rotated on every refresh.
 */
refresh_token: string | null, 
/**
 * ES256 JWT carrying the user's linked accounts (see [`IdentityTokenClaims`]).
 */
identity_token: string | null, 
/**
 * What the client does with these tokens.
 */
session_update_action: SessionUpdateAction, 
/**
 * Whether this login created the user.
 */
is_new_user: boolean, 
/**
 * Provider tokens after an OAuth login.
 */
oauth_tokens?: OAuthTokens, };

export type CurrentUserResponse = { 
/**
 * The user of the access token.
 */
user: User, 
/**
 * A fresh identity token.
 */
identity_token: string | null, };

export type AnalyticsEventRequest = { 
/**
 * Event name, e.g. `sdk_initialize`.
 */
event_name: string, 
/**
 * Host's client id, if any.
 */
client_id: string | null, 
/**
 * Free-form details.
 */
payload: Record<string, unknown> | null, };

export type SuccessResponse = { 
/**
 * Always true.
 */
success: boolean, };

export type AccessTokenClaims = { 
/**
 * Session id.
 */
sid: string, 
/**
 * User id.
 */
sub: string, 
/**
 * Issuer: the server's public URL.
 */
iss: string, 
/**
 * Audience: the app id.
 */
aud: string, 
/**
 * Issued at, unix seconds.
 */
iat: number, 
/**
 * Expiry, unix seconds.
 */
exp: number, };

export type IdentityTokenClaims = { 
/**
 * User id.
 */
sub: string, 
/**
 * Issuer.
 */
iss: string, 
/**
 * Audience: the app id.
 */
aud: string, 
/**
 * Issued at.
 */
iat: number, 
/**
 * Expiry.
 */
exp: number, 
/**
 * The user's linked accounts as a JSON-encoded array, as the spec's server SDKs expect: each
 * account as the user object has it, plus the compact names those SDKs read (`lv`: latest
 * verification; `phone_number`; `oa`: a Farcaster account's owner address).
 */
linked_accounts: string, 
/**
 * When the user was created (Unix seconds, as a string: the SDKs' `cr`).
 */
cr: string, 
/**
 * `"t"` for a guest user, else `"f"`.
 */
guest: string, 
/**
 * The user's custom metadata as a JSON-encoded object (as the SDKs read it); absent when the
 * host never set any.
 */
custom_metadata?: string, };

export type FrameEvent = "privy:iframe:ready" | "privy:wallet:create" | "privy:wallets:add" | "privy:wallets:connect" | "privy:wallets:recover" | "privy:wallets:rpc" | "privy:wallet:export" | "privy:mfa:verify" | "privy:mfa:init-enrollment" | "privy:mfa:submit-enrollment" | "privy:mfa:unenroll" | "privy:mfa:clear" | "privy:auth:unlink-passkey" | "privy:delegated-actions:consent";

export type EntropyIdVerifier = "ethereum-address-verifier";

export type WalletCreateData = { accessToken: string, 
/**
 * Only `ethereum`; absent means `ethereum`.
 */
chainType?: ChainType, 
/**
 * Only `privy`; absent means `privy`.
 */
recoveryMethod?: RecoveryMethod, };

export type EntropyData = { accessToken: string, 
/**
 * The address of the wallet's index 0.
 */
entropyId: string, entropyIdVerifier: EntropyIdVerifier, };

export type WalletsAddData = { accessToken: string, chainType: ChainType, entropyId: string, entropyIdVerifier: EntropyIdVerifier, hdWalletIndex: number, };

export type FrameRpcRequest = { 
/**
 * `personal_sign`, `eth_signTypedData_v4` or `eth_signTransaction`.
 */
method: string, params: unknown[], };

export type WalletsRpcData = { accessToken: string, entropyId: string, entropyIdVerifier: EntropyIdVerifier, chainType?: ChainType, hdWalletIndex: number, 
/**
 * The app a cross-app request is for (the published client sends it; not used).
 */
requesterAppId?: string, request: FrameRpcRequest, };

export type InlineMfa = { 
/**
 * `totp`, `sms` or `passkey`.
 */
mfaMethod: string, 
/**
 * A 6-digit code, or the passkey assertion.
 */
mfaCode: unknown, relyingParty?: string, };

export type MfaClearData = { 
/**
 * The user signing out (the frame frees every user's keys either way).
 */
userId?: string, };

export type WalletExportData = { accessToken: string, };

export type WalletCreatedAnswer = { address: string, walletIndex: number, user: User, };

export type EntropyAnswer = { 
/**
 * The checksummed address of index 0.
 */
entropyId: string, };

export type RpcResponse = { method: string, data: string, };

export type RpcAnswer = { response: RpcResponse, };

export type FrameUserAnswer = { user: User, };

export type FrameErrorType = "embedded_wallet_creation_error" | "embedded_wallet_recovery_error" | "embedded_wallet_request_error" | "attempted_rpc_call_before_logged_in" | "invalid_input" | "storage_error" | "wallet_not_on_device" | "missing_or_invalid_mfa" | "mfa_verification_max_attempts_reached" | "missing_mfa_enrollment" | "unsupported_wallet_type";

export type FrameErrorBody = { type: FrameErrorType, message: string, 
/**
 * Seconds until an MFA lock-out ends.
 */
retryAfterSeconds?: number, };

export type Policy = { 
/**
 * Its id.
 */
id: string, 
/**
 * `1.0`.
 */
version: string, 
/**
 * Its name.
 */
name: string, 
/**
 * The chain of the wallets it governs.
 */
chain_type: string, 
/**
 * Unix milliseconds.
 */
created_at: number, 
/**
 * Its owner's key quorum (always null here so far).
 */
owner_id: string | null, 
/**
 * Its rules.
 */
rules: Array<PolicyRule>, };

export type Aggregation = { 
/**
 * Its id (what `aggregation.{id}` names).
 */
id: string, 
/**
 * Unix milliseconds.
 */
created_at: number, 
/**
 * Its name.
 */
name: string, 
/**
 * `eth_signTransaction` or `eth_sendTransaction` (both count signed and sent transactions).
 */
method: string, 
/**
 * What is summed.
 */
metric: AggregationMetric, 
/**
 * Over how long.
 */
window: AggregationWindow, 
/**
 * Its owner's key quorum (always null here so far).
 */
owner_id: string | null, };

export type AggregationMetric = { 
/**
 * `ethereum_transaction`.
 */
field_source: string, 
/**
 * `value` (wei).
 */
field: string, 
/**
 * `sum`.
 */
function: string, 
/**
 * A contract's JSON ABI (the vendor's calldata metrics; not served yet: must be absent).
 */
abi?: unknown, };

export type AggregationWindow = { 
/**
 * `rolling`.
 */
type: string, 
/**
 * 3600 to 259200.
 */
seconds: number, };

export type PolicyRule = { 
/**
 * Its id.
 */
id: string, 
/**
 * Its name.
 */
name: string, 
/**
 * Its method.
 */
method: string, 
/**
 * Its conditions.
 */
conditions: Array<PolicyCondition>, 
/**
 * Its action.
 */
action: PolicyAction, };

export type PolicyCondition = { 
/**
 * `ethereum_transaction`, `ethereum_typed_data_domain`, `ethereum_typed_data_message`,
 * `ethereum_7702_authorization`, `message`, `system`, `action_request_body` (and the vendor's
 * other sources, refused until served).
 */
field_source: string, 
/**
 * The field within the source (`to`, `value`, `chain_id`; a dotted path for messages and
 * bodies).
 */
field: string, 
/**
 * The comparison.
 */
operator: ConditionOperator, 
/**
 * What the field is compared with.
 */
value: ConditionValue, 
/**
 * `ethereum_typed_data_message`: the typed data's `types` and `primary_type` the condition is
 * about.
 */
typed_data?: unknown, 
/**
 * `ethereum_calldata`: the contract's JSON ABI.
 */
abi?: unknown, };

export type PolicyAction = "ALLOW" | "DENY";

export type ConditionOperator = "eq" | "gt" | "gte" | "lt" | "lte" | "in" | "in_condition_set" | "contains" | "starts_with" | "ends_with";

export type ConditionValue = string | Array<string>;

export type SessionSignerInput = { 
/**
 * A key quorum of the app (`/v1/key_quorums`).
 */
signer_id: string, 
/**
 * Policies of the app (`/v1/policies`); every one must allow a request.
 */
policy_ids: Array<string>, };

export type DelegationTermsRequest = { 
/**
 * The wallet to delegate (one of the caller's embedded wallets).
 */
address?: string, 
/**
 * The signers asked for.
 */
signers?: Array<SessionSignerInput>, };

export type ConsentedSigner = { 
/**
 * The key quorum's id.
 */
signer_id: string, 
/**
 * Its name for people.
 */
display_name: string | null, 
/**
 * Base64 DER SPKI P-256 public keys.
 */
public_keys: Array<string>, 
/**
 * How many of them must sign.
 */
threshold: number, 
/**
 * The policies, as stored when the user consented.
 */
policies: Array<Policy>, 
/**
 * The aggregations the policies' `reference` conditions name (`aggregation.{id}`), as stored
 * when the user consented: the signer sums by these copies.
 */
aggregations: Array<Aggregation>, };

export type DelegationTerms = { 
/**
 * The signer's HPKE public key: base64 of the uncompressed SEC1 P-256 point (65 bytes).
 */
signer_public_key: string, 
/**
 * [`DELEGATION_HPKE_SUITE`].
 */
hpke_suite: string, 
/**
 * A fresh id for the consent this would be.
 */
consent_id: string, 
/**
 * The wallet's id in the wallet API (`/v1/wallets/{wallet_id}`), when `address` was given:
 * sealed into the consent, so the signer signs only requests made to that wallet's URL.
 */
wallet_id: string | null, 
/**
 * Who may sign, under which policies.
 */
signers: Array<ConsentedSigner>, };

export type DelegationConsent = { 
/**
 * [`DELEGATION_CONSENT_VERSION`].
 */
version: number, 
/**
 * From the terms.
 */
consent_id: string, 
/**
 * The app.
 */
app_id: string, 
/**
 * The user (`did:privy:…`).
 */
user_id: string, 
/**
 * The wallet's address.
 */
address: string, 
/**
 * The wallet's id in the wallet API (from the terms).
 */
wallet_id: string, 
/**
 * `ethereum`.
 */
chain_type: string, 
/**
 * The wallet's HD index.
 */
wallet_index: number, 
/**
 * The wallet's secp256k1 private key, `0x` and 64 hex digits.
 */
private_key: string, 
/**
 * From the terms.
 */
signers: Array<ConsentedSigner>, 
/**
 * Unix milliseconds.
 */
consented_at: number, };

export type DelegateWalletRequest = { 
/**
 * The wallet's address.
 */
address: string, 
/**
 * `ethereum`.
 */
chain_type: string, 
/**
 * From the terms.
 */
consent_id: string, 
/**
 * HPKE encapsulated key, base64.
 */
encapsulated_key: string, 
/**
 * HPKE ciphertext of the [`DelegationConsent`] JSON, base64.
 */
ciphertext: string, 
/**
 * A fresh MFA token of the caller's session: required, like an export, when the user has a
 * second factor (the key leaves the device, sealed).
 */
mfa_token?: string, };

export type DelegateWalletResponse = { 
/**
 * The wallet's address.
 */
address: string, 
/**
 * Always true.
 */
delegated: boolean, 
/**
 * The signers' ids.
 */
signer_ids: Array<string>, };

export type RevokeDelegationResponse = { 
/**
 * Always true.
 */
success: boolean, 
/**
 * The wallets no longer delegated.
 */
revoked: Array<string>, };

export type DelegatedWalletRef = { 
/**
 * Its address.
 */
address: string, 
/**
 * `ethereum`.
 */
chainType: string, 
/**
 * Its HD index (absent on the root wallet).
 */
walletIndex?: number, 
/**
 * Whether it was imported (the root wallet only).
 */
imported?: boolean, };

export type FrameSessionSigner = { 
/**
 * A key quorum of the app.
 */
signerId: string, 
/**
 * Policies of the app.
 */
policyIds: Array<string>, };

export type DelegatedActionsConsentData = { accessToken: string, 
/**
 * The wallet whose entropy the delegated ones derive from (its address is the entropy id).
 */
rootWallet: DelegatedWalletRef, 
/**
 * The wallets to delegate.
 */
delegatedWallets: Array<DelegatedWalletRef>, 
/**
 * Our client's choice of signers; absent: the app's default delegation.
 */
signers?: Array<FrameSessionSigner>, };

export type DelegatedActionsConsentAnswer = { 
/**
 * The wallets now delegated.
 */
delegated: Array<string>, };

export type CreateEmbeddedWalletRequest = { 
/**
 * Only `ethereum` for now.
 */
chain_type: ChainType, 
/**
 * `0x` + 40 hex characters; stored checksummed.
 */
address: string, 
/**
 * 0 for the first wallet, then the next free index.
 */
wallet_index: number, 
/**
 * Only `privy` for now; absent means `privy`.
 */
recovery_method?: RecoveryMethod, 
/**
 * The auth share (base64); required for index 0, absent otherwise.
 */
auth_share?: string, 
/**
 * The recovery share (base64); required for index 0, absent otherwise.
 */
recovery_share?: string, 
/**
 * The frame's device public key (base64 of the 65-byte uncompressed P-256 point);
 * required for index 0, absent otherwise.
 */
device_public_key?: string, 
/**
 * A `create` challenge nonce from `POST /embedded_wallets/challenge`.
 */
nonce?: string, 
/**
 * `personal_sign` (`0x` r‖s‖v) of the wallet proof message by the key at `wallet_index`.
 */
signature?: string, 
/**
 * For `wallet_index` > 0: the same message signed by the root (index 0) key, so only the
 * holder of the root entropy adds wallets.
 */
root_signature?: string, };

export type CreateEmbeddedWalletResponse = { 
/**
 * The user, with the new wallet among `linked_accounts`.
 */
user: User, 
/**
 * The new wallet as a linked account (`type: "wallet"`, as in `user.linked_accounts`).
 */
wallet: LinkedAccount, };

export type WalletChallengePurpose = "key_material" | "create" | "replace_shares";

export type WalletChallengeRequest = { 
/**
 * The wallet's chain type.
 */
chain_type: ChainType, 
/**
 * The call the nonce is for.
 */
purpose: WalletChallengePurpose, };

export type WalletChallengeResponse = { 
/**
 * Random, base64url; valid once, for this session and purpose.
 */
nonce: string, 
/**
 * Unix seconds after which the nonce is refused.
 */
expires_at: bigint, };

export type KeyMaterialRequest = { 
/**
 * The wallet's chain type.
 */
chain_type: ChainType, 
/**
 * A `key_material` challenge nonce.
 */
nonce?: string, 
/**
 * The device key's ECDSA P-256/SHA-256 signature (base64 of raw r‖s, 64 bytes) of the
 * unlock message.
 */
device_signature?: string, 
/**
 * Ask for the recovery share too (new device); needs a fresh sign-in.
 */
recovery?: boolean, 
/**
 * What the key is for (default `sign`); `export` needs MFA when the user has it.
 */
intent?: KeyMaterialIntent, 
/**
 * A fresh MFA token from `/mfa/verify`, used up by this release.
 */
mfa_token?: string, };

export type KeyMaterialResponse = { 
/**
 * The wallet asked for (checksummed).
 */
address: string, 
/**
 * Its chain type.
 */
chain_type: ChainType, 
/**
 * Its index.
 */
wallet_index: number, 
/**
 * How its recovery share is kept.
 */
recovery_method: RecoveryMethod, 
/**
 * The root auth share (base64).
 */
auth_share: string, 
/**
 * The root recovery share (base64); `null` unless `recovery` was asked for, granted and
 * the method is `privy`.
 */
recovery_share: string | null, 
/**
 * The release was for one operation (transaction protection): the frame forgets the key
 * after it.
 */
single_use: boolean, };

export type ReplaceSharesRequest = { 
/**
 * The wallet's chain type.
 */
chain_type: ChainType, 
/**
 * The new auth share (base64).
 */
auth_share: string, 
/**
 * The new recovery share (base64).
 */
recovery_share: string, 
/**
 * This device's new public key (base64, 65-byte uncompressed P-256 point).
 */
device_public_key?: string, 
/**
 * A `replace_shares` challenge nonce.
 */
nonce?: string, 
/**
 * `personal_sign` of the proof message by the root (index 0) key.
 */
signature?: string, };

export type ReplaceSharesResponse = { 
/**
 * The wallet named in the path (checksummed).
 */
address: string, };

export type PasswordlessLinkRequest = { 
/**
 * The address the code was sent to.
 */
email: string, 
/**
 * The 6-digit code.
 */
code: string, };

export type PasswordlessUnlinkRequest = { 
/**
 * The linked address to remove.
 */
address: string, };

export type PasswordlessUpdateRequest = { 
/**
 * The address linked today.
 */
oldAddress: string, 
/**
 * The address the code was sent to.
 */
newAddress: string, 
/**
 * The 6-digit code sent to `new_address`.
 */
code: string, };

export type SmsInitRequest = { 
/**
 * The number, with its country code (`+1 555…`).
 */
phoneNumber: string, 
/**
 * Captcha token, when the app uses a captcha.
 */
token?: string, };

export type SmsAuthenticateRequest = { 
/**
 * The number the code was sent to.
 */
phoneNumber: string, 
/**
 * The 6-digit code.
 */
code: string, 
/**
 * Whether sign-up is allowed.
 */
mode?: AuthMode, };

export type SmsLinkRequest = { 
/**
 * The number the code was sent to.
 */
phoneNumber: string, 
/**
 * The 6-digit code.
 */
code: string, };

export type SmsUnlinkRequest = { 
/**
 * The linked number to remove.
 */
phoneNumber: string, };

export type SmsUpdateRequest = { 
/**
 * The number linked today.
 */
old_phone_number: string, 
/**
 * The number the code was sent to.
 */
new_phone_number: string, 
/**
 * The 6-digit code sent to `new_phone_number`.
 */
code: string, };

export type EmailTransferRequest = { 
/**
 * The nonce of the `account_transfer_required` refusal.
 */
nonce: string, 
/**
 * The address to move.
 */
email: string, };

export type SmsTransferRequest = { 
/**
 * The nonce of the `account_transfer_required` refusal.
 */
nonce: string, 
/**
 * The number to move.
 */
phoneNumber: string, };

export type GuestAuthenticateRequest = { 
/**
 * 32 random bytes, base64url, made and kept by the client; the server stores a hash.
 */
guest_credential: string, };

export type CustomJwtAuthenticateRequest = { 
/**
 * The host's JWT.
 */
token: string, 
/**
 * Whether sign-up is allowed.
 */
mode?: AuthMode, };

export type CustomJwtLinkRequest = { 
/**
 * The host's JWT.
 */
token: string, };

export type AccountTransferData = { 
/**
 * Single-use, short-lived proof that the caller just verified the account.
 */
nonce: string, 
/**
 * The account's type (`email`, `phone`, …).
 */
account_type: string, 
/**
 * The account as shown to the user (the address or number).
 */
display_name: string, 
/**
 * The current owner's first embedded wallet, if any (the user sees what they leave behind).
 */
embedded_wallet_address: string | null, 
/**
 * For OAuth accounts: what the provider told, sent back as `userInfo` of `/oauth/transfer`.
 */
oauth_user_info?: OAuthUserInfo, 
/**
 * For wallets: how the caller connected it, sent back as `metadata` of `/siwe/transfer`
 * or `/siws/transfer`.
 */
external_wallet_metadata?: ExternalWalletMetadata, };

export type LoginMethodsAndOrder = { 
/**
 * Shown first, in this order.
 */
primary: Array<string>, 
/**
 * Behind "More options", in this order.
 */
overflow: Array<string>, };

export type OAuthInitRequest = { 
/**
 * Where the provider's answer is sent back to (an allowed origin of the app).
 */
redirect_to: string, 
/**
 * `google`, `github`, …, `custom:<name>` or `privy:<app id>`.
 */
provider: string, 
/**
 * base64url(SHA-256(code_verifier)) (PKCE S256).
 */
code_challenge: string, 
/**
 * The client's state; it comes back as `privy_oauth_state`.
 */
state_code: string, };

export type OAuthInitResponse = { 
/**
 * The provider's authorization page to open (popup or redirect).
 */
url: string, };

export type OAuthAuthenticateRequest = { 
/**
 * `privy_oauth_code` from the return address.
 */
authorization_code: string, 
/**
 * Kind of code (sent by some clients; only authorization codes are accepted).
 */
code_type?: string, 
/**
 * `privy_oauth_state`, equal to the state the client sent to init.
 */
state_code: string, 
/**
 * The PKCE verifier whose challenge the client sent to init.
 */
code_verifier: string, 
/**
 * The provider, as sent to init.
 */
provider: string, 
/**
 * Whether sign-up is allowed.
 */
mode?: AuthMode, };

export type OAuthLinkRequest = { 
/**
 * `privy_oauth_code` from the return address.
 */
authorization_code: string, 
/**
 * Kind of code (only authorization codes are accepted).
 */
code_type?: string, 
/**
 * `privy_oauth_state`.
 */
state_code: string, 
/**
 * The PKCE verifier.
 */
code_verifier: string, 
/**
 * The provider, as sent to init.
 */
provider: string, };

export type OAuthUnlinkRequest = { 
/**
 * The provider of the account to remove.
 */
provider: string, 
/**
 * The provider's subject of the account to remove.
 */
subject: string, };

export type OAuthUserInfo = { 
/**
 * The provider (`google`, `custom:<name>`, `privy:<app id>`).
 */
provider: string, 
/**
 * The provider's id of the user.
 */
subject: string, 
/**
 * Email, when the provider gives one.
 */
email: string | null, 
/**
 * Display name, when the provider gives one.
 */
name: string | null, 
/**
 * Handle, when the provider has them.
 */
username: string | null, };

export type OAuthTransferRequest = { 
/**
 * The nonce of the `account_transfer_required` refusal.
 */
nonce: string, 
/**
 * The `oauth_user_info` of that refusal (provider and subject name the account).
 */
userInfo: OAuthUserInfo, };

export type CustomOAuthProviderConfig = { 
/**
 * `custom:<name>`.
 */
provider: string, 
/**
 * Button label.
 */
provider_display_name: string, 
/**
 * Button icon.
 */
provider_icon_url: string | null, 
/**
 * Always true for listed providers.
 */
enabled: boolean, };

export type CrossAppConnection = { 
/**
 * The provider app's id; its OAuth provider name is `privy:{provider_app_id}`.
 */
provider_app_id: string, 
/**
 * Its display name.
 */
provider_app_name: string, 
/**
 * Its icon, if any.
 */
provider_app_icon_url: string | null, 
/**
 * The provider's server when it is not this one (null: the client's `apiUrl`).
 */
provider_app_custom_api_url: string | null, 
/**
 * Sign-in only: transactions and signatures are refused (spec §6).
 */
read_only: boolean, 
/**
 * Where the consent page is, when the provider set its own.
 */
provider_app_custom_auth_authorize_url: string | null, 
/**
 * Where the signing page is, when the provider set its own (default `{apiUrl}/oauth/transact`).
 */
provider_app_custom_auth_transact_url: string | null, };

export type CrossAppConnectionsResponse = { 
/**
 * The app's providers, in the order its settings list them.
 */
connections: Array<CrossAppConnection>, };

export type CrossAppDetailsResponse = { 
/**
 * The app's id.
 */
id: string, 
/**
 * Its display name.
 */
name: string, 
/**
 * Its icon, if any.
 */
icon_url: string | null, 
/**
 * Other apps may sign their users in with this one.
 */
allow_as_provider: boolean, 
/**
 * Its server when it is not this one.
 */
custom_api_url: string | null, 
/**
 * Its own consent page, if any.
 */
custom_auth_authorize_url: string | null, 
/**
 * Its own signing page, if any.
 */
custom_auth_transact_url: string | null, };

export type CrossAppConsentRequest = { 
/**
 * The requesting app's id.
 */
client_id: string, 
/**
 * Where the code goes: exactly `{public_url}/api/v1/oauth/callback`.
 */
redirect_uri: string, 
/**
 * The requester's state, returned unchanged.
 */
state?: string, 
/**
 * PKCE challenge (RFC 7636), base64url of SHA-256 of the verifier.
 */
code_challenge: string, 
/**
 * Must be `S256`.
 */
code_challenge_method: string, };

export type CrossAppConsentResponse = { 
/**
 * The code (valid 60 s, once).
 */
code: string, 
/**
 * `redirect_uri?code=…&state=…`.
 */
redirect_to: string, };

export type CrossAppTokenRequest = { 
/**
 * Must be `authorization_code`.
 */
grant_type: string, 
/**
 * The code of the consent.
 */
code: string, 
/**
 * The redirect URI the code was issued for.
 */
redirect_uri: string, 
/**
 * The requesting app's id.
 */
client_id: string, 
/**
 * The PKCE verifier.
 */
code_verifier: string, };

export type CrossAppTokenResponse = { 
/**
 * Opaque; stored hashed.
 */
access_token: string, 
/**
 * `Bearer`.
 */
token_type: string, 
/**
 * Seconds.
 */
expires_in: bigint, };

export type CrossAppUserInfo = { 
/**
 * The provider app's user id.
 */
sub: string, 
/**
 * The user's embedded wallets on the provider app.
 */
embedded_wallets: Array<CrossAppWallet>, 
/**
 * The user's smart wallets on the provider app.
 */
smart_wallets: Array<CrossAppWallet>, };

export type CrossAppTransactContext = { 
/**
 * The provider app (whose wallet signs).
 */
provider_app_id: string, 
/**
 * Its name.
 */
provider_app_name: string, 
/**
 * The requesting app.
 */
requester_app_id: string, 
/**
 * Its name.
 */
requester_app_name: string, 
/**
 * Origins the answer may be posted to (the requester's allowed origins).
 */
requester_origins: Array<string>, 
/**
 * The provider app's user the token is for.
 */
user_id: string, 
/**
 * The user's embedded wallets on the provider app.
 */
embedded_wallets: Array<CrossAppWallet>, 
/**
 * The requester lists the provider as read-only.
 */
read_only: boolean, };

export type FarcasterInitRequest = { 
/**
 * Captcha token, when the app uses a captcha.
 */
token?: string, };

export type FarcasterInitResponse = { 
/**
 * Secret of the channel; the `farcaster-channel-token` header of `/farcaster/status`.
 */
channel_token: string, 
/**
 * `farcaster://connect?channelToken=…` for the Farcaster app.
 */
connect_uri: string, 
/**
 * The nonce the signed message must carry.
 */
nonce: string, };

export type FarcasterChannelState = "pending" | "completed";

export type FarcasterStatusResponse = { 
/**
 * `pending` or `completed`.
 */
state: FarcasterChannelState, 
/**
 * The channel's nonce.
 */
nonce?: string, 
/**
 * The SIWE message the custody address signed.
 */
message?: string, 
/**
 * 65-byte `0x…` signature of `message` (EIP-191).
 */
signature?: string, 
/**
 * The Farcaster id.
 */
fid?: number, 
/**
 * Farcaster username.
 */
username?: string, 
/**
 * Display name.
 */
display_name?: string, 
/**
 * Profile text.
 */
bio?: string, 
/**
 * Profile picture.
 */
pfp_url?: string, };

export type FarcasterAuthenticateRequest = { 
/**
 * The channel of `/farcaster/init`.
 */
channel_token: string, 
/**
 * The SIWE message.
 */
message: string, 
/**
 * Its signature by the fid's custody address.
 */
signature: string, 
/**
 * The Farcaster id the message names.
 */
fid: number, 
/**
 * Whether sign-up is allowed.
 */
mode?: AuthMode, };

export type FarcasterLinkRequest = { 
/**
 * The channel of `/farcaster/init`.
 */
channel_token: string, 
/**
 * The SIWE message.
 */
message: string, 
/**
 * Its signature by the fid's custody address.
 */
signature: string, 
/**
 * The Farcaster id the message names.
 */
fid: number, };

export type FarcasterUnlinkRequest = { 
/**
 * The linked Farcaster id.
 */
fid: number, };

export type FarcasterTransferRequest = { 
/**
 * The nonce of the `account_transfer_required` refusal.
 */
nonce: string, 
/**
 * The Farcaster id to move.
 */
farcaster_id: number, 
/**
 * The embedded wallet of the account's owner, when the client knows it.
 */
farcaster_embedded_address?: string, };

export type FarcasterV2InitResponse = { 
/**
 * The nonce the signed message must carry (single use).
 */
nonce: string, 
/**
 * When the nonce stops being accepted, RFC 3339 (the message's `expirationTime` may be
 * set to it).
 */
expires_at: string, };

export type FarcasterV2AuthenticateRequest = { 
/**
 * The SIWE message (its nonce from `/api/v2/farcaster/init`).
 */
message: string, 
/**
 * Its signature by the fid's custody address.
 */
signature: string, 
/**
 * The Farcaster id the message names.
 */
fid: number, 
/**
 * Whether sign-up is allowed.
 */
mode?: AuthMode, };

export type FarcasterSignerRequest = { 
/**
 * The signer's Ed25519 public key, `0x…` hex.
 */
ed25519_public_key: string, };

export type FarcasterSignerStatus = "pending_approval" | "approved" | "revoked";

export type FarcasterSignerResponse = { 
/**
 * The signer's Ed25519 public key, `0x…` hex.
 */
public_key: string, 
/**
 * `pending_approval`, `approved` or `revoked`.
 */
status: FarcasterSignerStatus, 
/**
 * Where the user approves it (QR code or mobile link) while it is pending.
 */
signer_approval_url?: string, };

export type TelegramAuthResult = { 
/**
 * The Telegram user id.
 */
id: number, 
/**
 * First name.
 */
first_name?: string, 
/**
 * Last name.
 */
last_name?: string, 
/**
 * Username, without the `@`.
 */
username?: string, 
/**
 * Profile picture.
 */
photo_url?: string, 
/**
 * When Telegram signed it, unix seconds.
 */
auth_date: number, 
/**
 * Hex HMAC-SHA256 of the other fields.
 */
hash: string, };

export type TelegramAuthenticateRequest = { 
/**
 * The Login Widget's result (web).
 */
telegram_auth_result?: TelegramAuthResult, 
/**
 * The Mini App's `initData` fields (inside Telegram).
 */
telegram_web_app_data?: Record<string, string | number>, 
/**
 * Whether sign-up is allowed.
 */
mode?: AuthMode, 
/**
 * Captcha token, when the app uses a captcha.
 */
captcha_token?: string, };

export type TelegramLinkRequest = { 
/**
 * The Login Widget's result (web).
 */
telegram_auth_result?: TelegramAuthResult, 
/**
 * The Mini App's `initData` fields (inside Telegram).
 */
telegram_web_app_data?: Record<string, string | number>, };

export type TelegramUnlinkRequest = { 
/**
 * The linked Telegram user id.
 */
telegram_user_id: string, };

export type TelegramTransferRequest = { 
/**
 * The nonce of the `account_transfer_required` refusal.
 */
nonce: string, 
/**
 * The Login Widget's result (web).
 */
telegram_auth_result?: TelegramAuthResult, 
/**
 * The Mini App's `initData` fields (inside Telegram).
 */
telegram_web_app_data?: Record<string, string | number>, };

export type TelegramAuthConfig = { 
/**
 * The bot's id (the bot token before `:`), for the Login Widget's `bot_id`.
 */
bot_id: string, 
/**
 * The bot's username.
 */
bot_name: string, 
/**
 * Inside a Mini App, sign in from its `initData` without a click.
 */
seamless_auth_enabled: boolean, 
/**
 * Telegram accounts may be linked to a signed-in user.
 */
link_enabled: boolean, };

export type SiweInitRequest = { 
/**
 * `0x` + 40 hex (SIWE, any case) or a base58 public key (SIWS).
 */
address: string, 
/**
 * Captcha token, when the app uses a captcha.
 */
token?: string, };

export type SiweInitResponse = { 
/**
 * Goes into the message's `Nonce:` line; valid once, for this address, until `expires_at`.
 */
nonce: string, 
/**
 * The address as the server will compare it (checksummed for Ethereum).
 */
address: string, 
/**
 * RFC 3339 time after which the nonce is refused.
 */
expires_at: string, };

export type SiweAuthenticateRequest = { 
/**
 * Whether sign-up is allowed.
 */
mode?: AuthMode, 
/**
 * The EIP-4361 message exactly as signed.
 */
message: string, 
/**
 * `0x` hex signature (EOA: 65 bytes r‖s‖v; contract wallets: EIP-1271 or EIP-6492 bytes).
 */
signature: string, 
/**
 * `eip155:<id>` (or the decimal id); must be the message's `Chain ID`.
 */
chainId?: string, 
/**
 * The wallet's client.
 */
walletClientType?: string, 
/**
 * The connector.
 */
connectorType?: string, };

export type SiweLinkRequest = { 
/**
 * The EIP-4361 message exactly as signed.
 */
message: string, 
/**
 * `0x` hex signature (EOA: 65 bytes r‖s‖v; contract wallets: EIP-1271 or EIP-6492 bytes).
 */
signature: string, 
/**
 * `eip155:<id>` (or the decimal id); must be the message's `Chain ID`.
 */
chainId?: string, 
/**
 * The wallet's client.
 */
walletClientType?: string, 
/**
 * The connector.
 */
connectorType?: string, };

export type SiweLinkSmartWalletRequest = { 
/**
 * The EIP-4361 message exactly as signed; its address is the smart wallet's.
 */
message: string, 
/**
 * `0x` hex signature.
 */
signature: string, 
/**
 * The smart wallet's kind (`kernel`, `safe`, `light_account`, `biconomy`, `coinbase_smart_wallet`, …).
 */
smart_wallet_type: string, 
/**
 * Its implementation version, when known.
 */
smart_wallet_version?: string, };

export type SiweUnlinkRequest = { 
/**
 * The wallet to unlink.
 */
address: string, };

export type ExternalWalletMetadata = { 
/**
 * The wallet's client.
 */
walletClientType?: string, 
/**
 * The connector.
 */
connectorType?: string, };

export type SiweTransferRequest = { 
/**
 * The nonce of the `account_transfer_required` refusal.
 */
nonce: string, 
/**
 * The wallet's address.
 */
address: string, 
/**
 * How it is connected now (replaces what its former owner had).
 */
metadata?: ExternalWalletMetadata, };

export type SiwsMessageType = "plain" | "transaction";

export type SiwsAuthenticateRequest = { 
/**
 * Whether sign-up is allowed.
 */
mode?: AuthMode, 
/**
 * The SIWS message exactly as signed.
 */
message: string, 
/**
 * The 64-byte ed25519 signature, base64 (or base58).
 */
signature: string, 
/**
 * `plain` (default).
 */
message_type?: SiwsMessageType, 
/**
 * The wallet's client.
 */
walletClientType?: string, 
/**
 * The connector.
 */
connectorType?: string, };

export type SiwsLinkRequest = { 
/**
 * The SIWS message exactly as signed.
 */
message: string, 
/**
 * The 64-byte ed25519 signature, base64 (or base58).
 */
signature: string, 
/**
 * `plain` (default).
 */
message_type?: SiwsMessageType, 
/**
 * The wallet's client.
 */
walletClientType?: string, 
/**
 * The connector.
 */
connectorType?: string, };

export type PasskeyAccount = { 
/**
 * The credential id (base64url).
 */
credential_id: string, 
/**
 * The authenticator's name (from its AAGUID), when known.
 */
authenticator_name: string | null, 
/**
 * The browser that registered it (from its User-Agent).
 */
created_with_browser: string | null, 
/**
 * The operating system that registered it.
 */
created_with_os: string | null, 
/**
 * The device kind that registered it (`desktop`, `mobile`, …).
 */
created_with_device: string | null, 
/**
 * Whether it is one of the user's MFA methods.
 */
enrolled_in_mfa: boolean, 
/**
 * First verification (kept for compatibility with clients that read `verified_at`).
 */
verified_at: number, 
/**
 * First verification.
 */
first_verified_at: number | null, 
/**
 * Most recent verification.
 */
latest_verified_at: number | null, };

export type KeyMaterialIntent = "sign" | "export";

export type PasskeyInitRequest = { 
/**
 * Sent by clients; the server uses the RP id of the app's settings or the page's host and
 * echoes it in the answer.
 */
relying_party?: string, 
/**
 * Captcha token, when the app uses a captcha.
 */
token?: string, };

export type PasskeyRegistrationInitResponse = { 
/**
 * Options for `navigator.credentials.create`.
 */
options: PasskeyCreationOptions, 
/**
 * The relying party as a URL, `https://{rp id}` (the published schema's form; the options
 * carry the RP id itself).
 */
relying_party: string, };

export type PasskeyAuthenticationInitResponse = { 
/**
 * Options for `navigator.credentials.get` (discoverable: `allow_credentials` is empty).
 */
options: PasskeyRequestOptions, 
/**
 * The relying party as a URL, `https://{rp id}` (the published schema's form; the options
 * carry the RP id itself).
 */
relying_party: string, };

export type PasskeyCreationOptions = { 
/**
 * The relying party.
 */
rp: PasskeyRelyingParty, 
/**
 * The user the credential is made for.
 */
user: PasskeyUserEntity, 
/**
 * The single-use challenge.
 */
challenge: string, 
/**
 * Accepted algorithms (COSE ids).
 */
pub_key_cred_params: Array<PasskeyCredentialParameter>, 
/**
 * Milliseconds the browser waits.
 */
timeout: number, 
/**
 * Credentials the authenticator must not make again (the user's passkeys).
 */
exclude_credentials: Array<PasskeyDescriptor>, 
/**
 * Discoverable credential, user verification.
 */
authenticator_selection: PasskeyAuthenticatorSelection, 
/**
 * Always `none`.
 */
attestation: string, 
/**
 * WebAuthn extensions (`cred_props`).
 */
extensions?: Record<string, unknown>, };

export type PasskeyRequestOptions = { 
/**
 * The single-use challenge.
 */
challenge: string, 
/**
 * Milliseconds the browser waits.
 */
timeout: number, 
/**
 * The RP id.
 */
rp_id: string, 
/**
 * Credentials that may answer (empty: any discoverable credential of this RP).
 */
allow_credentials: Array<PasskeyDescriptor>, 
/**
 * Always `required`.
 */
user_verification: string, 
/**
 * WebAuthn extensions.
 */
extensions?: Record<string, unknown>, };

export type PasskeyRelyingParty = { 
/**
 * RP id (a host name).
 */
id: string, 
/**
 * Shown by the browser: the app's name.
 */
name: string, };

export type PasskeyUserEntity = { 
/**
 * The user handle (base64url of random bytes, not the user id).
 */
id: string, 
/**
 * Account name shown by the browser.
 */
name: string, 
/**
 * Display name shown by the browser.
 */
display_name: string, };

export type PasskeyCredentialParameter = { 
/**
 * Always `public-key`.
 */
type: string, 
/**
 * COSE algorithm id (-7 ES256, -8 EdDSA, -257 RS256).
 */
alg: number, };

export type PasskeyDescriptor = { 
/**
 * Credential id (base64url).
 */
id: string, 
/**
 * Always `public-key`.
 */
type: string, 
/**
 * Transports the authenticator reported.
 */
transports?: Array<string>, };

export type PasskeyAuthenticatorSelection = { 
/**
 * `required`: a discoverable credential, so it can sign in without a user name.
 */
resident_key: string, 
/**
 * `true` (older browsers read this).
 */
require_resident_key: boolean, 
/**
 * `required`.
 */
user_verification: string, 
/**
 * `platform` or `cross-platform` when restricted.
 */
authenticator_attachment?: string, };

export type PasskeyRegisterRequest = { 
/**
 * Ignored (see [`PasskeyInitRequest::relying_party`]).
 */
relying_party?: string, 
/**
 * The browser's answer to the creation options.
 */
authenticator_response: PasskeyRegistrationResponse, };

export type PasskeyAuthenticateRequest = { 
/**
 * Ignored (see [`PasskeyInitRequest::relying_party`]).
 */
relying_party?: string, 
/**
 * The challenge of the options answered (also inside `client_data_json`).
 */
challenge: string, 
/**
 * The browser's assertion.
 */
authenticator_response: PasskeyAuthenticationResponse, };

export type PasskeyUnlinkRequest = { 
/**
 * The passkey's credential id (base64url).
 */
credential_id: string, 
/**
 * Also remove it as an MFA method (needs `mfa_token`; the wallet frame sends this).
 */
remove_as_mfa?: boolean, 
/**
 * A fresh MFA token (wallet frame only).
 */
mfa_token?: string, };

export type PasskeyRegistrationResponse = { 
/**
 * Credential id (base64url).
 */
id: string, 
/**
 * The same bytes (base64url).
 */
raw_id: string, 
/**
 * The attestation.
 */
response: PasskeyAttestationResponse, 
/**
 * `platform` or `cross-platform`.
 */
authenticator_attachment?: string, 
/**
 * Extension outputs.
 */
client_extension_results: Record<string, unknown>, 
/**
 * Always `public-key`.
 */
type: string, };

export type PasskeyAttestationResponse = { 
/**
 * `clientDataJSON` (base64url).
 */
client_data_json: string, 
/**
 * `attestationObject` (base64url CBOR).
 */
attestation_object: string, 
/**
 * Transports the authenticator reported.
 */
transports?: Array<string>, 
/**
 * Convenience copy of the authenticator data (base64url); not trusted.
 */
authenticator_data?: string, 
/**
 * Convenience copy of the public key (base64url DER); not trusted.
 */
public_key?: string, 
/**
 * COSE algorithm of the public key.
 */
public_key_algorithm?: number, };

export type PasskeyAuthenticationResponse = { 
/**
 * Credential id (base64url).
 */
id: string, 
/**
 * The same bytes (base64url).
 */
raw_id: string, 
/**
 * The signed assertion.
 */
response: PasskeyAssertionResponse, 
/**
 * `platform` or `cross-platform`.
 */
authenticator_attachment?: string, 
/**
 * Extension outputs (`app_id`, `cred_props`, `hmac_create_secret`).
 */
client_extension_results: Record<string, unknown>, 
/**
 * Always `public-key`.
 */
type: string, };

export type PasskeyAssertionResponse = { 
/**
 * `clientDataJSON` (base64url).
 */
client_data_json: string, 
/**
 * `authenticatorData` (base64url).
 */
authenticator_data: string, 
/**
 * The signature (base64url).
 */
signature: string, 
/**
 * The user handle of a discoverable credential (base64url).
 */
user_handle?: string, };

export type MfaMethodType = "totp" | "sms" | "passkey";

export type MfaSmsAction = "verify" | "enroll";

export type MfaSmsInitRequest = { 
/**
 * `verify` or `enroll`.
 */
action: MfaSmsAction, 
/**
 * The phone to enrol (E.164 or national with a region the app allows); `enroll` only.
 */
phoneNumber?: string, };

export type MfaPasskeyInitResponse = { 
/**
 * Options for `navigator.credentials.get`, limited to the user's MFA passkeys.
 */
options: PasskeyRequestOptions, };

export type MfaVerifyRequest = { 
/**
 * The method verified.
 */
method: MfaMethodType, 
/**
 * The 6-digit code (`totp`, `sms`).
 */
code?: string, 
/**
 * The passkey assertion (`passkey`).
 */
authenticator_response?: PasskeyAuthenticationResponse, };

export type MfaTokenResponse = { 
/**
 * The token (base64url).
 */
token: string, 
/**
 * Unix seconds after which it is refused.
 */
expires_at: number, };

export type TotpInitResponse = { 
/**
 * The base32 secret (the setup key). Named as the published clients read it.
 */
totpSecret: string, 
/**
 * The `otpauth://totp/…` URL for the QR code.
 */
totpAuthUrl: string, };

export type TotpEnrollRequest = { 
/**
 * A current code of the pending secret.
 */
code: string, 
/**
 * A fresh MFA token; required when the user already has an MFA method.
 */
mfa_token?: string, };

export type MfaSmsEnrollRequest = { 
/**
 * The phone the code was sent to.
 */
phoneNumber: string, 
/**
 * The 6-digit code.
 */
code: string, 
/**
 * A fresh MFA token; required when the user already has an MFA method.
 */
mfa_token?: string, };

export type MfaPasskeyEnrollRequest = { 
/**
 * The user's passkeys that are MFA methods afterwards (the whole set, at least one).
 */
credential_ids: Array<string>, 
/**
 * Unlink the passkeys this call removes from MFA as login methods too.
 */
remove_for_login?: boolean, 
/**
 * A fresh MFA token; required when the user already has an MFA method.
 */
mfa_token?: string, };

export type MfaUnenrollRequest = { 
/**
 * The method removed.
 */
method: MfaMethodType, 
/**
 * A fresh MFA token.
 */
mfa_token?: string, 
/**
 * `passkey`: unlink the passkeys as login methods too (never the last way in).
 */
remove_for_login?: boolean, };

export type MfaUserResponse = { 
/**
 * The user, `mfa_methods` updated.
 */
user: User, };

/** Every server error code, in spec order. */
export const SERVER_ERROR_CODES = [
  "oauth_account_suspended",
  "missing_or_invalid_privy_app_id",
  "missing_or_invalid_privy_client_id",
  "missing_or_invalid_token",
  "missing_mfa_enrollment",
  "missing_or_invalid_mfa",
  "expired_or_invalid_mfa_token",
  "invalid_data",
  "invalid_credentials",
  "invalid_captcha",
  "linked_to_another_user",
  "allowlist_rejected",
  "cannot_unlink_embedded_wallet",
  "cannot_unlink_sole_account",
  "cannot_link_more_of_type",
  "linked_account_not_found",
  "too_many_requests",
  "resource_conflict",
  "invalid_origin",
  "missing_origin",
  "token_already_used",
  "already_logged_out",
  "not_supported",
  "max_accounts_reached",
  "device_revoked",
  "disallowed_login_method",
  "disallowed_plus_email",
  "disallowed_recovery_method",
  "cannot_set_password",
  "invalid_pkce_parameters",
  "user_does_not_exist",
  "resource_already_exists",
  "account_transfer_required",
  "user_has_not_delegated_wallet",
  "feature_not_enabled",
  "insufficient_funds",
  "transaction_broadcast_failure",
  "policy_violation",
  "signup_disabled",
  "not_found",
  "internal_error",
] as const satisfies readonly ServerErrorCode[];

/** The spec's message for each client error code. */
export const CLIENT_ERROR_MESSAGES: Record<ClientErrorCode, string> = {
  storage_error: "Unable to access storage",
  attempted_rpc_call_before_logged_in: "Missing access token",
  pkce_state_code_mismatch: "Unexpected auth flow. This may be a phishing attempt.",
  embedded_wallet_request_error: "Embedded wallet request failed",
  embedded_wallet_creation_error: "Embedded wallet creation failed",
  embedded_wallet_recovery_error: "User-owned recovery timed out",
  unsupported_recovery_method: "Unsupported recovery method",
  mfa_timeout: "Timed out waiting for MFA code",
  mfa_verification_max_attempts_reached: "Max MFA verification attempts reached",
  missing_or_invalid_mfa: "MFA verification failed, retry.",
  invalid_input: "Invalid input",
  unsupported_wallet_type: "Unsupported wallet type",
  user_signer_sign_error: "Unable to sign",
  network_error: "Unable to reach the server. Check your connection and try again.",
  wallet_not_on_device: "The wallet is not on this device",
};

/** A request is abandoned after this long. */
export const REQUEST_TIMEOUT_MS = 20000;
/** How many times a failed request is retried. */
export const REQUEST_MAX_RETRIES = 3;
/** HTTP statuses that are retried (never 429: rate limits are answered with Retry-After). */
export const RETRYABLE_STATUSES = [408, 409, 425, 500, 502, 503, 504] as const;
/** Delay before retry n (0-based) is `RETRY_BASE_DELAY_MS * RETRY_BACKOFF_FACTOR^n`. */
export const RETRY_BASE_DELAY_MS = 500;
/** Growth factor of the retry delay. */
export const RETRY_BACKOFF_FACTOR = 3;
/** An access token counts as inactive this many seconds before its `exp`. */
export const ACCESS_TOKEN_EXPIRY_SKEW_S = 30;
/** Lifetime of an access token issued by the server. */
export const ACCESS_TOKEN_TTL_S = 3600;
/** Lifetime of an identity token issued by the server. */
export const IDENTITY_TOKEN_TTL_S = 36000;
/** Lifetime of a refresh token (and of the refresh-marker cookie), in days. */
export const REFRESH_TOKEN_TTL_DAYS = 30;
/** A rotated refresh token presented again inside this window gets the same child token
 instead of revoking the session, so two tabs may refresh at once. */
export const REFRESH_REUSE_GRACE_S = 10;
/** Name of the refresh-marker cookie (its value carries no secret). */
export const REFRESH_MARKER_COOKIE = "privy-session";
/** Digits in an email or SMS code. */
export const PASSCODE_LENGTH = 6;
/** Lifetime of a one-time code. */
export const OTP_TTL_S = 600;
/** Guesses after which a code dies. */
export const OTP_MAX_ATTEMPTS = 5;
/** Seconds the server makes one address wait between two codes (the Resend wait). */
export const OTP_RESEND_COOLDOWN_S = 20;
/** How every refusal of a wrong code begins ('Invalid code. 3 attempts left.'). */
export const OTP_REFUSAL_WRONG_PREFIX = "Invalid code.";
/** The refusal once every guess of the pending code is used. */
export const OTP_REFUSAL_USED_UP = "Too many wrong attempts for this code. Request a new code.";
/** The refusal of an expired, used or unknown code. */
export const OTP_REFUSAL_EXPIRED = "This code has expired or was already used. Request a new code.";
/** How the refusal begins once an address's wrong-code budget is spent (429). */
export const OTP_REFUSAL_LOCKED_PREFIX = "Too many wrong codes for this address.";
/** A frame operation fails after this long. */
export const IFRAME_OPERATION_TIMEOUT_MS = 15000;
/** Wallet creation and recovery fail after this long. */
export const WALLET_CREATION_TIMEOUT_MS = 60000;
/** The host polls the frame's readiness this often. */
export const IFRAME_READY_POLL_MS = 150;
/** User-owned recovery fails after this long. */
export const USER_OWNED_RECOVERY_TIMEOUT_MS = 120000;
/** Every frame message event starts with this prefix. */
export const FRAME_MESSAGE_PREFIX = "privy:";
/** `<meta name>` through which the server tells the frame page which host origins it serves. */
export const WALLET_FRAME_ORIGINS_META = "symbolon-allowed-origins";
/** How long one MFA code wait lasts. */
export const MFA_CODE_WAIT_MS = 300000;
/** How long all MFA attempts of one operation may take. */
export const MFA_OVERALL_TIMEOUT_MS = 1260000;
/** MFA attempts for one wallet operation. */
export const MFA_MAX_ATTEMPTS = 4;
/** Seconds an MFA token lives; an export, a recovery or a factor change uses it up. */
export const MFA_TOKEN_TTL_S = 300;
/** Seconds after its verification during which an MFA token also releases the key for signatures
 (with transaction protection on), so a second signature needs no new 30-second code. */
export const MFA_SIGNING_WINDOW_S = 120;
/** Signatures one MFA verification covers within [`MFA_SIGNING_WINDOW_S`]. */
export const MFA_SIGNING_USES = 10;
/** Failed MFA verifications (across methods and screens) that lock the user out for a while. */
export const MFA_MAX_FAILED_VERIFICATIONS = 5;
/** Seconds of the n-th lock-out in a row (0-based; the last one repeats): the first matches the
 spec §8 line 'try again in 10 seconds'. */
export const MFA_LOCKOUTS_S = [10, 30, 60, 120, 300] as const;
/** Seconds without a failed MFA verification after which a user's failures and lock-outs are
 forgotten (the next lock-out is the first again). Long enough that waiting for it gives a
 guesser fewer guesses than staying at the longest lock-out (25 per 220 s + this, against
 5 per 300 s). */
export const MFA_FAILURE_MEMORY_S = 3600;
/** The server's message (`token_already_used`) for an authenticator code whose 30-second step
 was used already: the user re-entered the code still shown; no failure is counted. */
export const MFA_CODE_ALREADY_USED = "This code was already used. Wait for the next one.";
/** Seconds a TOTP secret waits for its first code before it is dropped. */
export const TOTP_PENDING_TTL_S = 600;
/** Seconds a passkey challenge lives. */
export const PASSKEY_CHALLENGE_TTL_S = 300;
/** The `timeout` of passkey options, in milliseconds. */
export const PASSKEY_TIMEOUT_MS = 60000;
/** The login methods an app enables by listing their names in `login_methods_and_order` (OAuth
 providers are listed by their own names; guest and custom auth have settings of their own). */
export const LISTED_LOGIN_METHODS = ["email", "sms", "farcaster", "telegram", "wallet", "passkey"] as const;
/** Passkeys one user may link. */
export const MAX_PASSKEYS_PER_USER = 5;
/** Accounts of any other type one user may link. */
export const MAX_ACCOUNTS_PER_TYPE = 1;
/** Length of an app id. */
export const APP_ID_LENGTH = 25;
/** Random bytes in a guest credential (base64url-encoded). */
export const GUEST_CREDENTIAL_BYTES = 32;
/** Random bytes in an OAuth state code and in a PKCE code verifier. */
export const OAUTH_RANDOM_BYTES = 36;
/** Farcaster signer status poll interval. */
export const FARCASTER_POLL_MS = 2000;
/** Farcaster signer request timeout. */
export const FARCASTER_TIMEOUT_MS = 300000;
/** Cross-app request timeout. */
export const CROSS_APP_TIMEOUT_MS = 120000;
/** How often a cross-app popup is checked for being closed. */
export const POPUP_CLOSED_CHECK_MS = 300;
/** Width of the dialog above the mobile breakpoint. */
export const DIALOG_WIDTH_PX = 360;
/** Below this screen width the modal is a bottom sheet. */
export const MOBILE_BREAKPOINT_PX = 440;
/** Height of the full modal. */
export const MODAL_HEIGHT_FULL_PX = 620;
/** Height of the compact modal. */
export const MODAL_HEIGHT_COMPACT_PX = 480;
/** Delay between a call that opens the modal and the modal opening. */
export const MODAL_OPEN_DELAY_MS = 15;
/** Flow state is cleared this long after the modal closes. */
export const FLOW_CLEAR_DELAY_MS = 200;
/** Wait for wallet connectors to initialise. */
export const CONNECTOR_INIT_WAIT_MS = 1500;
/** Wait for the wallet proxy during delegation. */
export const DELEGATION_WALLET_PROXY_WAIT_MS = 15000;
/** The HPKE suite the wallet frame seals a delegation consent with (RFC 9180 ids: KEM 0x0010,
 KDF 0x0001, AEAD 0x0003): the suite the vendor uses for key export, import and signers. */
export const DELEGATION_HPKE_SUITE = "DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, ChaCha20Poly1305";
/** HPKE `info` of a sealed consent: its purpose and format version. */
export const DELEGATION_HPKE_INFO = "symbolon delegated actions v1";
/** The consent's format version. */
export const DELEGATION_CONSENT_VERSION = 1;
/** How long the consent and revoke screens show their success before closing. */
export const DELEGATION_SUCCESS_CLOSE_MS = 1500;
/** Timeout of the permission revoke on disconnect. */
export const DISCONNECT_REVOKE_TIMEOUT_MS = 100;
/** Default wait for injected wallets to initialise. */
export const INJECTED_WALLET_INIT_WAIT_MS = 1000;
/** Version of the wallet-connection SDK the spec's client reports. */
export const WALLET_CONNECT_SDK_VERSION = "4.3.2";
/** Value of the `privy-client` header. */
export const SDK_VERSION_TAG = "react-auth:3.3.0";
/** Header carrying the app id. */
export const HEADER_APP_ID = "privy-app-id";
/** Header carrying the host's client id. */
export const HEADER_CLIENT_ID = "privy-client-id";
/** Header carrying the SDK name and version. */
export const HEADER_CLIENT = "privy-client";
/** Header carrying the analytics id. */
export const HEADER_ANALYTICS_ID = "privy-ca-id";
/** Header carrying a native app identifier. */
export const HEADER_NATIVE_APP_ID = "x-native-app-identifier";
/** Header carrying the retry number of a request: `0`, then `1`… on retries. */
export const HEADER_RETRY_ATTEMPT = "privy-retry-attempt";
/** Header carrying a client-chosen key that makes a write safe to retry. */
export const HEADER_IDEMPOTENCY_KEY = "privy-idempotency-key";
/** Header carrying the Farcaster relay channel token of `GET /farcaster/status`. */
export const HEADER_FARCASTER_CHANNEL_TOKEN = "farcaster-channel-token";
/** Every request header the spec's clients send cross-origin (lowercase): a CORS preflight
 must allow all of them, or the browser blocks the call. */
export const CLIENT_REQUEST_HEADERS = ["privy-app-id", "privy-client-id", "privy-client", "privy-ca-id", "x-native-app-identifier", "privy-retry-attempt", "privy-idempotency-key", "farcaster-channel-token", "authorization", "content-type"] as const;
/** Path prefix of every API call. */
export const API_PREFIX = "/api/v1";
/** The statement every SIWE and SIWS message must carry (spec §9 "sign-in message
 statement"); the server refuses a message with any other. */
export const SIWE_STATEMENT = "By signing, you are proving you own this wallet and logging in. This does not initiate a transaction or cost any fees.";
/** Seconds a `/siwe/init` or `/siws/init` nonce may be used. */
export const WALLET_NONCE_TTL_S = 600;
/** The longest SIWE or SIWS message accepted, in bytes. */
export const WALLET_MESSAGE_MAX_LEN = 4096;
/** The web app's only chain: Somnia Testnet. */
export const WEB_CHAIN_ID = 50312;
/** Default agents API URL of the web app. */
export const WEB_DEFAULT_AGENTS_API_URL = "http://localhost:8000";
