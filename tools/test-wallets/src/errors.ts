/** EIP-1193 / EIP-1474 error codes a wallet answers with (spec §8 "wallet-connection codes"). */
export const RpcErrorCode = {
  userRejected: 4001,
  unauthorized: 4100,
  unsupportedMethod: 4200,
  unrecognizedChain: 4902,
  invalidParams: -32602,
} as const;

const MESSAGES: Record<number, string> = {
  4001: "User rejected the request.",
  4100: "The requested method and/or account has not been authorized by the user.",
  4200: "The Provider does not support the requested method.",
  4902: "Unrecognized chain ID.",
  [-32602]: "Invalid method parameter(s).",
};

/** The error an EIP-1193 provider rejects with: a message and a numeric `code` (and optional `data`). */
export class ProviderRpcError extends Error {
  readonly code: number;
  readonly data?: unknown;
  constructor(code: number, message = MESSAGES[code] ?? "Unknown error.", data?: unknown) {
    super(message);
    this.name = "ProviderRpcError";
    this.code = code;
    if (data !== undefined) this.data = data;
  }
}
