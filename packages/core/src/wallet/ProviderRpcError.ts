/**
 * An EIP-1193 provider error: a numeric JSON-RPC / EIP-1193 code (4001 rejected, 4200 unsupported
 * method, 4902 unknown chain, -32602 invalid params, …), a message, and the node's `data` when it sent one.
 */
export class ProviderRpcError extends Error {
  code: number;
  data?: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "ProviderRpcError";
    this.code = code;
    if (data !== undefined) this.data = data;
  }
}

/** Whether `e` is a {@link ProviderRpcError}. */
export function isProviderRpcError(e: unknown): e is ProviderRpcError {
  return e instanceof ProviderRpcError;
}

/** EIP-1193 and JSON-RPC codes the provider uses. */
export const RPC_ERROR = {
  userRejected: 4001,
  unsupportedMethod: 4200,
  unrecognizedChain: 4902,
  invalidParams: -32602,
  internal: -32603,
} as const;

/** Spec §5: the message for a chain that is not in the config. */
export function unsupportedChainMessage(chainId: number | bigint): string {
  return `Chain ID ${chainId} is not supported. It must be added to the config.supportedChains property of the PrivyProvider.`;
}
