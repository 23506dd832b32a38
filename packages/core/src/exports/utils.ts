// Pure helpers for UIs: user formatting, amounts and input validation (spec §3, §5).
export { formatUnits } from "../utils/formatUnits.ts";
export { formatUser } from "../utils/formatUser.ts";
export { isSecurePage } from "../utils/isSecurePage.ts";
export type {
  PrivyCrossAppAccount,
  PrivyCustomAuthAccount,
  PrivyEmailAccount,
  PrivyFarcasterAccount,
  PrivyLinkedAccount,
  PrivyOAuthAccount,
  PrivyOAuthKey,
  PrivyPasskeyAccount,
  PrivyPhoneAccount,
  PrivyTelegramAccount,
  PrivyUser,
  PrivyVerification,
  PrivyWalletAccount,
} from "../utils/PrivyUser.ts";
export { INVALID_PHONE_MESSAGE, type ParsedPhone, parsePhone } from "../utils/parsePhone.ts";
export { roundUnits } from "../utils/roundUnits.ts";
export { PLUS_EMAIL_MESSAGE, type ValidateEmailOptions, validateEmail } from "../utils/validateEmail.ts";
export { type PasscodeValidation, validatePasscode } from "../utils/validatePasscode.ts";
