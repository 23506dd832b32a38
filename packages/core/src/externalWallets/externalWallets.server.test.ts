// @vitest-environment jsdom
// @vitest-environment-options {"url": "http://localhost:1/"}
// SIWE and SIWS against the real server binary (tools/stack: the binary, an app made with its CLI, SQLite),
// signed by the real test wallets in a page at the app's allowed origin.
import {
  controlOn,
  DEV_ETHEREUM_KEY,
  DEV_SOLANA_KEY,
  installTestWallets,
  type TestWalletControl,
} from "@symbolon/test-wallets";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initialize } from "../actions/initialize.ts";
import { logout } from "../actions/logout.ts";
import { transferAccount } from "../actions/transferAccount.ts";
import { type Client, createClient } from "../client/createClient.ts";
import { isApiError } from "../errors/ApiError.ts";
import { transferData } from "../errors/transferData.ts";
import { createMemoryStorage } from "../storage/createMemoryStorage.ts";
import { ORIGIN, type RealStack, startRealStack } from "../test/realStack.ts";
import { connectWallet } from "./connectWallet.ts";
import { linkWithSiwe, linkWithSiws, loginWithSiwe, loginWithSiws, unlinkWallet } from "./siwe.ts";

let stack: RealStack;
let control: TestWalletControl;
const clients: Client[] = [];

const fetchFromPage: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set("origin", ORIGIN);
  return fetch(input, { ...init, headers });
};

async function newClient(): Promise<Client> {
  const client = createClient({
    appId: stack.appId,
    apiUrl: stack.apiUrl,
    storage: createMemoryStorage(),
    fetch: fetchFromPage,
    broadcast: false,
    sleep: async () => {},
  });
  clients.push(client);
  await initialize(client);
  return client;
}

beforeAll(async () => {
  expect(window.location.origin).toBe(ORIGIN);
  installTestWallets({
    ethereum: { privateKey: DEV_ETHEREUM_KEY, storage: null },
    solana: { secretKey: DEV_SOLANA_KEY },
  });
  control = controlOn(window);
  stack = await startRealStack();
}, 90_000);
afterAll(async () => {
  for (const client of clients) client.destroy();
  await stack?.stop();
});

describe("external wallets against the real server", { timeout: 30_000 }, () => {
  it("SIWE signs a new user up, then the same user in again", async () => {
    const client = await newClient();
    await connectWallet(client, { walletId: "dev.symbolon.testwallet" });
    const first = await loginWithSiwe(client);
    expect(first.isNewUser).toBe(true);
    expect(first.user.linked_accounts).toContainEqual(
      expect.objectContaining({
        type: "wallet",
        address: control.address,
        chain_type: "ethereum",
        wallet_client_type: "symbolon_test_wallet",
        connector_type: "injected",
      }),
    );
    await logout(client);
    const again = await loginWithSiwe(client);
    expect(again.isNewUser).toBe(false);
    expect(again.user.id).toBe(first.user.id);
  });

  it("a rejected signature leaves the user signed out; nothing reaches the server's authenticate", async () => {
    const client = await newClient();
    await connectWallet(client, { walletId: "dev.symbolon.testwallet" });
    control.reject = ["personal_sign"];
    try {
      await expect(loginWithSiwe(client)).rejects.toMatchObject({ code: "user_rejected_request" });
    } finally {
      control.reject = false;
    }
    expect(client.store.getState().authenticated).toBe(false);
  });

  it("links a Solana wallet (SIWS) to the SIWE user, then unlinks it; SIWS alone then signs up a new user", async () => {
    const client = await newClient();
    await connectWallet(client, { walletId: "dev.symbolon.testwallet" });
    const { user } = await loginWithSiwe(client);
    await connectWallet(client, { walletId: "solana:symbolon_test_solana_wallet" });
    const linked = await linkWithSiws(client);
    expect(linked.user.id).toBe(user.id);
    expect(linked.user.linked_accounts).toContainEqual(
      expect.objectContaining({ type: "wallet", address: control.solanaAddress, chain_type: "solana" }),
    );
    const unlinked = await unlinkWallet(client, control.solanaAddress ?? "");
    expect(
      unlinked.user.linked_accounts.some((a) => a.type === "wallet" && a.address === control.solanaAddress),
    ).toBe(false);
    await logout(client);
    const solana = await loginWithSiws(client);
    expect(solana.isNewUser).toBe(true);
    expect(solana.user.id).not.toBe(user.id);
  });

  it("linking a wallet another user signed up with offers a transfer; transferAccount moves it", async () => {
    const client = await newClient();
    await connectWallet(client, { walletId: "dev.symbolon.testwallet" });
    const owner = await loginWithSiwe(client);
    await logout(client);
    await connectWallet(client, { walletId: "solana:symbolon_test_solana_wallet" });
    const other = await loginWithSiws(client);
    expect(other.user.id).not.toBe(owner.user.id);
    const refusal = await linkWithSiwe(client, { address: control.address ?? "" }).catch((e: unknown) => e);
    expect(isApiError(refusal) && refusal.code).toBe("account_transfer_required");
    const data = transferData(refusal);
    expect(data?.account_type).toBe("wallet");
    const moved = await transferAccount(client, {
      accountType: "wallet",
      nonce: data?.nonce ?? "",
      subject: control.address ?? "",
      metadata: { walletClientType: "symbolon_test_wallet", connectorType: "injected" },
    });
    expect(moved.user.id).toBe(other.user.id);
    expect(moved.user.linked_accounts).toContainEqual(
      expect.objectContaining({ type: "wallet", address: control.address, chain_type: "ethereum" }),
    );
  });

  it("the server refuses a message for another chain than the one sent with a 4xx, not a 5xx", async () => {
    const client = await newClient();
    await connectWallet(client, { walletId: "dev.symbolon.testwallet" });
    const { generateSiweMessage } = await import("./signInMessage.ts");
    const message = await generateSiweMessage(client, { address: control.address ?? "", chainId: 1 });
    const provider = await client.store.getState().externalWallets.connected[0]?.getEthereumProvider();
    const { toHex } = await import("viem");
    const signature = (await provider?.request({
      method: "personal_sign",
      params: [toHex(message), control.address as `0x${string}`],
    })) as string;
    const refusal = await loginWithSiwe(client, { message, signature, chainId: 5 }).catch((e: unknown) => e);
    expect(isApiError(refusal) && refusal.status).toBeGreaterThanOrEqual(400);
    expect(isApiError(refusal) && refusal.status).toBeLessThan(500);
  });
});
