// The signing methods the host may ask for (docs/wallet.md `privy:wallets:rpc`). Runs on an already
// unlocked wallet: no network, no storage.
import { FrameError } from "./frameError.ts";
import type { Signer } from "./wallets.ts";

export interface RpcRequest {
  method: string;
  params: unknown[];
}

const SUPPORTED = new Set(["personal_sign", "eth_signTypedData_v4", "eth_signTransaction"]);

/** The `{method, params}` of a request, checked before any unlocking happens. */
export function parseRpcRequest(request: unknown): RpcRequest {
  const { method, params } = (request ?? {}) as { method?: unknown; params?: unknown };
  if (typeof method !== "string" || (params !== undefined && !Array.isArray(params))) {
    throw new FrameError("invalid_input", "Invalid request: expected {method, params}");
  }
  if (!SUPPORTED.has(method)) {
    throw new FrameError("embedded_wallet_request_error", `Unsupported method: ${method}`);
  }
  return { method, params: params ?? [] };
}

/** Signs `request` with the signer's key (its wallet index, whose address is `address`). */
export function signRpc({ wallet, index, address }: Signer, { method, params }: RpcRequest): string {
  switch (method) {
    case "personal_sign": {
      const [message, from] = params;
      if (typeof message !== "string") {
        throw new FrameError("invalid_input", "personal_sign expects params [message, address]");
      }
      checkAddress(from, address);
      // Like viem and Privy: a 0x-hex message is bytes, anything else is text.
      return wallet.personalSign(index, message, /^0x[0-9a-fA-F]*$/.test(message) ? "hex" : "utf-8");
    }
    case "eth_signTypedData_v4": {
      const [from, typedData] = params;
      if (typeof typedData !== "string" && (typeof typedData !== "object" || typedData === null)) {
        throw new FrameError("invalid_input", "eth_signTypedData_v4 expects params [address, typedData]");
      }
      checkAddress(from, address);
      return wallet.signTypedData(index, typeof typedData === "string" ? typedData : toJson(typedData));
    }
    default: {
      const [transaction] = params;
      if (typeof transaction !== "object" || transaction === null || Array.isArray(transaction)) {
        throw new FrameError("invalid_input", "eth_signTransaction expects params [transaction]");
      }
      return wallet.signTransaction(index, toJson(transaction)).raw;
    }
  }
}

/** A params address, when given, must be the wallet the request is for. */
function checkAddress(given: unknown, address: string): void {
  if (typeof given === "string" && given.toLowerCase() !== address.toLowerCase()) {
    throw new FrameError("invalid_input", `Address ${given} does not match the wallet ${address}`);
  }
}

/** JSON for the wasm parser; bigints (structured clone keeps them) become decimal strings. */
function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === "bigint" ? item.toString() : item));
}
