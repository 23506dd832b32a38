import type { SymbolonError } from "../errors/SymbolonError.ts";
import type { ChainType, FrameErrorBody, FrameEvent } from "../generated/protocol.ts";

// The envelope of the wallet frame's messages (docs/wallet.md "Frame messages"). The events, their
// data and answers are the generated protocol types (crates/protocol frame.rs), shared with the frame.
export type {
  EntropyAnswer,
  FrameEvent,
  FrameUserAnswer,
  RpcAnswer,
  WalletCreatedAnswer,
} from "../generated/protocol.ts";

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
  error?: FrameErrorBody;
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

/** Where creating, unlocking or recovering one embedded wallet stands. */
export interface EmbeddedWalletState {
  status: EmbeddedWalletStatus;
  error: SymbolonError | null;
}

/** The chains the user has embedded wallets on (Ethereum so far). */
export type EmbeddedChainType = Extract<ChainType, "ethereum">;

/**
 * One embedded wallet of the signed-in user, as the client tracks it: one chain's entropy, from
 * which its HD wallets (index 0, 1, …, the user's linked accounts) all derive.
 */
export interface EmbeddedWallet {
  chainType: EmbeddedChainType;
  /** The wallet frame's name of the entropy: the address of its index 0 (null until known). */
  entropyId: string | null;
  /** Creating, unlocking or recovering it (a new object on each change). */
  state: EmbeddedWalletState;
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
