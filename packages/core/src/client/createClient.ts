import { ClientError } from "../errors/ClientError.ts";
import type { SymbolonError } from "../errors/SymbolonError.ts";
import { APP_ID_LENGTH, type AppConfigResponse, type User } from "../generated/protocol.ts";
import type { KeyValueStorage } from "../storage/KeyValueStorage.ts";
import { createStore, type Store } from "../store/createStore.ts";
import { registerInternals } from "./internals.ts";

/** How a {@link Client} is set up. */
export interface ClientOptions {
  /** The app id: exactly 25 characters. */
  appId: string;
  /** Sent as `privy-client-id` when set. */
  clientId?: string;
  /** Server base URL, e.g. `http://localhost:8787`; the client appends `/api/v1`. */
  apiUrl: string;
  /** Default: `window.localStorage` when present, else in-memory. */
  storage?: KeyValueStorage;
  /** Default: `globalThis.fetch`, resolved at call time. */
  fetch?: typeof fetch;
  /** Cross-tab sync over `BroadcastChannel` and `storage` events (default: true in browsers). */
  broadcast?: boolean;
  /** Waits between retries; injectable so tests need not wait real seconds. Default: `setTimeout`. */
  sleep?: (ms: number) => Promise<void>;
}

/** Email code flow status (spec §4). */
export type EmailFlowStatus =
  | "initial"
  | "sending-code"
  | "awaiting-code-input"
  | "submitting-code"
  | "done"
  | "error";

/** Where the email code flow is; `email` survives errors so the user can retry. */
export interface EmailFlowState {
  status: EmailFlowStatus;
  email: string | null;
  error: SymbolonError | null;
}

/** Everything the UI renders from. */
export interface ClientState {
  /** False until `initialize()` settled the user (fetched or known absent). */
  ready: boolean;
  authenticated: boolean;
  /** Server form of the user (snake_case); `formatUser` gives the client form. */
  user: User | null;
  identityToken: string | null;
  appConfig: AppConfigResponse | null;
  emailFlow: EmailFlowState;
  /** The last error met while initialising or restoring the session, if any. */
  error: SymbolonError | null;
}

/** A client bound to one app and one server. */
export interface Client {
  readonly options: ClientOptions;
  readonly store: Store<ClientState>;
  /** Stops timers, channels and listeners. */
  destroy(): void;
}

/** The email flow before anything happened. */
export const initialEmailFlow: EmailFlowState = { status: "initial", email: null, error: null };

/** Creates a client. Touches no browser global: channels and storage are set up lazily. */
export function createClient(options: ClientOptions): Client {
  if (typeof options.appId !== "string" || options.appId.length !== APP_ID_LENGTH) {
    // Spec §5: the app id is a string of exactly 25 characters.
    throw new ClientError("invalid_input", `App ID must be a string of exactly ${APP_ID_LENGTH} characters.`);
  }
  if (typeof options.apiUrl !== "string" || options.apiUrl === "") {
    throw new ClientError("invalid_input", "apiUrl must be the base URL of the server.");
  }
  const store = createStore<ClientState>({
    ready: false,
    authenticated: false,
    user: null,
    identityToken: null,
    appConfig: null,
    emailFlow: initialEmailFlow,
    error: null,
  });
  const client: Client = {
    options: { ...options },
    store,
    destroy: () => internals.destroy(),
  };
  const internals = registerInternals(client);
  return client;
}
