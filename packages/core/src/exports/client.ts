// Creating a client and the shape of its state.
export {
  type Client,
  type ClientOptions,
  type ClientState,
  type CreateOnLogin,
  createClient,
  type EmailFlowState,
  type EmailFlowStatus,
  type EmbeddedWalletsOptions,
} from "../client/createClient.ts";
export { createMemoryStorage } from "../storage/createMemoryStorage.ts";
export type { KeyValueStorage } from "../storage/KeyValueStorage.ts";
export type { Listener, Store } from "../store/createStore.ts";
