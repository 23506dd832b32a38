import { hexToBytes, isHex, numberToHex } from "viem";
import type { ChainConfig } from "../chain/ChainConfig.ts";
import { requireChain } from "../chain/requireChain.ts";
import { rpcRequest } from "../chain/rpcRequest.ts";
import type { Client } from "../client/createClient.ts";
import { isClientError } from "../errors/ClientError.ts";
import type { User, WalletsRpcData } from "../generated/protocol.ts";
import { withMfaRetry } from "../mfa/withMfaRetry.ts";
import { confirmWalletAction } from "./confirmation.ts";
import { findEmbeddedWallet, type WalletLinkedAccount, walletEntropy } from "./embeddedWallets.ts";
import { fillTransaction, parseTransaction, toRpcTransaction } from "./fillTransaction.ts";
import { walletFrame } from "./frameBridge.ts";
import { ProviderRpcError, RPC_ERROR, unsupportedChainMessage } from "./ProviderRpcError.ts";
import type { RequestArguments, RpcAnswer, WalletUiOptions } from "./types.ts";
import { unlockWallet } from "./unlockWallet.ts";
import { expectAddress, expectSmallQuantity, invalidParams, paramList } from "./validateParams.ts";
import { assertSecurePage, requireAccessToken } from "./walletPreconditions.ts";

/** Calls that only read the chain: forwarded to the active chain's RPC as they are. */
const READ_ONLY_METHODS = new Set([
  "eth_blockNumber",
  "eth_call",
  "eth_estimateGas",
  "eth_feeHistory",
  "eth_gasPrice",
  "eth_getBalance",
  "eth_getBlockByHash",
  "eth_getBlockByNumber",
  "eth_getCode",
  "eth_getLogs",
  "eth_getProof",
  "eth_getStorageAt",
  "eth_getTransactionByHash",
  "eth_getTransactionCount",
  "eth_getTransactionReceipt",
  "eth_maxPriorityFeePerGas",
  "eth_sendRawTransaction",
  "net_version",
  "web3_clientVersion",
]);

/**
 * One EIP-1193 request for the embedded wallet `address`: account and chain questions are answered
 * here, reads go to the chain RPC, signatures to the wallet frame after the user confirmed.
 */
export async function walletRequest(
  client: Client,
  address: `0x${string}`,
  args: RequestArguments,
  uiOptions?: WalletUiOptions,
): Promise<unknown> {
  assertSecurePage();
  const params = paramList(args.params);
  switch (args.method) {
    case "eth_accounts":
    case "eth_requestAccounts":
      return [address];
    case "eth_chainId":
      return numberToHex(client.store.getState().activeChainId);
    case "wallet_switchEthereumChain":
      return switchChain(client, params[0]);
    case "personal_sign":
      return personalSign(client, address, params, uiOptions);
    case "eth_signTypedData_v4":
      return signTypedData(client, address, params, uiOptions);
    case "eth_signTransaction":
    case "eth_sendTransaction":
      return signTransaction(client, address, args.method, params[0], uiOptions);
    default:
      if (READ_ONLY_METHODS.has(args.method)) return rpcRequest(client, chainOf(client), args.method, params);
      throw new ProviderRpcError(
        RPC_ERROR.unsupportedMethod,
        `The method "${args.method}" is not supported by the embedded wallet.`,
      );
  }
}

/** `wallet_switchEthereumChain [{chainId}]`: only configured chains (spec §5), else 4902. */
function switchChain(client: Client, param: unknown): null {
  const chainId = expectSmallQuantity("chainId", (param as { chainId?: unknown } | undefined)?.chainId);
  if (!client.options.chains?.some((chain) => chain.id === chainId)) {
    throw new ProviderRpcError(RPC_ERROR.unrecognizedChain, unsupportedChainMessage(chainId));
  }
  client.store.setState({ activeChainId: chainId });
  return null;
}

async function personalSign(
  client: Client,
  address: `0x${string}`,
  params: readonly unknown[],
  uiOptions: WalletUiOptions | undefined,
): Promise<string> {
  const [message, signer] = params;
  if (typeof message !== "string") invalidParams(`"message" must be a string.`);
  if (signer !== undefined) expectSigner(signer, address);
  await requireOwnWallet(client, address);
  const chain = displayChain(client);
  await confirmWalletAction(
    client,
    { kind: "sign-message", address, chain, message: readableMessage(message) },
    uiOptions,
  );
  return signInFrame(client, address, { method: "personal_sign", params: [message, address] });
}

async function signTypedData(
  client: Client,
  address: `0x${string}`,
  params: readonly unknown[],
  uiOptions: WalletUiOptions | undefined,
): Promise<string> {
  const [signer, raw] = params;
  expectSigner(signer, address);
  const typedData = parseTypedData(raw);
  await requireOwnWallet(client, address);
  const chain = displayChain(client);
  await confirmWalletAction(client, { kind: "sign-typed-data", address, chain, typedData }, uiOptions);
  return signInFrame(client, address, {
    method: "eth_signTypedData_v4",
    params: [address, JSON.stringify(typedData, (_, v) => (typeof v === "bigint" ? v.toString() : v))],
  });
}

async function signTransaction(
  client: Client,
  address: `0x${string}`,
  method: "eth_signTransaction" | "eth_sendTransaction",
  request: unknown,
  uiOptions: WalletUiOptions | undefined,
): Promise<string> {
  const parsed = parseTransaction(request, address);
  await requireOwnWallet(client, address);
  const chain = chainOf(client, parsed.chainId);
  const [transaction, balance] = await Promise.all([
    fillTransaction(client, chain, { ...parsed, from: address }),
    // Shown against amount + fee on the confirmation screen; the send goes on without it.
    rpcRequest<`0x${string}`>(client, chain, "eth_getBalance", [address, "latest"])
      .then((hex) => BigInt(hex))
      .catch(() => undefined),
  ]);
  const kind = method === "eth_sendTransaction" ? "send-transaction" : "sign-transaction";
  await confirmWalletAction(
    client,
    { kind, address, chain, transaction: { ...transaction }, ...(balance !== undefined && { balance }) },
    uiOptions,
  );
  const signed = await signInFrame(client, address, {
    method: "eth_signTransaction",
    params: [toRpcTransaction(transaction)],
  });
  if (method === "eth_signTransaction") return signed;
  return rpcRequest<string>(client, chain, "eth_sendRawTransaction", [signed]);
}

/** Signs in the wallet frame (`privy:wallets:rpc`), unlocking the wallet first when needed. */
async function signInFrame(
  client: Client,
  address: `0x${string}`,
  request: { method: string; params: unknown[] },
): Promise<string> {
  await unlockWallet(client, address);
  const accessToken = await requireAccessToken(client);
  // Read again after the awaits: the user may have changed meanwhile.
  const { user } = client.store.getState();
  const wallet = ownWallet(user, address);
  const answer = await withMfaRetry(client, () =>
    walletFrame(client).request<RpcAnswer>("privy:wallets:rpc", {
      accessToken,
      ...walletEntropy(user, wallet),
      chainType: "ethereum",
      request,
    } satisfies WalletsRpcData),
  );
  return answer.response.data;
}

/** Signing needs a signed-in user who owns `address`. */
async function requireOwnWallet(client: Client, address: `0x${string}`): Promise<void> {
  await requireAccessToken(client);
  ownWallet(client.store.getState().user, address);
}

/** The embedded wallet `address` of `user`; 4100 when it is not one. */
function ownWallet(user: User | null, address: `0x${string}`): WalletLinkedAccount {
  const wallet = findEmbeddedWallet(user, address);
  if (wallet === undefined) {
    throw new ProviderRpcError(4100, `${address} is not an embedded wallet of the signed-in user.`);
  }
  return wallet;
}

function expectSigner(value: unknown, address: `0x${string}`): void {
  if (expectAddress("address", value).toLowerCase() !== address.toLowerCase()) {
    invalidParams(`"address" must be the wallet's address ${address}.`);
  }
}

/** The chain a request goes to: `chainId` when given, else the active one; unconfigured → 4902. */
function chainOf(client: Client, chainId?: number): ChainConfig {
  try {
    return requireChain(client, chainId);
  } catch (e) {
    if (isClientError(e)) throw new ProviderRpcError(RPC_ERROR.unrecognizedChain, e.message);
    throw e;
  }
}

/** The active chain for the confirmation screen; messages can be signed with no chain configured. */
function displayChain(client: Client): ChainConfig {
  const id = client.store.getState().activeChainId;
  return (
    client.options.chains?.find((chain) => chain.id === id) ?? {
      id,
      name: `Chain ${id}`,
      rpcUrl: "",
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    }
  );
}

/** Spec §5: typed data is an EIP-712 object without NaN or Infinity. */
function parseTypedData(raw: unknown): Record<string, unknown> {
  let typedData: unknown = raw;
  if (typeof raw === "string") {
    try {
      typedData = JSON.parse(raw);
    } catch {
      typedData = null;
    }
  }
  const shape = typedData as { types?: unknown; primaryType?: unknown; domain?: unknown; message?: unknown };
  if (
    typeof shape !== "object" ||
    shape === null ||
    typeof shape.types !== "object" ||
    typeof shape.primaryType !== "string" ||
    typeof shape.message !== "object"
  ) {
    invalidParams(`"typedData" must be an EIP-712 object with types, primaryType, domain and message.`);
  }
  if (hasNonFiniteNumber(shape)) invalidParams(`"typedData" must not contain NaN or Infinity.`);
  return shape as Record<string, unknown>;
}

function hasNonFiniteNumber(value: unknown): boolean {
  if (typeof value === "number") return !Number.isFinite(value);
  if (typeof value !== "object" || value === null) return false;
  return Object.values(value).some(hasNonFiniteNumber);
}

/** A personal_sign message as the user should read it: hex decoded when it is UTF-8 text. */
function readableMessage(message: string): string {
  if (!isHex(message, { strict: true }) || message.length % 2 !== 0) return message;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(hexToBytes(message));
  } catch {
    return message;
  }
}
