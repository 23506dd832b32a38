// The external-wallet hooks against the real test wallets (EIP-6963 provider on a viem account, Wallet
// Standard ed25519 wallet) and core's scripted HTTP server.
import {
  APP_ID,
  makeUser,
  type ScriptedApp,
  type ScriptedServer,
  scriptApp,
  startScriptedServer,
} from "@symbolon/core/testing";
import {
  controlOn,
  DEV_ETHEREUM_KEY,
  DEV_SOLANA_KEY,
  installTestWallets,
  type TestWalletControl,
} from "@symbolon/test-wallets";
import { act, fireEvent, renderHook, screen, waitFor, within } from "@testing-library/react";
import { type ReactNode, useContext } from "react";
import { getAddress, stringToHex, verifyMessage } from "viem";
import { beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { PrivyContext } from "../provider/PrivyContext";
import { PrivyProvider } from "../provider/PrivyProvider";
import type { LoginCompleteParams } from "./toLoginComplete";
import { useActiveWallet } from "./useActiveWallet";
import { useConnectOrCreateWallet } from "./useConnectOrCreateWallet";
import { useConnectWallet } from "./useConnectWallet";
import { useLoginWithSiwe } from "./useLoginWithSiwe";
import { usePrivy } from "./usePrivy";
import { useSolanaWallets, useWallets } from "./useWallets";

let control: TestWalletControl;
let address: `0x${string}`;

beforeAll(() => {
  installTestWallets({
    ethereum: { privateKey: DEV_ETHEREUM_KEY, storage: null },
    solana: { secretKey: DEV_SOLANA_KEY },
  });
  control = controlOn(window);
  address = control.address as `0x${string}`;
});

const mainnet = {
  id: 1,
  name: "Ethereum",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: ["http://127.0.0.1:1"] } },
};

/** Scripts SIWE/SIWS: init answers a nonce, authenticate and link a session / the user with the wallet. */
function scriptWallets(server: ScriptedServer, app: ScriptedApp) {
  for (const prefix of ["siwe", "siws"]) {
    server.on(`POST /api/v1/${prefix}/init`, () => ({ json: { nonce: "nonceAbcdef12" } }));
    server.on(`POST /api/v1/${prefix}/authenticate`, (hit) => {
      const wallet = walletAccount((hit.body as { message: string }).message.split("\n")[1] ?? "", prefix);
      app.user = makeUser({ linked_accounts: [wallet] });
      return { json: app.issue({ is_new_user: true }) };
    });
  }
}

function walletAccount(walletAddress: string, prefix: string) {
  return {
    type: "wallet" as const,
    id: null,
    address: walletAddress,
    chain_type: prefix === "siwe" ? ("ethereum" as const) : ("solana" as const),
    wallet_client_type: prefix === "siwe" ? "symbolon_test_wallet" : "symbolon_test_solana_wallet",
    connector_type: prefix === "siwe" ? "injected" : "solana_adapter",
    wallet_index: null,
    recovery_method: null,
    imported: false,
    delegated: false,
    verified_at: 1,
    first_verified_at: 1,
    latest_verified_at: 2,
  };
}

async function setup() {
  const server = await startScriptedServer();
  onTestFinished(() => server.close());
  const app = scriptApp(server);
  scriptWallets(server, app);
  const completed: LoginCompleteParams[] = [];
  const connected: Array<string | undefined> = [];
  const wrapper = ({ children }: { children: ReactNode }) => (
    <PrivyProvider appId={APP_ID} apiUrl={server.url} config={{ supportedChains: [mainnet] }}>
      {children}
    </PrivyProvider>
  );
  const hook = renderHook(
    () => ({
      context: useContext(PrivyContext),
      privy: usePrivy(),
      siwe: useLoginWithSiwe({ onComplete: (params) => completed.push(params) }),
      wallets: useWallets(),
      solana: useSolanaWallets(),
      active: useActiveWallet(),
      connect: useConnectWallet({ onSuccess: ({ wallet }) => connected.push(wallet?.address) }),
      connectOrCreate: useConnectOrCreateWallet(),
    }),
    { wrapper },
  );
  await waitFor(() => expect(hook.result.current.context?.client?.store.getState().ready).toBe(true));
  const client = hook.result.current.context?.client;
  if (!client) throw new Error("no client");
  onTestFinished(async () => {
    control.reject = false;
    await (window as unknown as { ethereum: { request(a: unknown): Promise<unknown> } }).ethereum.request({
      method: "wallet_revokePermissions",
      params: [{ eth_accounts: {} }],
    });
  });
  return { server, client, completed, connected, current: () => hook.result.current };
}

describe("useLoginWithSiwe (headless)", () => {
  it("generateSiweMessage → the app's wallet signs → loginWithSiwe logs in; onComplete names the wallet account", async () => {
    const { current, completed, server } = await setup();
    let message = "";
    await act(async () => {
      message = await current().siwe.generateSiweMessage({ address, chainId: 1 });
    });
    expect(current().siwe.state).toEqual({ status: "awaiting-signature" });
    expect(message.split("\n")[1]).toBe(getAddress(address));
    const provider = (window as unknown as { ethereum: { request(a: unknown): Promise<unknown> } }).ethereum;
    await provider.request({ method: "eth_requestAccounts" });
    const signature = (await provider.request({
      method: "personal_sign",
      params: [stringToHex(message), address],
    })) as `0x${string}`;
    await act(() => current().siwe.loginWithSiwe({ message, signature, walletClientType: "metamask" }));
    expect(current().siwe.state).toEqual({ status: "done" });
    expect(current().privy.authenticated).toBe(true);
    const body = server.hitsOf("POST /api/v1/siwe/authenticate")[0]?.body as Record<string, string>;
    expect(body).toMatchObject({
      message,
      signature,
      chainId: "eip155:1",
      walletClientType: "metamask",
      connectorType: "injected",
    });
    expect(await verifyMessage({ address, message, signature })).toBe(true);
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({
      isNewUser: true,
      loginMethod: "siwe",
      loginAccount: { type: "wallet", address },
    });
  });
});

describe("useWallets with external wallets", () => {
  it("lists a connected wallet with its EIP-1193 provider; loginOrLink signs in with it, then it is linked; disconnect forgets it", async () => {
    const { current, client } = await setup();
    const { connectWallet } = await import("@symbolon/core");
    await act(() => connectWallet(client, { walletId: "dev.symbolon.testwallet" }));
    await waitFor(() => expect(current().wallets.wallets).toHaveLength(1));
    const wallet = current().wallets.wallets[0];
    expect(wallet).toMatchObject({
      address,
      chainId: "eip155:1",
      walletClientType: "symbolon_test_wallet",
      connectorType: "injected",
      linked: false,
      walletIndex: null,
    });
    const provider = await wallet?.getEthereumProvider();
    expect(await provider?.request({ method: "eth_accounts" })).toEqual([address]);
    expect(current().active.wallet?.address).toBe(address);

    await act(() => wallet?.loginOrLink() ?? Promise.resolve());
    expect(current().privy.authenticated).toBe(true);
    await waitFor(() => expect(current().wallets.wallets[0]?.linked).toBe(true));

    await act(() => current().wallets.wallets[0]?.disconnect() ?? Promise.resolve());
    expect(current().wallets.wallets).toEqual([]);
  });

  it("useSolanaWallets lists the Solana wallet; useActiveWallet follows setActiveWallet", async () => {
    const { current, client } = await setup();
    const { connectWallet } = await import("@symbolon/core");
    await act(() => connectWallet(client, { walletId: "dev.symbolon.testwallet" }));
    await act(() => connectWallet(client, { walletId: "solana:symbolon_test_solana_wallet" }));
    await waitFor(() => expect(current().solana.wallets).toHaveLength(1));
    const solana = current().solana.wallets[0];
    expect(solana).toMatchObject({
      address: control.solanaAddress,
      chainId: "solana:mainnet",
      connectorType: "solana_adapter",
    });
    const signature = await solana?.signMessage(new TextEncoder().encode("hello"));
    expect(signature?.length).toBe(64);
    expect(current().active.wallet?.address).toBe(address);
    await act(() => current().active.setActiveWallet(solana ?? ""));
    expect(current().active.wallet?.address).toBe(control.solanaAddress);
  });
});

describe("useConnectWallet / useConnectOrCreateWallet", () => {
  it("connectWallet() opens the wallet list; picking a wallet connects it without signing in and calls onSuccess", async () => {
    const { current, connected, server } = await setup();
    act(() => current().connect.connectWallet());
    const dialog = await screen.findByRole("dialog");
    fireEvent.click(
      await within(dialog).findByRole("button", { name: /^Symbolon Test Wallet/ }, { timeout: 3000 }),
    );
    await waitFor(() => expect(connected).toEqual([address]), { timeout: 5000 });
    expect(current().privy.authenticated).toBe(false);
    expect(server.hitsOf("POST /api/v1/siwe/init")).toHaveLength(0);
    expect(current().wallets.wallets.map((w) => w.address)).toEqual([address]);
  });

  it("connectOrCreateWallet() needs a signed-out user: signed in, it only warns", async () => {
    const { current, client } = await setup();
    const { connectWallet, loginWithSiwe } = await import("@symbolon/core");
    await act(() => connectWallet(client, { walletId: "dev.symbolon.testwallet" }));
    await act(() => loginWithSiwe(client));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    act(() => current().connectOrCreate.connectOrCreateWallet());
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("signed-out"));
    expect(current().context?.controller?.getState().open).toBe(false);
  });
});
