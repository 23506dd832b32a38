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
  CLIENT_ERROR_MESSAGES,
  FLOW_CLEAR_DELAY_MS,
  MODAL_OPEN_DELAY_MS,
  PASSCODE_LENGTH,
  SERVER_ERROR_CODES,
} from "../generated/protocol.ts";
