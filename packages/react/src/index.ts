export { PrivyErrorCode, type PrivyErrorCodeValue } from "./errors/PrivyErrorCode";
export type { LoginCompleteParams } from "./hooks/toLoginComplete";
export { useCreateWallet } from "./hooks/useCreateWallet";
export { useEmbeddedWalletState } from "./hooks/useEmbeddedWalletState";
export { useExportWallet } from "./hooks/useExportWallet";
export { useIdentityToken } from "./hooks/useIdentityToken";
export { type UseLoginOptions, useLogin } from "./hooks/useLogin";
export {
  type LoginWithEmailState,
  type UseLoginWithEmailOptions,
  useLoginWithEmail,
} from "./hooks/useLoginWithEmail";
export { type UseLogoutOptions, useLogout } from "./hooks/useLogout";
export { type UsePrivyReturn, usePrivy } from "./hooks/usePrivy";
export { useSendTransaction } from "./hooks/useSendTransaction";
export { useSignMessage, type WalletCallOptions } from "./hooks/useSignMessage";
export { useSignTypedData } from "./hooks/useSignTypedData";
export type { WalletActionCallbacks } from "./hooks/useWalletCallbacks";
export { type ConnectedWallet, useWallets } from "./hooks/useWallets";
export type { PrivyConfig, SupportedChain, ThemePreference } from "./provider/PrivyConfig";
export { PrivyProvider, type PrivyProviderProps } from "./provider/PrivyProvider";
