// The injected Ethereum test wallet: an EIP-1193 provider backed by a viem local account whose key the test
// holds, announced by EIP-6963 (and as window.ethereum when the page has none). It answers like a browser wallet
// would, prompts included: the test decides through `window.symbolonTestWallet.reject` whether the "user" accepts.
import {
  createWalletClient,
  defineChain,
  getAddress,
  type Hex,
  hexToString,
  http,
  isAddress,
  isAddressEqual,
  isHex,
  numberToHex,
  type TransactionRequest,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { controlOn, rejects, type TestWalletControl } from "./control.ts";
import { ProviderRpcError, RpcErrorCode } from "./errors.ts";
import { ETHEREUM_ICON } from "./icons.ts";

export const TEST_WALLET_RDNS = "dev.symbolon.testwallet";
export const TEST_WALLET_NAME = "Symbolon Test Wallet";

export interface EthereumTestWalletOptions {
  /** The account's private key (0x + 64 hex). */
  privateKey: Hex;
  /** The chain the wallet starts on; mainnet (1) like a fresh browser wallet. */
  chainId?: number;
  /** Chains the wallet already knows besides mainnet, with the RPC it forwards reads and sends to. */
  chains?: { id: number; rpcUrl?: string }[];
  /** Remembers which origins were allowed to see the account across reloads, like a real wallet. */
  storage?: Pick<Storage, "getItem" | "setItem" | "removeItem"> | null;
}

type Listener = (...args: unknown[]) => void;

export interface TestEthereumProvider {
  readonly isSymbolonTestWallet: true;
  request(args: { method: string; params?: unknown[] | Record<string, unknown> }): Promise<unknown>;
  on(event: string, listener: Listener): TestEthereumProvider;
  once(event: string, listener: Listener): TestEthereumProvider;
  removeListener(event: string, listener: Listener): TestEthereumProvider;
  off(event: string, listener: Listener): TestEthereumProvider;
}

const CONNECTED_KEY = "symbolon-test-wallet:connected";
/** Requests a real wallet shows the user first: these obey the reject switch. */
const PROMPTS = new Set([
  "eth_requestAccounts",
  "wallet_requestPermissions",
  "personal_sign",
  "eth_signTypedData_v4",
  "wallet_switchEthereumChain",
  "wallet_addEthereumChain",
  "eth_sendTransaction",
]);
/** Requests that need the account to be connected first (else 4100). */
const NEED_ACCOUNT = new Set(["personal_sign", "eth_signTypedData_v4", "eth_sendTransaction"]);
/** Read-only JSON-RPC calls forwarded to the current chain's RPC, when the wallet has one. */
const READS = new Set([
  "eth_blockNumber",
  "eth_call",
  "eth_estimateGas",
  "eth_feeHistory",
  "eth_gasPrice",
  "eth_getBalance",
  "eth_getBlockByNumber",
  "eth_getCode",
  "eth_getTransactionByHash",
  "eth_getTransactionCount",
  "eth_getTransactionReceipt",
  "eth_maxPriorityFeePerGas",
]);

/** Builds the provider; `control` is the page's switchboard (see control.ts). */
export function createTestEthereumProvider(
  options: EthereumTestWalletOptions,
  control: TestWalletControl = controlOn({}),
): TestEthereumProvider {
  const account = privateKeyToAccount(options.privateKey);
  const address = getAddress(account.address);
  const rpcUrls = new Map<number, string | undefined>([[1, undefined]]);
  for (const chain of options.chains ?? []) rpcUrls.set(chain.id, chain.rpcUrl);
  let chainId = options.chainId ?? 1;
  rpcUrls.set(chainId, rpcUrls.get(chainId));
  const storage = options.storage ?? null;
  let connected = storage?.getItem(CONNECTED_KEY) === address;
  const listeners = new Map<string, Set<Listener>>();
  control.address = address;
  control.chainId = chainId;

  const emit = (event: string, ...args: unknown[]) => {
    for (const listener of [...(listeners.get(event) ?? [])]) listener(...args);
  };
  const setConnected = (value: boolean) => {
    if (connected === value) return;
    connected = value;
    if (value) storage?.setItem(CONNECTED_KEY, address);
    else storage?.removeItem(CONNECTED_KEY);
    emit("accountsChanged", value ? [address] : []);
  };
  const switchTo = (id: number) => {
    if (id === chainId) return;
    chainId = id;
    control.chainId = id;
    emit("chainChanged", numberToHex(id));
  };
  const ownAddress = (value: unknown) => {
    if (typeof value !== "string" || !isAddress(value, { strict: false })) return false;
    if (!isAddressEqual(value, address)) throw new ProviderRpcError(RpcErrorCode.unauthorized);
    return true;
  };
  const forward = async (method: string, params: unknown) => {
    const rpcUrl = rpcUrls.get(chainId);
    if (!rpcUrl) throw new ProviderRpcError(RpcErrorCode.unsupportedMethod, `No RPC for chain ${chainId}.`);
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: params ?? [] }),
    });
    const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
    if (body.error) throw new ProviderRpcError(body.error.code, body.error.message);
    return body.result;
  };

  const handle = async (method: string, params: unknown[]): Promise<unknown> => {
    switch (method) {
      case "eth_accounts":
        return connected ? [address] : [];
      case "eth_chainId":
        return numberToHex(chainId);
      case "net_version":
        return String(chainId);
      case "eth_requestAccounts":
        setConnected(true);
        return [address];
      case "wallet_requestPermissions":
        setConnected(true);
        return [
          {
            parentCapability: "eth_accounts",
            caveats: [{ type: "restrictReturnedAccounts", value: [address] }],
          },
        ];
      case "wallet_getPermissions":
        return connected ? [{ parentCapability: "eth_accounts" }] : [];
      case "wallet_revokePermissions":
        setConnected(false);
        return null;
      case "personal_sign": {
        // [message, address]; some apps still send the legacy [address, message].
        const [first, second] = params;
        const message = ownAddress(second) ? first : ownAddress(first) ? second : undefined;
        if (typeof message !== "string") throw new ProviderRpcError(RpcErrorCode.invalidParams);
        control.messages.push(isHex(message) ? hexToString(message) : message);
        return account.signMessage({ message: isHex(message) ? { raw: message } : message });
      }
      case "eth_signTypedData_v4": {
        const [who, data] = params;
        if (!ownAddress(who)) throw new ProviderRpcError(RpcErrorCode.invalidParams);
        const typed = typeof data === "string" ? JSON.parse(data) : data;
        if (!typed || typeof typed !== "object") throw new ProviderRpcError(RpcErrorCode.invalidParams);
        return account.signTypedData(typed);
      }
      case "wallet_switchEthereumChain": {
        const id = chainIdParam(params[0]);
        if (!rpcUrls.has(id))
          throw new ProviderRpcError(
            RpcErrorCode.unrecognizedChain,
            `Unrecognized chain ID "${numberToHex(id)}". Try adding the chain using wallet_addEthereumChain first.`,
          );
        switchTo(id);
        return null;
      }
      case "wallet_addEthereumChain": {
        const id = chainIdParam(params[0]);
        const urls = (params[0] as { rpcUrls?: unknown }).rpcUrls;
        const rpcUrl = Array.isArray(urls) && typeof urls[0] === "string" ? urls[0] : undefined;
        rpcUrls.set(id, rpcUrl ?? rpcUrls.get(id));
        // Like MetaMask, adding a chain also switches to it.
        switchTo(id);
        return null;
      }
      case "eth_sendTransaction": {
        const tx = params[0] as TransactionRequest & { from?: string; gas?: Hex; value?: Hex };
        ownAddress(tx?.from);
        const rpcUrl = rpcUrls.get(chainId);
        if (!rpcUrl)
          throw new ProviderRpcError(RpcErrorCode.unsupportedMethod, `No RPC for chain ${chainId}.`);
        const chain = defineChain({
          id: chainId,
          name: `chain ${chainId}`,
          nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
          rpcUrls: { default: { http: [rpcUrl] } },
        });
        const wallet = createWalletClient({ account, chain, transport: http(rpcUrl) });
        return wallet.sendTransaction({
          to: tx.to ?? null,
          data: tx.data,
          value: tx.value === undefined ? undefined : BigInt(tx.value),
          gas: tx.gas === undefined ? undefined : BigInt(tx.gas),
        } as Parameters<typeof wallet.sendTransaction>[0]);
      }
      default:
        if (READS.has(method)) return forward(method, params);
        throw new ProviderRpcError(
          RpcErrorCode.unsupportedMethod,
          `The method "${method}" is not supported.`,
        );
    }
  };

  const provider: TestEthereumProvider = {
    isSymbolonTestWallet: true,
    async request(args) {
      if (!args || typeof args.method !== "string") throw new ProviderRpcError(RpcErrorCode.invalidParams);
      const { method } = args;
      const params = Array.isArray(args.params)
        ? args.params
        : args.params === undefined
          ? []
          : [args.params];
      control.requests.push(method);
      if (PROMPTS.has(method) && rejects(control, method))
        throw new ProviderRpcError(RpcErrorCode.userRejected);
      if (NEED_ACCOUNT.has(method) && !connected) throw new ProviderRpcError(RpcErrorCode.unauthorized);
      return handle(method, params);
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set.add(listener));
      return provider;
    },
    once(event, listener) {
      const wrapped: Listener = (...args) => {
        provider.removeListener(event, wrapped);
        listener(...args);
      };
      return provider.on(event, wrapped);
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener);
      return provider;
    },
    off(event, listener) {
      return provider.removeListener(event, listener);
    },
  };
  return provider;
}

/** `{chainId: "0x…"}` → the number; anything else is invalid params (spec §5: invalid hex is refused). */
function chainIdParam(param: unknown): number {
  const value = (param as { chainId?: unknown } | undefined)?.chainId;
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]+$/.test(value) || /^0x0+$/.test(value))
    throw new ProviderRpcError(RpcErrorCode.invalidParams, `Invalid chainId: ${String(value)}.`);
  return Number.parseInt(value, 16);
}

/**
 * Installs the wallet in a page: announces it by EIP-6963 (now and on every `eip6963:requestProvider`), sets
 * `window.ethereum` when no other wallet did, and fills `window.symbolonTestWallet`.
 */
export function installEthereumTestWallet(
  options: EthereumTestWalletOptions,
  target: Window & typeof globalThis = window,
): TestEthereumProvider {
  const control = controlOn(target);
  const provider = createTestEthereumProvider(
    { ...options, storage: options.storage === undefined ? safeLocalStorage(target) : options.storage },
    control,
  );
  const info = Object.freeze({
    uuid: crypto.randomUUID(),
    name: TEST_WALLET_NAME,
    icon: ETHEREUM_ICON,
    rdns: TEST_WALLET_RDNS,
  });
  const announce = () =>
    target.dispatchEvent(
      new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }),
    );
  target.addEventListener("eip6963:requestProvider", announce);
  announce();
  const holder = target as unknown as { ethereum?: unknown };
  if (holder.ethereum === undefined) holder.ethereum = provider;
  return provider;
}

function safeLocalStorage(target: Window & typeof globalThis) {
  try {
    return target.localStorage ?? null;
  } catch {
    return null;
  }
}
