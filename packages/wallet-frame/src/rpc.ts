// The shape of a `privy:wallets:rpc` request (docs/wallet.md); each chain signs its own methods
// (chains/*.ts).
import type { ChainSigner } from "./chains/ChainSigner.ts";
import { FrameError } from "./frameError.ts";

export interface RpcRequest {
  method: string;
  params: unknown[];
}

/** The `{method, params}` of a request for `chain`, checked before any unlocking happens. */
export function parseRpcRequest(request: unknown, chain: ChainSigner): RpcRequest {
  const { method, params } = (request ?? {}) as { method?: unknown; params?: unknown };
  if (typeof method !== "string" || (params !== undefined && !Array.isArray(params))) {
    throw new FrameError("invalid_input", "Invalid request: expected {method, params}");
  }
  if (!chain.methods.has(method)) {
    throw new FrameError("embedded_wallet_request_error", `Unsupported method: ${method}`);
  }
  return { method, params: params ?? [] };
}
