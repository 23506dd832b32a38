import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import { unsupportedChainMessage } from "../wallet/ProviderRpcError.ts";
import type { ChainConfig } from "./ChainConfig.ts";

/** The configured chain `chainId` (default: the active one), else the spec §5 error. */
export function requireChain(client: Client, chainId?: number): ChainConfig {
  const id = chainId ?? client.store.getState().activeChainId;
  const chain = client.options.chains?.find((candidate) => candidate.id === id);
  if (chain === undefined) throw new ClientError("invalid_input", unsupportedChainMessage(id));
  return chain;
}
