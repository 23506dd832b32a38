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
export { createMemoryStorage } from "../storage/createMemoryStorage.ts";
export type { KeyValueStorage } from "../storage/KeyValueStorage.ts";
export type { Listener, Store } from "../store/createStore.ts";
