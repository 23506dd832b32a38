export {
  ApiError,
  errorIndicatesMaxMfaRetries,
  errorIndicatesMfaTimeout,
  errorIndicatesMfaVerificationFailed,
  getActiveAccessToken as getAccessToken,
  isApiError,
  transferData,
} from "@symbolon/core";
export { PrivyErrorCode, type PrivyErrorCodeValue } from "./errors/PrivyErrorCode";
export { toAccountErrorCode } from "./errors/toAccountErrorCode";
export type { LoginCompleteParams, LoginMethod } from "./hooks/toLoginComplete";
export type { AccountFlowCallbacks } from "./hooks/useAccountFlow";
// External wallets (issue 11): connect, SIWE/SIWS, the active wallet.
export { useActiveWallet } from "./hooks/useActiveWallet";
export { useConnectOrCreateWallet } from "./hooks/useConnectOrCreateWallet";
export { type UseConnectWalletOptions, useConnectWallet } from "./hooks/useConnectWallet";
export { useCreateWallet } from "./hooks/useCreateWallet";
export { type CrossAppSignOptions, useCrossAppAccounts } from "./hooks/useCrossAppAccounts";
export { useCustomAuth } from "./hooks/useCustomAuth";
// Delegated actions: the app's back end signs with a delegated wallet, within the app's policies.
export {
  type DelegateWalletOptions,
  type DelegationUiOptions,
  useDelegatedActions,
  useHeadlessDelegatedActions,
} from "./hooks/useDelegatedActions";
export { useEmbeddedWalletState } from "./hooks/useEmbeddedWalletState";
export { useExportWallet } from "./hooks/useExportWallet";
export { useFarcasterSigner } from "./hooks/useFarcasterSigner";
export { useGetAccessTokenForProvider } from "./hooks/useGetAccessTokenForProvider";
export { useGuestAccounts } from "./hooks/useGuestAccounts";
export { useIdentityToken } from "./hooks/useIdentityToken";
export { useLinkAccount } from "./hooks/useLinkAccount";
export { type UseLinkJwtAccountOptions, useLinkJwtAccount } from "./hooks/useLinkJwtAccount";
export { type UseLinkWithPasskeyOptions, useLinkWithPasskey } from "./hooks/useLinkWithPasskey";
export { useLinkWithSiwe } from "./hooks/useLinkWithSiwe";
export { useLinkWithSiws } from "./hooks/useLinkWithSiws";
export { type UseLoginOptions, useLogin } from "./hooks/useLogin";
export { useLoginToMiniApp } from "./hooks/useLoginToMiniApp";
export {
  type LoginWithEmailState,
  type UseLoginWithEmailOptions,
  useLoginWithEmail,
} from "./hooks/useLoginWithEmail";
export {
  type LoginWithFarcasterState,
  type UseLoginWithFarcasterOptions,
  useLoginWithFarcaster,
} from "./hooks/useLoginWithFarcaster";
export {
  type UseLoginWithFarcasterV2Options,
  useLoginWithFarcasterV2,
} from "./hooks/useLoginWithFarcasterV2";
export {
  type InitOAuthParameters,
  type LoginWithOAuthState,
  type UseLoginWithOAuthOptions,
  useLoginWithOAuth,
} from "./hooks/useLoginWithOAuth";
export { type UsePasskeyLoginOptions, useLoginWithPasskey } from "./hooks/useLoginWithPasskey";
export { useLoginWithSiwe } from "./hooks/useLoginWithSiwe";
export { useLoginWithSiws } from "./hooks/useLoginWithSiws";
export {
  type LoginWithSmsState,
  type UseLoginWithSmsOptions,
  useLoginWithSms,
} from "./hooks/useLoginWithSms";
export {
  type LoginWithTelegramState,
  type UseLoginWithTelegramOptions,
  useLoginWithTelegram,
} from "./hooks/useLoginWithTelegram";
export { type UseLogoutOptions, useLogout } from "./hooks/useLogout";
export { useAuthMfa, useMfa } from "./hooks/useMfa";
export { useAuthMfaEnrollment, useMfaEnrollment } from "./hooks/useMfaEnrollment";
export { useModalStatus } from "./hooks/useModalStatus";
export { type OAuthTokens, type UseOAuthTokensOptions, useOAuthTokens } from "./hooks/useOAuthTokens";
export { type UsePrivyReturn, usePrivy } from "./hooks/usePrivy";
export { type UseRegisterMfaListenerOptions, useRegisterMfaListener } from "./hooks/useRegisterMfaListener";
export { useSendTransaction } from "./hooks/useSendTransaction";
export { type AddSessionSignersOptions, useSessionSigners } from "./hooks/useSessionSigners";
export type {
  SignedWalletMessage,
  SignInWithWalletState,
  UseLinkWithWalletOptions,
  UseLoginWithWalletOptions,
} from "./hooks/useSignInWithWallet";
export { useSignMessage, type WalletCallOptions } from "./hooks/useSignMessage";
export { useSignTypedData } from "./hooks/useSignTypedData";
export { useSignupWithPasskey } from "./hooks/useSignupWithPasskey";
export {
  type SubscribeToJwtAuthWithFlagParameters,
  useSubscribeToJwtAuthWithFlag,
} from "./hooks/useSubscribeToJwtAuthWithFlag";
export {
  type SyncJwtBasedAuthStateParameters,
  useSyncJwtBasedAuthState,
} from "./hooks/useSyncJwtBasedAuthState";
export { useToken } from "./hooks/useToken";
export { useUpdateAccount, useUpdateEmail, useUpdatePhone } from "./hooks/useUpdateAccount";
export { useUser } from "./hooks/useUser";
export type { WalletActionCallbacks } from "./hooks/useWalletCallbacks";
export {
  type ConnectedSolanaWallet,
  type ConnectedWallet,
  useSolanaWallets,
  useWallets,
} from "./hooks/useWallets";
// How a delegation screen the user closed rejects.
export {
  DELEGATION_DECLINED_MESSAGE,
  REVOKE_CANCELLED_MESSAGE,
} from "./modal/flows/createDelegationFlow";
export type { CustomAuthConfig, PrivyConfig, SupportedChain, ThemePreference } from "./provider/PrivyConfig";
export { PrivyProvider, type PrivyProviderProps } from "./provider/PrivyProvider";
