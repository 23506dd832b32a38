// Wire types and constants, generated from crates/protocol.
export type {
  AppConfigResponse,
  AuthMode,
  ChainType,
  ClientErrorCode,
  CurrentUserResponse,
  EmailAccount,
  LinkedAccount,
  MfaMethod,
  RecoveryMethod,
  ServerErrorCode,
  SessionResponse,
  SessionUpdateAction,
  User,
  WalletAccount,
} from "../generated/protocol.ts";
export {
  APP_ID_LENGTH,
  CLIENT_ERROR_MESSAGES,
  DIALOG_WIDTH_PX,
  FLOW_CLEAR_DELAY_MS,
  MOBILE_BREAKPOINT_PX,
  MODAL_HEIGHT_COMPACT_PX,
  MODAL_HEIGHT_FULL_PX,
  MODAL_OPEN_DELAY_MS,
  PASSCODE_LENGTH,
  SERVER_ERROR_CODES,
} from "../generated/protocol.ts";
