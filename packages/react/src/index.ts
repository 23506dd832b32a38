export { PrivyErrorCode, type PrivyErrorCodeValue } from "./errors/PrivyErrorCode";
export type { LoginCompleteParams } from "./hooks/toLoginComplete";
export { useIdentityToken } from "./hooks/useIdentityToken";
export { type UseLoginOptions, useLogin } from "./hooks/useLogin";
export {
  type LoginWithEmailState,
  type UseLoginWithEmailOptions,
  useLoginWithEmail,
} from "./hooks/useLoginWithEmail";
export { type UseLogoutOptions, useLogout } from "./hooks/useLogout";
export { type UsePrivyReturn, usePrivy } from "./hooks/usePrivy";
export type { PrivyConfig, SupportedChain, ThemePreference } from "./provider/PrivyConfig";
export { PrivyProvider, type PrivyProviderProps } from "./provider/PrivyProvider";
