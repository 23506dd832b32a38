// Actions: plain functions over a client (wagmi style).
export { acceptTerms } from "../actions/acceptTerms.ts";
// OAuth (spec §4 OAuth flow): popup or redirect with PKCE; `handleOAuthReturn` on page load.
export { cancelOAuth } from "../actions/cancelOAuth.ts";
export { type CreateWalletOptions, createWallet } from "../actions/createWallet.ts";
// Cross-app (spec §4): log in or link with another app's account, sign with its wallet.
export {
  type CrossAppWalletOptions,
  crossAppSignMessage,
} from "../actions/crossAppSignMessage.ts";
export { crossAppSignTypedData } from "../actions/crossAppSignTypedData.ts";
// Delegated actions: the app's back end signs with a delegated wallet, within its policies.
export { type DelegateWalletParameters, delegateWallet } from "../actions/delegateWallet.ts";
export {
  type ExportWalletHandle,
  type ExportWalletOptions,
  exportWallet,
} from "../actions/exportWallet.ts";
export { fetchUser } from "../actions/fetchUser.ts";
export { getAccessToken } from "../actions/getAccessToken.ts";
export { getAccessTokenForProvider } from "../actions/getAccessTokenForProvider.ts";
export { getActiveAccessToken } from "../actions/getActiveAccessToken.ts";
export { type GetDelegationTermsParameters, getDelegationTerms } from "../actions/getDelegationTerms.ts";
export { handleOAuthReturn, type OAuthReturnOutcome } from "../actions/handleOAuthReturn.ts";
export { initialize } from "../actions/initialize.ts";
export { initLoginToMiniApp } from "../actions/initLoginToMiniApp.ts";
export { linkCrossAppAccount } from "../actions/linkCrossAppAccount.ts";
export { linkCustomJwt } from "../actions/linkCustomJwt.ts";
export { type LinkEmailParameters, linkEmail } from "../actions/linkEmail.ts";
export { linkFarcaster } from "../actions/linkFarcaster.ts";
export { type LinkOAuthParameters, linkOAuth } from "../actions/linkOAuth.ts";
export { type LinkPhoneParameters, linkPhone } from "../actions/linkPhone.ts";
export { linkTelegram } from "../actions/linkTelegram.ts";
export { loginAsGuest } from "../actions/loginAsGuest.ts";
export { type LoginToMiniAppParameters, loginToMiniApp } from "../actions/loginToMiniApp.ts";
export {
  type CrossAppAccountParameters,
  loginWithCrossAppAccount,
} from "../actions/loginWithCrossAppAccount.ts";
export { loginWithCustomToken } from "../actions/loginWithCustomToken.ts";
export {
  type LoginResult,
  type LoginWithEmailCodeParameters,
  loginWithEmailCode,
} from "../actions/loginWithEmailCode.ts";
export { type LoginWithFarcasterParameters, loginWithFarcaster } from "../actions/loginWithFarcaster.ts";
export { type LoginWithOAuthParameters, loginWithOAuth } from "../actions/loginWithOAuth.ts";
export { type LoginWithSmsCodeParameters, loginWithSmsCode } from "../actions/loginWithSmsCode.ts";
export { type LoginWithTelegramParameters, loginWithTelegram } from "../actions/loginWithTelegram.ts";
export { logout } from "../actions/logout.ts";
export { refreshSession } from "../actions/refreshSession.ts";
export {
  type RequestFarcasterSignerParameters,
  requestFarcasterSigner,
} from "../actions/requestFarcasterSigner.ts";
export { resetEmailFlow } from "../actions/resetEmailFlow.ts";
export { resetOAuthFlow } from "../actions/resetOAuthFlow.ts";
export { resetSmsFlow } from "../actions/resetSmsFlow.ts";
export { revokeDelegatedWallets } from "../actions/revokeDelegatedWallets.ts";
export { seamlessTelegramLogin } from "../actions/seamlessTelegramLogin.ts";
export { type SendEmailCodeParameters, sendEmailCode } from "../actions/sendEmailCode.ts";
export { type SendSmsCodeParameters, sendSmsCode } from "../actions/sendSmsCode.ts";
// Signing and sending are in `@symbolon/core/wallet` (they need viem); their types are here.
export type { WalletActionOptions } from "../actions/signMessage.ts";
export type { TypedData } from "../actions/signTypedData.ts";
export { type SyncCustomAuthParameters, syncCustomAuth } from "../actions/syncCustomAuth.ts";
export { type TransferAccountParameters, transferAccount } from "../actions/transferAccount.ts";
export { type TransferTelegramParameters, transferTelegram } from "../actions/transferTelegram.ts";
export { unlinkEmail } from "../actions/unlinkEmail.ts";
export { unlinkFarcaster } from "../actions/unlinkFarcaster.ts";
export { type UnlinkOAuthParameters, unlinkOAuth } from "../actions/unlinkOAuth.ts";
export { unlinkPhone } from "../actions/unlinkPhone.ts";
export { unlinkTelegram } from "../actions/unlinkTelegram.ts";
export { NO_EMAIL_MESSAGE, type UpdateEmailParameters, updateEmail } from "../actions/updateEmail.ts";
export { NO_PHONE_MESSAGE, type UpdatePhoneParameters, updatePhone } from "../actions/updatePhone.ts";
export { getCrossAppConnections } from "../crossApp/getCrossAppConnections.ts";
export { type CrossAppRequest, requestCrossAppAction } from "../crossApp/requestCrossAppAction.ts";
export { type CrossAppAnswer, waitForCrossAppAnswer } from "../crossApp/waitForCrossAppAnswer.ts";
export {
  DELEGATION_NEEDS_USER_MESSAGE,
  ETHEREUM_ONLY_MESSAGE,
  getDelegatedWallets,
  NOT_USERS_WALLET_MESSAGE,
  NOTHING_TO_REVOKE_MESSAGE,
  requireDelegableWallet,
  type SessionSigner,
} from "../delegation/delegatedWallets.ts";
// External wallets (issue 11): discovery, connection, SIWE/SIWS, the wallet directory, deep links. Each
// loads its implementation on first call (`@symbolon/core/externalWallets` holds the direct ones).
export {
  connectWallet,
  disconnectWallet,
  discoverWallets,
  fetchWalletDirectory,
  generateSiweMessage,
  generateSiwsMessage,
  handleWalletDeepLink,
  linkWithSiwe,
  linkWithSiws,
  loginWithSiwe,
  loginWithSiws,
  restoreWalletConnections,
  retryConnectWallet,
  unlinkWallet,
} from "../externalWallets/lazyActions.ts";
export { walletConnectProjectId } from "../externalWallets/projectId.ts";
export { setActiveWallet } from "../externalWallets/setActiveWallet.ts";
export type {
  GenerateSiweMessageParameters,
  GenerateSiwsMessageParameters,
} from "../externalWallets/signInMessage.ts";
export {
  approveFarcasterChannel,
  type FarcasterApproval,
  type FarcasterChannel,
  type FarcasterChannelOptions,
} from "../farcaster/approveFarcasterChannel.ts";
export { fidOfMessage } from "../farcaster/fidOfMessage.ts";
export { type FarcasterPollOptions, pollFarcaster } from "../farcaster/pollFarcaster.ts";
export { deviceSignerKey, type FarcasterSignerKey } from "../farcaster/signerKey.ts";
// MFA (issue 12): verification (with the wallet-operation retry), enrolment, the listener. Verifying
// and enrolling load on first call.
export { clearMfa } from "../mfa/clearMfa.ts";
export {
  initMfa,
  initMfaEnrollment,
  submitMfa,
  submitMfaEnrollment,
  unenrollMfa,
} from "../mfa/lazyActions.ts";
export {
  cancelMfa,
  closeMfaModal,
  promptMfa,
  registerMfaListener,
  showMfaEnrollmentModal,
} from "../mfa/prompt.ts";
export { withMfaRetry } from "../mfa/withMfaRetry.ts";
export { isInAppBrowser } from "../oauth/isInAppBrowser.ts";
export { isOAuthPopupReturn } from "../oauth/isOAuthPopupReturn.ts";
export {
  isOAuthProvider,
  OAUTH_PROVIDERS,
  type OAuthProvider,
  oauthAccountType,
} from "../oauth/oauthProviders.ts";
export type { OAuthFlowState, OAuthFlowStatus, OAuthTokensGrant } from "../oauth/oauthState.ts";
export type { OAuthDisplay } from "../oauth/pendingOAuth.ts";
// Passkeys (issue 12): login, sign-up, link, unlink; they and WebAuthn load on first call.
export {
  linkWithPasskey,
  loginWithPasskey,
  signupWithPasskey,
  unlinkPasskey,
} from "../passkeys/lazyActions.ts";
export type { PasskeyLoginParameters } from "../passkeys/loginWithPasskey.ts";
export { resetPasskeyFlow } from "../passkeys/resetPasskeyFlow.ts";
export {
  type AccountChangeResult,
  MUST_BE_AUTHENTICATED_MESSAGE,
} from "../session/accountRequest.ts";
export { requireLinkable } from "../session/requireLinkable.ts";
export { requireUpdatable, UPDATE_REQUIRES_MESSAGE } from "../session/requireUpdatable.ts";
export { storeFrameUser } from "../session/storeFrameUser.ts";
export { parseInitData, readMiniAppInitData } from "../telegram/miniAppInitData.ts";
export {
  type OpenTelegramPopupOptions,
  openTelegramPopup,
  TELEGRAM_AUTH_ORIGIN,
  TELEGRAM_CANCELED_MESSAGE,
  TELEGRAM_POPUP_CLOSED_CHECK_MS,
  type TelegramPopup,
} from "../telegram/openTelegramPopup.ts";
export {
  TELEGRAM_INVALID_LAUNCH_PARAMS_MESSAGE,
  TELEGRAM_NOT_INITIALIZED_MESSAGE,
  type TelegramLaunchParams,
  type TelegramProof,
  type TelegramProofOptions,
  transferProofOf,
} from "../telegram/telegramProof.ts";
