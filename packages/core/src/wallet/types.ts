import type { SymbolonError } from "../errors/SymbolonError.ts";
import type { User } from "../generated/protocol.ts";

// Wire shapes of the wallet frame (docs/wallet.md "Frame messages"): the events the published
// react-auth 3.x client posts, which this client posts too.
// TODO(protocol): move these into crates/protocol once the frame messages are generated from it.

/** A request posted to the wallet frame. */
export interface FrameRequest {
  id: string;
  event: FrameEvent;
  data: unknown;
}

/** An answer of the wallet frame: `data` on success, `error` on failure. */
export interface FrameAnswer {
  id: string;
  event: string;
  data?: unknown;
  error?: { type: string; message: string };
}

/** The frame events the host sends. */
export type FrameEvent =
  | "privy:iframe:ready"
  | "privy:wallet:create"
  | "privy:wallets:add"
  | "privy:wallets:connect"
  | "privy:wallets:recover"
  | "privy:wallets:rpc"
  | "privy:wallet:export"
  | "privy:mfa:verify"
  | "privy:mfa:init-enrollment"
  | "privy:mfa:submit-enrollment"
  | "privy:mfa:unenroll"
  | "privy:mfa:clear"
  | "privy:auth:unlink-passkey";

/** `privy:mfa:submit-enrollment`, `privy:mfa:unenroll` and `privy:auth:unlink-passkey` answer this. */
export interface FrameUserAnswer {
  user: User;
}

/** `privy:wallet:create` and `privy:wallets:add` answer this. */
export interface WalletCreatedAnswer {
  address: string;
  walletIndex: number;
  user: User;
}

/**
 * `privy:wallets:connect` and `privy:wallets:recover` answer this; connect fails with
 * `wallet_not_on_device` when the device share is missing or stale (then recover).
 */
export interface EntropyAnswer {
  entropyId: string;
}

/** `privy:wallets:rpc` answers this: the signature or the signed raw transaction in `response.data`. */
export interface RpcAnswer {
  response: { method: string; data: string };
}

/** Where the embedded wallet of the signed-in user is (shown as "Creating your wallet…" etc.). */
export type EmbeddedWalletStatus =
  | "idle"
  | "loading-frame"
  | "creating"
  | "connecting"
  | "recovering"
  | "ready"
  | "error";

/** The embedded wallet part of the client state. */
export interface EmbeddedWalletState {
  status: EmbeddedWalletStatus;
  error: SymbolonError | null;
}

/** A JSON-RPC request as EIP-1193 providers take it. */
export interface RequestArguments {
  method: string;
  params?: readonly unknown[] | object;
}

/** The events an {@link EIP1193Provider} emits. */
export type ProviderEvent = "chainChanged" | "accountsChanged";

/** An EIP-1193 provider for one embedded wallet. */
export interface EIP1193Provider {
  request(args: RequestArguments): Promise<unknown>;
  on(event: ProviderEvent, listener: (value: never) => void): void;
  removeListener(event: ProviderEvent, listener: (value: never) => void): void;
}

/** Texts the confirmation screen may show instead of its defaults. */
export interface WalletUiOptions {
  title?: string;
  description?: string;
  buttonText?: string;
  /** False skips the confirmation for this call (headless). */
  showWalletUIs?: boolean;
}
