import { type PrivyConfig, PrivyProvider } from "@symbolon/react";
import { useMemo, useState } from "react";
import { DEMO_PASSKEY_SETTINGS } from "./account/passkeySettings";
import { somniaTestnet, supportedChain } from "./chains";
import { appFor, type Env } from "./env";
import { Landing } from "./Landing";
import { useTheme } from "./theme/useTheme";

const DEMO_PROVIDERS = ["google", "github"] as const;
const NO_PROVIDERS = [] as const;

/** The app: the provider configured from the environment, around the landing page. */
export function App({ env }: { env: Env }) {
  const [theme, setTheme] = useTheme();
  // The same build is also app B (cross-app login with this app) on app B's origin.
  const { appId, isAppB } = appFor(env, window.location.origin);
  const chains = useMemo(() => [somniaTestnet(env.VITE_CHAIN_RPC_URL)], [env]);
  const chain = supportedChain(env.VITE_CHAIN_ID, chains);
  // The host app's own session (custom auth demo): its JWT, while the host user is signed in.
  const [hostToken, setHostToken] = useState<string | null>(null);
  const config = useMemo<PrivyConfig>(
    () => ({
      // The modal follows the page's theme choice; its default accents (light and dark) are the page's.
      appearance: {
        theme,
        landingHeader: "Log in or sign up",
        loginMessage: isAppB
          ? "Sign in with a code sent to your email, or with your Symbolon Demo account."
          : "Sign in with a passkey, Google, GitHub or a code sent to your email or phone.",
      },
      loginMethods: ["email", "sms"],
      // Only while the host user is signed in: with no token, the sync would sign out email users.
      ...(hostToken && {
        customAuth: { getCustomAccessToken: () => Promise.resolve(hostToken), isLoading: false },
      }),
      embeddedWallets: { ethereum: { createOnLogin: "users-without-wallets" } },
      passkeys: DEMO_PASSKEY_SETTINGS,
      supportedChains: chains,
      defaultChain: chain,
      // Dev and tests: WalletConnect through the stack's relay and wallet directory stand-in.
      ...(env.VITE_WALLETCONNECT_PROJECT_ID && {
        walletConnectCloudProjectId: env.VITE_WALLETCONNECT_PROJECT_ID,
      }),
      externalWallets: {
        ...(env.VITE_WALLETCONNECT_RELAY_URL && {
          walletConnect: {
            relayUrl: env.VITE_WALLETCONNECT_RELAY_URL,
            ...(!env.VITE_WALLETCONNECT_VERIFY && { verify: false }),
          },
        }),
        ...(env.VITE_WALLET_EXPLORER_URL && { explorerUrl: env.VITE_WALLET_EXPLORER_URL }),
      },
    }),
    [theme, chains, chain, hostToken, isAppB, env],
  );
  return (
    <PrivyProvider appId={appId} apiUrl={env.VITE_PRIVY_API_URL} config={config}>
      <Landing
        appLabel={isAppB ? "App B" : undefined}
        // App B signs in with email and the first app (cross-app); the first app also offers Google and GitHub.
        oauthProviders={isAppB ? NO_PROVIDERS : DEMO_PROVIDERS}
        crossAppProviderId={isAppB ? env.VITE_PRIVY_APP_ID : undefined}
        security={!isAppB}
        theme={theme}
        onThemeChange={setTheme}
        // The faucet needs the local chain (anvil signs for its dev account), never the public RPC.
        faucetRpcUrl={env.VITE_LOCAL_FAUCET ? env.VITE_CHAIN_RPC_URL : undefined}
        hostAuthUrl={env.VITE_HOST_AUTH_URL}
        onHostToken={setHostToken}
      />
    </PrivyProvider>
  );
}
