// The Solana test wallet: a Wallet Standard wallet (registered with @wallet-standard/wallet) whose ed25519 key the
// test holds. Features: standard:connect, standard:disconnect, standard:events, solana:signMessage.
import { ed25519 } from "@noble/curves/ed25519";
import { base58, hex } from "@scure/base";
import type { Wallet, WalletAccount } from "@wallet-standard/base";
import { registerWallet } from "@wallet-standard/wallet";
import { controlOn, rejects, type TestWalletControl } from "./control.ts";
import { ProviderRpcError, RpcErrorCode } from "./errors.ts";
import { SOLANA_ICON } from "./icons.ts";

export const TEST_SOLANA_WALLET_NAME = "Symbolon Test Solana Wallet";
export const SOLANA_CHAINS = ["solana:mainnet", "solana:devnet"] as const;

export interface SolanaTestWalletOptions {
  /** The ed25519 private key: a 32-byte seed, as hex (with or without 0x) or bytes. */
  secretKey: string | Uint8Array;
}

type Events = { change: (properties: { accounts?: readonly WalletAccount[] }) => void };

export interface SolanaSignMessageInput {
  account: WalletAccount;
  message: Uint8Array;
}

/** The wallet object apps see through Wallet Standard. */
export type TestSolanaWallet = Wallet & { readonly address: string };

/** Builds the wallet; `control` is the page's switchboard (see control.ts). */
export function createTestSolanaWallet(
  options: SolanaTestWalletOptions,
  control: TestWalletControl = controlOn({}),
): TestSolanaWallet {
  const seed =
    typeof options.secretKey === "string"
      ? hex.decode(options.secretKey.replace(/^0x/, ""))
      : options.secretKey;
  if (seed.length !== 32) throw new Error("the Solana test wallet's key is a 32-byte ed25519 seed");
  const publicKey = ed25519.getPublicKey(seed);
  const address = base58.encode(publicKey);
  const account: WalletAccount = Object.freeze({
    address,
    publicKey,
    chains: SOLANA_CHAINS,
    features: ["solana:signMessage"] as const,
    label: TEST_SOLANA_WALLET_NAME,
  });
  let accounts: readonly WalletAccount[] = [];
  const listeners: { [E in keyof Events]: Set<Events[E]> } = { change: new Set() };
  control.solanaAddress = address;

  const prompt = (feature: string) => {
    control.requests.push(feature);
    if (rejects(control, feature)) throw new ProviderRpcError(RpcErrorCode.userRejected);
  };
  const setAccounts = (next: readonly WalletAccount[]) => {
    accounts = next;
    for (const listener of [...listeners.change]) listener({ accounts });
  };

  return {
    version: "1.0.0",
    name: TEST_SOLANA_WALLET_NAME,
    icon: SOLANA_ICON,
    chains: SOLANA_CHAINS,
    address,
    get accounts() {
      return accounts;
    },
    features: {
      "standard:connect": {
        version: "1.0.0",
        // A silent connect (an app restoring a session) only succeeds once the user has approved.
        connect: async (input?: { silent?: boolean }) => {
          if (!input?.silent) {
            prompt("standard:connect");
            if (accounts.length === 0) setAccounts([account]);
          }
          return { accounts };
        },
      },
      "standard:disconnect": {
        version: "1.0.0",
        disconnect: async () => {
          control.requests.push("standard:disconnect");
          if (accounts.length) setAccounts([]);
        },
      },
      "standard:events": {
        version: "1.0.0",
        on: <E extends keyof Events>(event: E, listener: Events[E]) => {
          listeners[event]?.add(listener);
          return () => listeners[event]?.delete(listener);
        },
      },
      "solana:signMessage": {
        version: "1.0.0",
        signMessage: async (...inputs: SolanaSignMessageInput[]) => {
          prompt("solana:signMessage");
          return inputs.map(({ account: who, message }) => {
            if (who.address !== address || !accounts.includes(account))
              throw new ProviderRpcError(RpcErrorCode.unauthorized);
            control.messages.push(new TextDecoder().decode(message));
            return { signedMessage: message, signature: ed25519.sign(message, seed) };
          });
        },
      },
    },
  };
}

/** Registers the wallet with the page's Wallet Standard apps and fills `window.symbolonTestWallet.solanaAddress`. */
export function installSolanaTestWallet(
  options: SolanaTestWalletOptions,
  target: Window & typeof globalThis = window,
): TestSolanaWallet {
  const wallet = createTestSolanaWallet(options, controlOn(target));
  registerWallet(wallet);
  return wallet;
}
