import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import { SIWE_STATEMENT, type SiweInitRequest, type SiweInitResponse } from "../generated/protocol.ts";
import { apiRequest } from "../http/apiRequest.ts";

/** Parameters of {@link generateSiweMessage}. */
export interface GenerateSiweMessageParameters {
  address: string;
  /** The chain the wallet is on (default: the client's active chain). */
  chainId?: number;
}

/** Parameters of {@link generateSiwsMessage}. */
export interface GenerateSiwsMessageParameters {
  /** base58 public key. */
  address: string;
}

/**
 * `POST /siwe/init {address}` for a nonce, then the EIP-4361 message (viem's `createSiweMessage`) for
 * this page: domain = `location.host`, uri = `location.origin`, the spec's statement (§9).
 */
export async function generateSiweMessage(
  client: Client,
  params: GenerateSiweMessageParameters,
): Promise<string> {
  const [{ createSiweMessage }, { getAddress }] = await Promise.all([import("viem/siwe"), import("viem")]);
  const address = getAddress(params.address);
  const { nonce } = await init(client, "/siwe/init", address);
  const { host, origin } = pageLocation();
  return createSiweMessage({
    address,
    chainId: params.chainId ?? client.store.getState().activeChainId,
    domain: host,
    uri: origin,
    nonce,
    statement: SIWE_STATEMENT,
    version: "1",
    issuedAt: new Date(),
  });
}

/** `POST /siws/init {address}`, then the Sign-In With Solana message text for this page. */
export async function generateSiwsMessage(
  client: Client,
  params: GenerateSiwsMessageParameters,
): Promise<string> {
  const { nonce } = await init(client, "/siws/init", params.address);
  const { host, origin } = pageLocation();
  return siwsMessageText({ domain: host, address: params.address, uri: origin, nonce, issuedAt: new Date() });
}

/** The Sign-In With Solana text (the EIP-4361 layout with "Solana account"; chain id `mainnet`). */
export function siwsMessageText(fields: {
  domain: string;
  address: string;
  uri: string;
  nonce: string;
  issuedAt: Date;
  chainId?: string;
}): string {
  return [
    `${fields.domain} wants you to sign in with your Solana account:`,
    fields.address,
    "",
    SIWE_STATEMENT,
    "",
    `URI: ${fields.uri}`,
    "Version: 1",
    `Chain ID: ${fields.chainId ?? "mainnet"}`,
    `Nonce: ${fields.nonce}`,
    `Issued At: ${fields.issuedAt.toISOString()}`,
  ].join("\n");
}

async function init(client: Client, path: string, address: string): Promise<SiweInitResponse> {
  const body: SiweInitRequest = { address };
  return apiRequest<SiweInitResponse>(client, "POST", path, { body });
}

function pageLocation(): { host: string; origin: string } {
  const location = globalThis.location;
  if (!location?.host)
    throw new ClientError("invalid_input", "Signing in with a wallet needs a browser page.");
  return { host: location.host, origin: location.origin };
}
