import type { Client } from "../client/createClient.ts";
import { type CrossAppWalletOptions, crossAppProvider } from "../crossApp/crossAppProvider.ts";
import { requestCrossAppAction } from "../crossApp/requestCrossAppAction.ts";
import { ClientError } from "../errors/ClientError.ts";
import { INVALID_MESSAGE_MESSAGE } from "./signMessage.ts";

/** Signs `message` (text) with `personal_sign` by the provider app's wallet (spec §4 cross-app). */
export async function crossAppSignMessage(
  client: Client,
  message: string,
  options: CrossAppWalletOptions,
): Promise<string> {
  if (typeof message !== "string" || message === "") {
    throw new ClientError("invalid_input", INVALID_MESSAGE_MESSAGE);
  }
  const { signature } = await requestCrossAppAction(client, {
    appId: crossAppProvider(client, options),
    address: options.address,
    request: { method: "personal_sign", params: [message, options.address] },
  });
  return signature ?? "";
}

export type { CrossAppWalletOptions } from "../crossApp/crossAppProvider.ts";
