import { createEnv } from "./lib/createEnv";
import { boolean, optional, string, url } from "./lib/validators";

/** Somnia Testnet, the app's only chain (spec §9). */
export const DEFAULT_CHAIN_ID = "50312";
/** Where the agents back-end listens by default (spec §5). */
export const DEFAULT_AGENTS_API_URL = "http://localhost:8000";
/** Where the Symbolon server listens by default. */
export const DEFAULT_PRIVY_API_URL = "http://localhost:8787";

/** Reads and checks the app's environment (spec §3 "Web app environment", §5). Throws when invalid. */
export function loadEnv(runtimeEnv: Record<string, unknown> = import.meta.env, isServer?: boolean) {
  return createEnv({
    server: {
      PRIVY_APP_SECRET: string(),
    },
    client: {
      VITE_APP_URL: url(),
      VITE_PRIVY_APP_ID: string(),
      VITE_CHAIN_ID: string({ default: DEFAULT_CHAIN_ID }),
      VITE_AGENTS_API_URL: url({ default: DEFAULT_AGENTS_API_URL }),
      VITE_PRIVY_API_URL: url({ default: DEFAULT_PRIVY_API_URL }),
      VITE_CHAIN_RPC_URL: optional(url()),
      // Dev and tests only: the host-auth stand-in that issues the host app's own JWTs (custom auth demo).
      VITE_HOST_AUTH_URL: optional(url()),
      // Dev and tests only: the same build also serves the second demo app ("app B", which logs in with this one
      // through cross-app) on this origin, with this app id.
      VITE_APP_B_URL: optional(url()),
      VITE_PRIVY_APP_B_ID: optional(string()),
      // Dev and tests only: WalletConnect's relay and wallet directory stand-in (tools/stack), and the project id
      // the app uses with it; unset, the public relay and directory, and the app config's project id.
      VITE_WALLETCONNECT_RELAY_URL: optional(url({ protocols: ["ws:", "wss:"] })),
      VITE_WALLET_EXPLORER_URL: optional(url()),
      VITE_WALLETCONNECT_PROJECT_ID: optional(string()),
      // `make dev` only: no WalletConnect Verify (it cannot be reached there; the tests route it to the stand-in).
      VITE_WALLETCONNECT_VERIFY: boolean({ default: true }),
      // Dev and tests only: a "Get test STT" button funded by anvil's unlocked dev account.
      VITE_LOCAL_FAUCET: boolean({ default: false }),
    },
    clientPrefix: "VITE_",
    runtimeEnv,
    isServer,
  });
}

/** The checked environment. */
export type Env = ReturnType<typeof loadEnv>;

/** Which demo app a page at `origin` is: app B on VITE_APP_B_URL's origin (when set), else the main app. */
export function appFor(env: Env, origin: string): { appId: string; isAppB: boolean } {
  const isAppB = Boolean(
    env.VITE_APP_B_URL && env.VITE_PRIVY_APP_B_ID && new URL(env.VITE_APP_B_URL).origin === origin,
  );
  return { appId: isAppB ? (env.VITE_PRIVY_APP_B_ID as string) : env.VITE_PRIVY_APP_ID, isAppB };
}
