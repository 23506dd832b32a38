// Creating a client and the shape of its state.

export { getActiveClient, setActiveClient } from "../client/activeClient.ts";
export {
  type Client,
  type ClientOptions,
  type ClientState,
  type CodeFlowStatus,
  type CreateOnLogin,
  type CustomAuthSyncState,
  type CustomAuthSyncStatus,
  createClient,
  type EmailFlowState,
  type EmailFlowStatus,
  type EmbeddedWalletsOptions,
  type SmsFlowState,
} from "../client/createClient.ts";
// External wallets (issue 11): the store slice and its shapes.
export {
  CONNECTOR_INIT_WAIT_MS,
  type ConnectedExternalWallet,
  type ConnectorType,
  type ConnectWalletConnectOptions,
  type ConnectWalletParameters,
  EMBEDDED_LOGIN_MESSAGE,
  EMBEDDED_UNLINK_MESSAGE,
  type ExternalChainType,
  type ExternalWalletsState,
  INJECTED_INIT_WAIT_MS,
  initialExternalWallets,
  type SiweFlow,
  type SiweFlowStatus,
  type SiweParameters,
  type StoredWalletConnection,
  UNABLE_TO_CONNECT_MESSAGE,
  WALLET_CONNECT_ID,
  WALLET_NOT_CONNECTED_MESSAGE,
  type WalletConnection,
  type WalletConnectionStatus,
  type WalletConnectProvider,
  type WalletOption,
} from "../externalWallets/types.ts";
// MFA and passkeys (issue 12): the store slices, options and texts.
export {
  ENROLL_REQUIRES_TOKEN_MESSAGE,
  INVALID_MFA_CODE_MESSAGE,
  type InitMfaEnrollmentParameters,
  initialMfaState,
  MFA_CANCELED_MESSAGE,
  MFA_CODE_NOT_VALID_MESSAGE,
  type MfaEnrollmentStatus,
  type MfaListener,
  type MfaModal,
  type MfaOptions,
  type MfaPendingVerification,
  type MfaState,
  type MfaVerificationStatus,
  type SubmitMfaEnrollmentParameters,
  UNENROLL_REQUIRES_TOKEN_MESSAGE,
} from "../mfa/types.ts";
export {
  initialPasskeyFlow,
  PASSKEY_ENROLLED_IN_MFA_MESSAGE,
  PASSKEY_LIMIT_MESSAGE,
  PASSKEY_REJECTED_MESSAGE,
  PASSKEY_UNKNOWN_ERROR_MESSAGE,
  type PasskeyFlowIntent,
  type PasskeyFlowState,
  type PasskeyFlowStatus,
  type PasskeysOptions,
} from "../passkeys/types.ts";
export { createMemoryStorage } from "../storage/createMemoryStorage.ts";
export type { KeyValueStorage } from "../storage/KeyValueStorage.ts";
export type { Listener, Store } from "../store/createStore.ts";
