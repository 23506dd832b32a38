import type { ChainConfig } from "../chain/ChainConfig.ts";
import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import { ProviderRpcError, RPC_ERROR } from "./ProviderRpcError.ts";
import type { WalletUiOptions } from "./types.ts";

/** What the user is asked to approve before the wallet signs. */
export interface WalletConfirmationRequest {
  kind: "sign-message" | "sign-typed-data" | "sign-transaction" | "send-transaction";
  address: string;
  chain: ChainConfig;
  /** `sign-message`: the message as text (hex when it is not UTF-8). */
  message?: string;
  /** `sign-typed-data`: the EIP-712 object. */
  typedData?: unknown;
  /** Transactions: the filled transaction, with value, gas and fees as bigint. */
  transaction?: Record<string, unknown>;
  /**
   * Transactions: the wallet's balance on the chain in wei when it could be read, so the screen can
   * tell before signing that the amount and the network fee do not fit in it.
   */
  balance?: bigint;
  uiOptions?: { title?: string; description?: string; buttonText?: string };
}

/** Shows the request to the user; resolves true when they approve. */
export type WalletConfirmationHandler = (request: WalletConfirmationRequest) => Promise<boolean>;

/** Registers (or with null removes) the confirmation step, e.g. the React modal's `confirm`. */
export function setWalletConfirmation(client: Client, handler: WalletConfirmationHandler | null): void {
  internals(client).walletConfirmation = handler;
}

/** The message of a refused confirmation (EIP-1193 4001). */
export const USER_REJECTED_MESSAGE = "User rejected the request.";

/**
 * Asks the registered handler unless wallet UIs are off for the app (`showWalletUIs: false`) or for
 * this call (`uiOptions.showWalletUIs: false`); no handler means headless, so it proceeds.
 * A refusal throws ProviderRpcError 4001.
 */
export async function confirmWalletAction(
  client: Client,
  request: Omit<WalletConfirmationRequest, "uiOptions">,
  uiOptions: WalletUiOptions | undefined,
): Promise<void> {
  const handler = internals(client).walletConfirmation;
  if (handler === null) return;
  if (client.options.embeddedWallets?.showWalletUIs === false || uiOptions?.showWalletUIs === false) return;
  const { showWalletUIs: _, ...texts } = uiOptions ?? {};
  const approved = await handler(Object.keys(texts).length > 0 ? { ...request, uiOptions: texts } : request);
  if (!approved) throw new ProviderRpcError(RPC_ERROR.userRejected, USER_REJECTED_MESSAGE);
}
