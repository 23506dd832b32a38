// Actions: plain functions over a client (wagmi style).
export { acceptTerms } from "../actions/acceptTerms.ts";
export { type CreateWalletOptions, createWallet } from "../actions/createWallet.ts";
export {
  type ExportWalletHandle,
  type ExportWalletOptions,
  exportWallet,
} from "../actions/exportWallet.ts";
export { fetchUser } from "../actions/fetchUser.ts";
export { getAccessToken } from "../actions/getAccessToken.ts";
export { initialize } from "../actions/initialize.ts";
export {
  type LoginResult,
  type LoginWithEmailCodeParameters,
  loginWithEmailCode,
} from "../actions/loginWithEmailCode.ts";
export { logout } from "../actions/logout.ts";
export { refreshSession } from "../actions/refreshSession.ts";
export { resetEmailFlow } from "../actions/resetEmailFlow.ts";
export { type SendEmailCodeParameters, sendEmailCode } from "../actions/sendEmailCode.ts";
// Signing and sending are in `@symbolon/core/wallet` (they need viem); their types are here.
export type { WalletActionOptions } from "../actions/signMessage.ts";
export type { TypedData } from "../actions/signTypedData.ts";
