// Actions: plain functions over a client (wagmi style).
export { acceptTerms } from "../actions/acceptTerms.ts";
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
