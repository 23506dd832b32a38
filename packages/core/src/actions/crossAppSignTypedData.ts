import type { Client } from "../client/createClient.ts";
import { type CrossAppWalletOptions, crossAppProvider } from "../crossApp/crossAppProvider.ts";
import { requestCrossAppAction } from "../crossApp/requestCrossAppAction.ts";
import type { TypedData } from "./signTypedData.ts";

/** Signs EIP-712 typed data (`eth_signTypedData_v4`) by the provider app's wallet. */
export async function crossAppSignTypedData(
  client: Client,
  typedData: TypedData,
  options: CrossAppWalletOptions,
): Promise<string> {
  const { signature } = await requestCrossAppAction(client, {
    appId: crossAppProvider(client, options),
    address: options.address,
    request: { method: "eth_signTypedData_v4", params: [options.address, typedData] },
  });
  return signature ?? "";
}
