import { stringToHex } from "viem";
import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import { defaultWalletAddress } from "../wallet/defaultWalletAddress.ts";
import type { WalletUiOptions } from "../wallet/types.ts";
import { expectAddress } from "../wallet/validateParams.ts";
import { walletRequest } from "../wallet/walletRequest.ts";

/** Options shared by the signing actions. */
export interface WalletActionOptions {
  /** Default: the user's first embedded wallet. */
  address?: string;
  uiOptions?: WalletUiOptions;
}

/** Spec §5 message for an empty or non-string message. */
export const INVALID_MESSAGE_MESSAGE = "Message must be a non-empty string";

/** Signs `message` (UTF-8 text) with `personal_sign` (EIP-191) after the user confirmed. */
export async function signMessage(
  client: Client,
  { message }: { message: string },
  options: WalletActionOptions = {},
): Promise<{ signature: string }> {
  if (typeof message !== "string" || message === "") {
    throw new ClientError("invalid_input", INVALID_MESSAGE_MESSAGE);
  }
  const address = expectAddress("address", options.address ?? defaultWalletAddress(client));
  // Sent as hex so a text that happens to look like hex is still signed as the text.
  const signature = await walletRequest(
    client,
    address,
    { method: "personal_sign", params: [stringToHex(message), address] },
    options.uiOptions,
  );
  return { signature: signature as string };
}
