import type { Client } from "../client/createClient.ts";
import { defaultWalletAddress } from "../wallet/defaultWalletAddress.ts";
import { expectAddress } from "../wallet/validateParams.ts";
import { walletRequest } from "../wallet/walletRequest.ts";
import type { WalletActionOptions } from "./signMessage.ts";

/** EIP-712 typed data (domain, types, primaryType, message). */
export interface TypedData {
  domain?: Record<string, unknown>;
  types: Record<string, ReadonlyArray<{ name: string; type: string }>>;
  primaryType: string;
  message: Record<string, unknown>;
}

/** Signs EIP-712 typed data (`eth_signTypedData_v4`) after the user confirmed. */
export async function signTypedData(
  client: Client,
  typedData: TypedData,
  options: WalletActionOptions = {},
): Promise<{ signature: string }> {
  const address = expectAddress("address", options.address ?? defaultWalletAddress(client));
  const signature = await walletRequest(
    client,
    address,
    { method: "eth_signTypedData_v4", params: [address, typedData] },
    options.uiOptions,
  );
  return { signature: signature as string };
}
