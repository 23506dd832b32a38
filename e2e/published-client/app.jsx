// A host app as a customer writes it against the published `@privy-io/react-auth` 3.x (Apache-2.0): the stock
// `<PrivyProvider>` with one extra prop, `apiUrl`, pointed at our server. The bundler maps
// `@privy-io/react-auth` to one installed version (e2e/lib/publishedClient.mjs), so this one file is the page
// for every version under test. Settings come from the address: `?appId=…&apiUrl=…&chainRpc=…`.
//
// The page shows what the tests read (`ready`, `authenticated`, the user and the embedded wallet) and puts the
// hooks' actions on `window.hostApp` for the test to call, as a host app's buttons would.
import {
  PrivyProvider,
  useHeadlessDelegatedActions,
  usePrivy,
  useSignMessage,
  useWallets,
  VERSION,
} from "@privy-io/react-auth";
import { useEffect } from "react";
import { createRoot } from "react-dom/client";

const params = new URLSearchParams(location.search);
const appId = params.get("appId") ?? "";
const apiUrl = params.get("apiUrl") ?? "";
const chainRpc = params.get("chainRpc") ?? "";

/** The stack's local chain (anvil as Somnia Testnet): every RPC call stays on this machine. */
const chain = {
  id: 50312,
  name: "Somnia Testnet (local)",
  nativeCurrency: { name: "Somnia Testnet Token", symbol: "STT", decimals: 18 },
  rpcUrls: { default: { http: [chainRpc] } },
};

/** The configuration a typical host app passes: email login, an embedded wallet for users without one. */
const config = {
  loginMethods: ["email"],
  defaultChain: chain,
  supportedChains: [chain],
  embeddedWallets: { ethereum: { createOnLogin: "users-without-wallets" } },
};

/** Bytes of a UTF-8 string as 0x-hex (what `personal_sign` takes). */
function toHex(text) {
  return `0x${[...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

function Host() {
  const privy = usePrivy();
  const { signMessage } = useSignMessage();
  const delegation = useHeadlessDelegatedActions();
  const { wallets, ready: walletsReady } = useWallets();
  const embedded = wallets.find((w) => w.walletClientType === "privy");

  useEffect(() => {
    window.hostApp = {
      version: VERSION,
      login: () => privy.login(),
      logout: () => privy.logout(),
      createWallet: async () => (await privy.createWallet()).address,
      exportWallet: (address) => privy.exportWallet(address ? { address } : undefined),
      getAccessToken: () => privy.getAccessToken(),
      /** `useSignMessage` without the confirmation screen. */
      signMessage: async (message) =>
        (await signMessage({ message }, { uiOptions: { showWalletUIs: false } })).signature,
      /** The embedded wallet's EIP-1193 provider: `personal_sign`; the provider is kept for later calls. */
      providerSign: async (message) => {
        if (!embedded) throw new Error("no embedded wallet in useWallets()");
        const provider = await embedded.getEthereumProvider();
        window.hostApp.lastProvider = provider;
        return provider.request({ method: "personal_sign", params: [toHex(message), embedded.address] });
      },
      /** Calls the provider kept by `providerSign` (e.g. after logout). */
      oldProviderSign: (message, address) =>
        window.hostApp.lastProvider.request({ method: "personal_sign", params: [toHex(message), address] }),
      lastProvider: window.hostApp?.lastProvider,
      /** Delegated actions without the client's screens: the app's default signers ([delegation] of the app). */
      delegate: (address) => delegation.delegateWallet({ address, chainType: "ethereum" }),
      revokeDelegation: () => delegation.revokeWallets(),
      /** Whether the user's wallet at `address` shows `delegated` (after the client refreshed the user). */
      delegated: (address) =>
        Boolean(
          privy.user?.linkedAccounts.find((a) => a.type === "wallet" && a.address === address)?.delegated,
        ),
    };
  });

  return (
    <main>
      <h1>Host app on @privy-io/react-auth {VERSION}</h1>
      <dl>
        <dt>ready</dt>
        <dd data-testid="ready">{String(privy.ready)}</dd>
        <dt>authenticated</dt>
        <dd data-testid="authenticated">{String(privy.authenticated)}</dd>
        <dt>user</dt>
        <dd data-testid="user-id">{privy.user?.id ?? ""}</dd>
        <dt>email</dt>
        <dd data-testid="user-email">{privy.user?.email?.address ?? ""}</dd>
        <dt>wallet</dt>
        <dd data-testid="wallet-address">{privy.user?.wallet?.address ?? ""}</dd>
        <dt>wallets ready</dt>
        <dd data-testid="wallets-ready">{String(walletsReady)}</dd>
        <dt>embedded wallet in useWallets()</dt>
        <dd data-testid="connected-wallet">{embedded?.address ?? ""}</dd>
      </dl>
      {privy.ready && !privy.authenticated && (
        <button type="button" onClick={() => privy.login()}>
          Log in
        </button>
      )}
    </main>
  );
}

createRoot(document.getElementById("root")).render(
  <PrivyProvider appId={appId} apiUrl={apiUrl} config={config}>
    <Host />
  </PrivyProvider>,
);
