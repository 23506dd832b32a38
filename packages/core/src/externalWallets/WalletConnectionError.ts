import { SymbolonError, type SymbolonErrorOptions } from "../errors/SymbolonError.ts";
import { UNABLE_TO_CONNECT_MESSAGE } from "./types.ts";

/** Codes of {@link WalletConnectionError}: the EIP-1193 codes of spec §8 by name, else generic. */
export type WalletConnectionErrorCode =
  | "user_rejected_request"
  | "unauthorized"
  | "unsupported_method"
  | "unrecognized_chain"
  | "wallet_not_connected"
  | "generic_connect_wallet_error";

const BY_RPC_CODE: Record<number, WalletConnectionErrorCode> = {
  4001: "user_rejected_request",
  4100: "unauthorized",
  4200: "unsupported_method",
  4902: "unrecognized_chain",
};

/** A wallet refused or failed a request; `rpcCode` is the provider's numeric code when it gave one. */
export class WalletConnectionError extends SymbolonError {
  override code: WalletConnectionErrorCode;
  rpcCode: number | null;

  constructor(
    code: WalletConnectionErrorCode,
    message: string,
    rpcCode: number | null = null,
    options: SymbolonErrorOptions = {},
  ) {
    super(code, message, options);
    this.name = "WalletConnectionError";
    this.code = code;
    this.rpcCode = rpcCode;
  }

  /** Whether the user said no in the wallet (EIP-1193 4001). */
  get userRejected(): boolean {
    return this.code === "user_rejected_request";
  }
}

/** Whether `e` is a {@link WalletConnectionError}. */
export function isWalletConnectionError(e: unknown): e is WalletConnectionError {
  return e instanceof WalletConnectionError;
}

/** The provider's numeric code of `e` (EIP-1193 errors are plain objects with `code`), else null. */
export function rpcCodeOf(e: unknown): number | null {
  if (typeof e !== "object" || e === null) return null;
  const code = (e as { code?: unknown }).code;
  if (typeof code === "number") return code;
  // viem and some wallets wrap the provider's error.
  const cause = (e as { cause?: unknown }).cause;
  return cause !== undefined && cause !== e ? rpcCodeOf(cause) : null;
}

/** Wraps whatever a wallet threw as a {@link WalletConnectionError} with `message` (spec §8 wording). */
export function toWalletError(e: unknown, message = UNABLE_TO_CONNECT_MESSAGE): WalletConnectionError {
  if (isWalletConnectionError(e)) return e;
  const rpcCode = rpcCodeOf(e);
  const code = (rpcCode !== null && BY_RPC_CODE[rpcCode]) || "generic_connect_wallet_error";
  return new WalletConnectionError(code, message, rpcCode, { cause: e });
}
