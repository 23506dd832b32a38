import { english, generateMnemonic, mnemonicToAccount } from "viem/accounts";
import { initialize } from "../actions/initialize.ts";
import type { Client, ClientOptions } from "../client/createClient.ts";
import { createMemoryStorage } from "../storage/createMemoryStorage.ts";
import {
  embeddedWalletAccount,
  type FakeWalletFrame,
  type FakeWalletFrameOptions,
  installFakeWalletFrame,
} from "./fakeWalletFrame.ts";
import { makeClient, type ScriptedTest, storeSession } from "./harness.ts";

/** A signed-in client (session restored from storage) whose wallet frame is the fake one. */
export interface WalletTestClient {
  client: Client;
  frame: FakeWalletFrame;
  /** The user's first embedded wallet, when `withWallet`. */
  address: `0x${string}`;
}

/**
 * Signs a user in (like a previous page load), optionally owning an embedded wallet at index 0 of a fresh
 * mnemonic, and initialises the client with the fake frame installed.
 */
export async function signedInWalletClient(
  scripted: ScriptedTest,
  setup: {
    withWallet?: boolean;
    signedIn?: boolean;
    options?: Partial<ClientOptions>;
    frame?: FakeWalletFrameOptions;
  } = {},
): Promise<WalletTestClient> {
  const mnemonic = generateMnemonic(english);
  const address = mnemonicToAccount(mnemonic, { addressIndex: 0 }).address;
  if (setup.withWallet ?? true) {
    scripted.app.user = {
      ...scripted.app.user,
      linked_accounts: [
        ...scripted.app.user.linked_accounts.filter((account) => account.type !== "wallet"),
        embeddedWalletAccount(address, 0),
      ],
    };
  }
  const storage = createMemoryStorage();
  if (setup.signedIn ?? true) storeSession(storage, scripted.app.issue());
  const client = makeClient(scripted.server, { storage, ...setup.options });
  const frame = installFakeWalletFrame(client, { mnemonic, ...setup.frame });
  await initialize(client);
  return { client, frame, address };
}
