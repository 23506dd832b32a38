import type { Client } from "../client/createClient.ts";
import { isApiError } from "../errors/ApiError.ts";
import { asSymbolonError } from "../errors/asSymbolonError.ts";
import { ClientError } from "../errors/ClientError.ts";
import type { SiweLinkRequest, SiwsLinkRequest, User } from "../generated/protocol.ts";
import { type AccountChangeResult, accountRequest, requireUser } from "../session/accountRequest.ts";
import { ignoredLogin, type LoginResult, loginWithSession } from "../session/loginWithSession.ts";
import { requireConnected } from "./connectedWallets.ts";
import { updateExternalWallets } from "./runtime.ts";
import { generateSiweMessage, generateSiwsMessage } from "./signInMessage.ts";
import { sameAddress } from "./storedConnections.ts";
import {
  EMBEDDED_LOGIN_MESSAGE,
  EMBEDDED_UNLINK_MESSAGE,
  type ExternalChainType,
  type SiweFlow,
  type SiweParameters,
} from "./types.ts";
import { toWalletError } from "./WalletConnectionError.ts";

/** Signs in with a connected Ethereum wallet (spec §4 SIWE flow, `POST /siwe/authenticate`). */
export async function loginWithSiwe(client: Client, params: SiweParameters = {}): Promise<LoginResult> {
  const ignored = ignoredLogin(client);
  if (ignored) return ignored;
  return signIn(client, "ethereum", params, (body) =>
    loginWithSession(client, "/siwe/authenticate", { ...body, mode: params.mode ?? "login-or-sign-up" }),
  );
}

/** Links a connected Ethereum wallet to the signed-in user (`POST /siwe/link`). */
export async function linkWithSiwe(
  client: Client,
  params: SiweParameters = {},
): Promise<AccountChangeResult> {
  requireUser(client);
  return signIn(client, "ethereum", params, (body) => linkRequest(client, "/siwe/link", body));
}

/** Signs in with a connected Solana wallet (SIWS, `POST /siws/authenticate`). */
export async function loginWithSiws(client: Client, params: SiweParameters = {}): Promise<LoginResult> {
  const ignored = ignoredLogin(client);
  if (ignored) return ignored;
  return signIn(client, "solana", params, (body) =>
    loginWithSession(client, "/siws/authenticate", { ...body, mode: params.mode ?? "login-or-sign-up" }),
  );
}

/** Links a connected Solana wallet to the signed-in user (`POST /siws/link`). */
export async function linkWithSiws(
  client: Client,
  params: SiweParameters = {},
): Promise<AccountChangeResult> {
  requireUser(client);
  return signIn(client, "solana", params, (body) => linkRequest(client, "/siws/link", body));
}

/**
 * Unlinks an external wallet (`POST /siwe/unlink` or `/siws/unlink {address}`); embedded wallets
 * cannot be unlinked (spec §5), and the server never lets the last way in go.
 */
export async function unlinkWallet(client: Client, address: string): Promise<AccountChangeResult> {
  const user = requireUser(client);
  const account = walletAccountOf(user, address);
  if (account?.connector_type === "embedded") throw new ClientError("invalid_input", EMBEDDED_UNLINK_MESSAGE);
  const solana = account ? account.chain_type === "solana" : !address.startsWith("0x");
  return accountRequest(client, solana ? "/siws/unlink" : "/siwe/unlink", { address });
}

type SignedBody = SiweLinkRequest | SiwsLinkRequest;

/**
 * The flow both chains share: generating-message (init → nonce → message), awaiting-signature (the
 * wallet signs; or the caller brought `message` and `signature`), submitting-signature, done | error.
 */
async function signIn<T>(
  client: Client,
  chainType: ExternalChainType,
  params: SiweParameters,
  submit: (body: SignedBody) => Promise<T>,
): Promise<T> {
  const setFlow = (flow: Partial<SiweFlow>) =>
    updateExternalWallets(client, { siwe: { status: "initial", chainType, error: null, ...flow } });
  try {
    setFlow({ status: "generating-message" });
    const body = await signedBody(client, chainType, params, () => setFlow({ status: "awaiting-signature" }));
    setFlow({ status: "submitting-signature" });
    const result = await submit(body);
    setFlow({ status: "done" });
    return result;
  } catch (e) {
    const error = asSymbolonError(e);
    setFlow({ status: "error", error });
    throw error;
  }
}

async function signedBody(
  client: Client,
  chainType: ExternalChainType,
  params: SiweParameters,
  awaitingSignature: () => void,
): Promise<SignedBody> {
  // Headless: the app had its own wallet sign a message of `generateSiweMessage`.
  if (params.message !== undefined && params.signature !== undefined) {
    const address = params.address ?? addressInMessage(params.message);
    refuseEmbedded(client, address);
    const meta = {
      walletClientType: params.walletClientType ?? "unknown",
      connectorType: params.connectorType ?? "injected",
    };
    if (chainType === "solana") return { message: params.message, signature: params.signature, ...meta };
    const chainId =
      params.chainId ?? chainIdInMessage(params.message) ?? client.store.getState().activeChainId;
    return { message: params.message, signature: params.signature, chainId: `eip155:${chainId}`, ...meta };
  }
  const wallet = requireConnected(client, chainType, params.address);
  refuseEmbedded(client, wallet.address);
  const meta = { walletClientType: wallet.walletClientType, connectorType: wallet.connectorType };
  if (chainType === "solana") {
    const message = await generateSiwsMessage(client, { address: wallet.address });
    awaitingSignature();
    const signature = await wallet.signMessage(new TextEncoder().encode(message));
    return { message, signature: toBase64(signature), ...meta };
  }
  const chainId = Number(wallet.chainId.split(":")[1]);
  const message = await generateSiweMessage(client, { address: wallet.address, chainId });
  awaitingSignature();
  const provider = await wallet.getEthereumProvider();
  const { toHex } = await import("viem");
  let signature: string;
  try {
    signature = (await provider.request({
      method: "personal_sign",
      params: [toHex(message), wallet.address as `0x${string}`],
    })) as string;
  } catch (e) {
    throw toWalletError(e, "Unable to sign message");
  }
  return { message, signature, chainId: `eip155:${chainId}`, ...meta };
}

/** Link answers `account_transfer_required` with the proof kept, so a transfer can send it again. */
async function linkRequest(client: Client, path: string, body: SignedBody): Promise<AccountChangeResult> {
  try {
    return await accountRequest(client, path, body);
  } catch (error) {
    if (isApiError(error) && error.code === "account_transfer_required" && typeof error.data === "object")
      Object.assign(error.data ?? {}, body);
    throw error;
  }
}

/** Spec §5: embedded wallets never log in or link (the server refuses too). */
function refuseEmbedded(client: Client, address: string): void {
  const user = client.store.getState().user;
  if (user && walletAccountOf(user, address)?.connector_type === "embedded")
    throw new ClientError("invalid_input", EMBEDDED_LOGIN_MESSAGE);
}

function walletAccountOf(user: User, address: string) {
  for (const account of user.linked_accounts)
    if (account.type === "wallet" && sameAddress(account.address, address)) return account;
  return undefined;
}

/** The address line of an EIP-4361 / SIWS message (its second line). */
function addressInMessage(message: string): string {
  return message.split("\n")[1]?.trim() ?? "";
}

function chainIdInMessage(message: string): number | null {
  const match = /^Chain ID: (\d+)$/m.exec(message);
  return match ? Number(match[1]) : null;
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
