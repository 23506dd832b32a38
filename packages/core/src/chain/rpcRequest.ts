import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import { REQUEST_TIMEOUT_MS } from "../generated/protocol.ts";
import { ProviderRpcError, RPC_ERROR } from "../wallet/ProviderRpcError.ts";
import type { ChainConfig } from "./ChainConfig.ts";

let nextId = 1;

/**
 * One JSON-RPC call to the chain's RPC with the client's fetch. A JSON-RPC error comes back as a
 * ProviderRpcError with the node's code, message and data; an unreachable or broken RPC as -32603
 * with a message naming the URL. Not retried: a write might have gone through.
 */
export async function rpcRequest<T>(
  client: Client,
  chain: ChainConfig,
  method: string,
  params: readonly unknown[] = [],
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  let status: number;
  let text: string;
  try {
    const send = internals(client).fetch();
    const response = await send(chain.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
      signal: controller.signal,
    });
    status = response.status;
    text = await response.text();
  } catch (cause) {
    const why = controller.signal.aborted
      ? `timed out after ${REQUEST_TIMEOUT_MS} ms`
      : "could not be reached";
    throw new ProviderRpcError(RPC_ERROR.internal, `The RPC of ${chain.name} (${chain.rpcUrl}) ${why}.`, {
      cause,
    });
  } finally {
    clearTimeout(timer);
  }
  let body: { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } };
  try {
    body = JSON.parse(text);
  } catch {
    throw new ProviderRpcError(
      RPC_ERROR.internal,
      `The RPC of ${chain.name} (${chain.rpcUrl}) answered HTTP ${status} with a body that is not JSON.`,
    );
  }
  if (body?.error) {
    const { code, message, data } = body.error;
    throw new ProviderRpcError(
      typeof code === "number" ? code : RPC_ERROR.internal,
      typeof message === "string" ? message : `${method} failed on ${chain.name}.`,
      data,
    );
  }
  if (!body || !("result" in body)) {
    throw new ProviderRpcError(
      RPC_ERROR.internal,
      `The RPC of ${chain.name} (${chain.rpcUrl}) answered HTTP ${status} without a result.`,
    );
  }
  return body.result as T;
}
