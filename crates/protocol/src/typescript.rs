//! Renders the TypeScript copy of this crate for `packages/core`.

use ts_rs::{Config, TS};

use crate::{
    accounts, app, constants, cross_app, delegation, errors, farcaster, frame, mfa, oauth, passkey,
    policies, session, siwe, telegram, user, wallet,
};

/// Where the generated file lives, relative to the repository root.
pub const OUTPUT_PATH: &str = "packages/core/src/generated/protocol.ts";

macro_rules! declarations {
    ($cfg:expr; $($ty:ty),* $(,)?) => {
        vec![$( format!("export {}", <$ty as TS>::decl($cfg)) ),*]
    };
}

/// The whole generated file.
pub fn render() -> String {
    let cfg = Config::default();
    let types = declarations![&cfg;
        errors::ErrorResponse,
        errors::ServerErrorCode,
        errors::ClientErrorCode,
        user::User,
        user::MfaMethod,
        user::LinkedAccount,
        user::Verification,
        user::EmailAccount,
        user::PhoneAccount,
        user::CustomAuthAccount,
        user::OAuthAccount,
        user::CustomOAuthAccount,
        user::CrossAppWallet,
        user::CrossAppAccount,
        user::FarcasterAccount,
        user::TelegramAccount,
        user::ChainType,
        user::RecoveryMethod,
        user::WalletAccount,
        app::AppConfigResponse,
        app::AllowlistConfig,
        app::CreateOnLogin,
        app::ChainWalletConfig,
        app::EmbeddedWalletConfig,
        session::AuthMode,
        session::PasswordlessInitRequest,
        session::PasswordlessAuthenticateRequest,
        session::RefreshSessionRequest,
        session::LogoutRequest,
        session::SessionUpdateAction,
        session::OAuthTokens,
        session::SessionResponse,
        session::CurrentUserResponse,
        session::AnalyticsEventRequest,
        session::SuccessResponse,
        session::AccessTokenClaims,
        session::IdentityTokenClaims,
        frame::FrameEvent,
        frame::EntropyIdVerifier,
        frame::WalletCreateData,
        frame::EntropyData,
        frame::WalletsAddData,
        frame::FrameRpcRequest,
        frame::WalletsRpcData,
        frame::InlineMfa,
        frame::MfaClearData,
        frame::WalletExportData,
        frame::WalletCreatedAnswer,
        frame::EntropyAnswer,
        frame::RpcResponse,
        frame::RpcAnswer,
        frame::FrameUserAnswer,
        frame::FrameErrorType,
        frame::FrameErrorBody,
        policies::Policy,
        policies::Aggregation,
        policies::AggregationMetric,
        policies::AggregationWindow,
        policies::PolicyRule,
        policies::PolicyCondition,
        policies::PolicyAction,
        policies::ConditionOperator,
        policies::ConditionValue,
        delegation::SessionSignerInput,
        delegation::DelegationTermsRequest,
        delegation::ConsentedSigner,
        delegation::DelegationTerms,
        delegation::DelegationConsent,
        delegation::DelegateWalletRequest,
        delegation::DelegateWalletResponse,
        delegation::RevokeDelegationResponse,
        delegation::DelegatedWalletRef,
        delegation::FrameSessionSigner,
        delegation::DelegatedActionsConsentData,
        delegation::DelegatedActionsConsentAnswer,
        wallet::CreateEmbeddedWalletRequest,
        wallet::CreateEmbeddedWalletResponse,
        wallet::WalletChallengePurpose,
        wallet::WalletChallengeRequest,
        wallet::WalletChallengeResponse,
        wallet::KeyMaterialRequest,
        wallet::KeyMaterialResponse,
        wallet::ReplaceSharesRequest,
        wallet::ReplaceSharesResponse,
        accounts::PasswordlessLinkRequest,
        accounts::PasswordlessUnlinkRequest,
        accounts::PasswordlessUpdateRequest,
        accounts::SmsInitRequest,
        accounts::SmsAuthenticateRequest,
        accounts::SmsLinkRequest,
        accounts::SmsUnlinkRequest,
        accounts::SmsUpdateRequest,
        accounts::EmailTransferRequest,
        accounts::SmsTransferRequest,
        accounts::GuestAuthenticateRequest,
        accounts::CustomJwtAuthenticateRequest,
        accounts::CustomJwtLinkRequest,
        accounts::AccountTransferData,
        accounts::LoginMethodsAndOrder,
        oauth::OAuthInitRequest,
        oauth::OAuthInitResponse,
        oauth::OAuthAuthenticateRequest,
        oauth::OAuthLinkRequest,
        oauth::OAuthUnlinkRequest,
        oauth::OAuthUserInfo,
        oauth::OAuthTransferRequest,
        oauth::CustomOAuthProviderConfig,
        cross_app::CrossAppConnection,
        cross_app::CrossAppConnectionsResponse,
        cross_app::CrossAppDetailsResponse,
        cross_app::CrossAppConsentRequest,
        cross_app::CrossAppConsentResponse,
        cross_app::CrossAppTokenRequest,
        cross_app::CrossAppTokenResponse,
        cross_app::CrossAppUserInfo,
        cross_app::CrossAppTransactContext,
        farcaster::FarcasterInitRequest,
        farcaster::FarcasterInitResponse,
        farcaster::FarcasterChannelState,
        farcaster::FarcasterStatusResponse,
        farcaster::FarcasterAuthenticateRequest,
        farcaster::FarcasterLinkRequest,
        farcaster::FarcasterUnlinkRequest,
        farcaster::FarcasterTransferRequest,
        farcaster::FarcasterV2InitResponse,
        farcaster::FarcasterV2AuthenticateRequest,
        farcaster::FarcasterSignerRequest,
        farcaster::FarcasterSignerStatus,
        farcaster::FarcasterSignerResponse,
        telegram::TelegramAuthResult,
        telegram::TelegramAuthenticateRequest,
        telegram::TelegramLinkRequest,
        telegram::TelegramUnlinkRequest,
        telegram::TelegramTransferRequest,
        telegram::TelegramAuthConfig,
        siwe::SiweInitRequest,
        siwe::SiweInitResponse,
        siwe::SiweAuthenticateRequest,
        siwe::SiweLinkRequest,
        siwe::SiweLinkSmartWalletRequest,
        siwe::SiweUnlinkRequest,
        siwe::ExternalWalletMetadata,
        siwe::SiweTransferRequest,
        siwe::SiwsMessageType,
        siwe::SiwsAuthenticateRequest,
        siwe::SiwsLinkRequest,
        user::PasskeyAccount,
        wallet::KeyMaterialIntent,
        passkey::PasskeyInitRequest,
        passkey::PasskeyRegistrationInitResponse,
        passkey::PasskeyAuthenticationInitResponse,
        passkey::PasskeyCreationOptions,
        passkey::PasskeyRequestOptions,
        passkey::PasskeyRelyingParty,
        passkey::PasskeyUserEntity,
        passkey::PasskeyCredentialParameter,
        passkey::PasskeyDescriptor,
        passkey::PasskeyAuthenticatorSelection,
        passkey::PasskeyRegisterRequest,
        passkey::PasskeyAuthenticateRequest,
        passkey::PasskeyUnlinkRequest,
        passkey::PasskeyRegistrationResponse,
        passkey::PasskeyAttestationResponse,
        passkey::PasskeyAuthenticationResponse,
        passkey::PasskeyAssertionResponse,
        mfa::MfaMethodType,
        mfa::MfaSmsAction,
        mfa::MfaSmsInitRequest,
        mfa::MfaPasskeyInitResponse,
        mfa::MfaVerifyRequest,
        mfa::MfaTokenResponse,
        mfa::TotpInitResponse,
        mfa::TotpEnrollRequest,
        mfa::MfaSmsEnrollRequest,
        mfa::MfaPasskeyEnrollRequest,
        mfa::MfaUnenrollRequest,
        mfa::MfaUserResponse,
    ];

    let mut out = String::from(
        "// Generated from crates/protocol by `cargo run -p symbolon-protocol --bin gen-ts`. Do not edit.\n\n",
    );
    for decl in types {
        out.push_str(&decl);
        out.push_str("\n\n");
    }

    let server_codes: Vec<String> = errors::ALL_SERVER_CODES
        .iter()
        .map(|(_, s)| format!("  {s:?},"))
        .collect();
    out.push_str(&format!(
        "/** Every server error code, in spec order. */\nexport const SERVER_ERROR_CODES = [\n{}\n] as const satisfies readonly ServerErrorCode[];\n\n",
        server_codes.join("\n")
    ));

    let client_messages: Vec<String> = errors::ClientErrorCode::ALL
        .iter()
        .map(|code| {
            let wire = serde_json::to_value(code)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default();
            format!("  {wire}: {:?},", code.default_message())
        })
        .collect();
    out.push_str(&format!(
        "/** The spec's message for each client error code. */\nexport const CLIENT_ERROR_MESSAGES: Record<ClientErrorCode, string> = {{\n{}\n}};\n\n",
        client_messages.join("\n")
    ));

    for (name, doc, value) in constants::typescript_table() {
        let doc = doc.trim();
        if !doc.is_empty() {
            out.push_str(&format!("/** {doc} */\n"));
        }
        out.push_str(&format!("export const {name} = {value};\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    #[test]
    fn generated_typescript_is_current() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let committed = std::fs::read_to_string(root.join(super::OUTPUT_PATH)).unwrap_or_default();
        assert!(
            committed == super::render(),
            "{} is stale: run `cargo run -p symbolon-protocol --bin gen-ts`",
            super::OUTPUT_PATH
        );
    }
}
