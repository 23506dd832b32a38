// TODO(protocol): the server helper adds these to crates/protocol (gen-ts); import them from
// ../generated/protocol.ts then and delete this file. Names and fields follow spec §7.
import type { AuthMode } from "../generated/protocol.ts";

/** Spec §9 sign-in message statement. TODO(protocol): use the generated constant. */
export const SIGN_IN_STATEMENT =
  "By signing, you are proving you own this wallet and logging in. This does not initiate a transaction or cost any fees.";

/** `POST /siwe/init` and `/siws/init`. */
export interface WalletInitRequest {
  address: string;
  token?: string;
}

/** Their answer. */
export interface WalletInitResponse {
  nonce: string;
}

/** `POST /siwe/link` (and the authenticate body without `mode`). */
export interface SiweLinkRequest {
  message: string;
  signature: string;
  /** CAIP-2, `eip155:N`. */
  chainId: string;
  walletClientType: string;
  connectorType: string;
}

/** `POST /siwe/authenticate`. */
export interface SiweAuthenticateRequest extends SiweLinkRequest {
  mode: AuthMode;
}

/** `POST /siws/link`. */
export interface SiwsLinkRequest {
  message: string;
  /** base64 of the 64-byte ed25519 signature. */
  signature: string;
  walletClientType: string;
  connectorType: string;
  /** Spec §7: `plain` unless the wallet signed a transaction-wrapped message. */
  message_type?: "plain";
}

/** `POST /siws/authenticate`. */
export interface SiwsAuthenticateRequest extends SiwsLinkRequest {
  mode: AuthMode;
}
