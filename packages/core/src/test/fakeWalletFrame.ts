// A stand-in for the wallet frame page (packages/wallet-frame) behind the browser boundary: it answers the
// frame messages of docs/wallet.md like the real frame, with keys from viem's BIP-39/BIP-32 accounts. The real
// frame and its iframe are covered by the e2e suite; this lets core's tests run the host side in Node.
import { hexToBigInt, hexToNumber, isHex } from "viem";
import { english, generateMnemonic, type HDAccount, mnemonicToAccount } from "viem/accounts";
import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import type { User, WalletAccount } from "../generated/protocol.ts";
import type { FrameHost, FrameMessage, FrameMountOptions, FrameWindow } from "../wallet/FrameHost.ts";
import type { FrameRequest } from "../wallet/types.ts";
import { createFakeMfa, type FakeMfaOptions } from "./fakeMfa.ts";

/** An error answer `{type, message}`. */
export interface FrameErrorAnswer {
  error: { type: string; message: string };
}

/** How the fake frame behaves. */
export interface FakeWalletFrameOptions {
  /** The BIP-39 phrase of the user's wallets (default: a new one). */
  mnemonic?: string;
  /** Answer the Nth ready ping (default 1: the first); Infinity never answers. */
  readyAfterPings?: number;
  /** `privy:wallets:connect` fails `wallet_not_on_device`, so the host must `privy:wallets:recover`. */
  needsRecovery?: boolean;
  /** Events not answered from the start (see `mute`). */
  muted?: string[];
  /** Events answered with an error from the start: `{event: {type, message}}`. */
  failures?: Record<string, { type: string; message: string }>;
  /** Adds the new wallet to the user the way the server would (default: appends it to the client's user). */
  linkWallet?: (user: User, wallet: { type: "wallet" } & WalletAccount) => User;
  /** The frame's MFA (token, guard, enrolment; see fakeMfa.ts). */
  mfa?: FakeMfaOptions;
}

/** A mounted fake iframe. */
export interface FakeMount {
  src: string;
  options: FrameMountOptions;
  window: FrameWindow;
  removed: boolean;
}

/** The fake frame plus what tests inspect or script. */
export interface FakeWalletFrame extends FrameHost {
  readonly mounts: FakeMount[];
  /** Every message posted to a frame with the right target origin. */
  readonly received: FrameRequest[];
  /** Events of `received`, in order (ready pings left out). */
  events(): string[];
  /** Answers `event` with an error from now on. */
  fail(event: string, type: string, message: string): void;
  /** Answers `event` normally again (after `fail`). */
  succeed(event: string): void;
  /** Stops answering `event` (to test timeouts). */
  mute(event: string): void;
  /** The account at `index` of the mnemonic. */
  account(index: number): HDAccount;
  /** Delivers a message to the page as if posted by `source` from `origin`. */
  deliver(message: FrameMessage): void;
  mnemonic: string;
  /** The frame's MFA side (whether it holds a token). */
  mfa: ReturnType<typeof createFakeMfa>;
}

/** Makes `client` use a fake wallet frame instead of a real iframe. */
export function installFakeWalletFrame(
  client: Client,
  options: FakeWalletFrameOptions = {},
): FakeWalletFrame {
  const frame = createFakeWalletFrame(client, options);
  const own = internals(client);
  own.frameHost = frame;
  // A real frame the client may have preloaded before the fake came in is replaced by the fake's.
  own.walletFrame?.destroy();
  own.walletFrame = null;
  return frame;
}

function createFakeWalletFrame(client: Client, options: FakeWalletFrameOptions): FakeWalletFrame {
  const mnemonic = options.mnemonic ?? generateMnemonic(english);
  const listeners = new Set<(message: FrameMessage) => void>();
  const failures = new Map<string, FrameErrorAnswer>(
    Object.entries(options.failures ?? {}).map(([event, error]) => [event, { error }]),
  );
  const muted = new Set<string>(options.muted ?? []);
  const unlocked = new Set<string>();
  const accounts = new Map<number, HDAccount>();
  const account = (index: number) => {
    let found = accounts.get(index);
    if (!found) {
      found = mnemonicToAccount(mnemonic, { addressIndex: index });
      accounts.set(index, found);
    }
    return found;
  };
  const mfa = createFakeMfa(client, options.mfa);
  let pings = 0;
  const needed = options.readyAfterPings ?? 1;

  const linkWallet =
    options.linkWallet ??
    ((user: User, wallet: { type: "wallet" } & WalletAccount) => ({
      ...user,
      linked_accounts: [...user.linked_accounts, wallet],
    }));

  const answer = async (request: FrameRequest): Promise<unknown> => {
    const failure = failures.get(request.event);
    if (failure) throw failure;
    const data = request.data as Record<string, unknown>;
    // Sign-out (the published client posts only this): the keys go with the MFA token.
    if (request.event === "privy:mfa:clear") unlocked.clear();
    mfa.guard(request.event);
    const mfaAnswer = mfa.handle(request.event, data);
    if (mfaAnswer !== undefined) return mfaAnswer;
    switch (request.event) {
      case "privy:iframe:ready":
        return {};
      case "privy:wallet:create":
      case "privy:wallets:add": {
        const index = request.event === "privy:wallet:create" ? 0 : Number(data.hdWalletIndex);
        if (request.event === "privy:wallets:add") entropyOf(data);
        const address = account(index).address;
        const user = client.store.getState().user;
        if (!user || typeof data.accessToken !== "string") throw missingToken();
        unlocked.add(account(0).address.toLowerCase());
        const wallet = embeddedWalletAccount(address, index);
        return { address, walletIndex: index, user: linkWallet(user, wallet) };
      }
      case "privy:wallets:connect": {
        const entropyId = entropyOf(data);
        if (options.needsRecovery && !unlocked.has(entropyId.toLowerCase())) {
          throw { error: { type: "wallet_not_on_device", message: "The wallet is not on this device" } };
        }
        unlocked.add(entropyId.toLowerCase());
        return { entropyId };
      }
      case "privy:wallets:recover": {
        const entropyId = entropyOf(data);
        unlocked.add(entropyId.toLowerCase());
        return { entropyId };
      }
      case "privy:wallets:rpc": {
        const entropyId = entropyOf(data);
        if (!unlocked.has(entropyId.toLowerCase())) {
          throw { error: { type: "embedded_wallet_request_error", message: "Wallet is locked" } };
        }
        const response = await rpc(
          account(Number(data.hdWalletIndex)),
          data.request as { method: string; params: unknown[] },
        );
        return { response };
      }
      case "privy:wallet:export":
        return {};
      case "privy:delegated-actions:consent":
        return delegate(data);
      default:
        throw { error: { type: "invalid_input", message: `Unknown event ${request.event}` } };
    }
  };

  /** The request's entropy: the index 0 address of this mnemonic, named the published client's way. */
  const entropyOf = (data: Record<string, unknown>): string => {
    const entropyId = String(data.entropyId);
    if (
      data.entropyIdVerifier !== "ethereum-address-verifier" ||
      entropyId.toLowerCase() !== account(0).address.toLowerCase()
    ) {
      throw { error: { type: "embedded_wallet_request_error", message: "Unknown wallet" } };
    }
    return entropyId;
  };

  /**
   * As the real frame: the root unlocked here, each address the one at its index, then per wallet the
   * terms and a (fake) sealed consent posted to the client's server, which marks it delegated.
   */
  const delegate = async (data: Record<string, unknown>) => {
    const root = data.rootWallet as { address: string; chainType: string };
    const wallets = data.delegatedWallets as { address: string; chainType: string; walletIndex: number }[];
    if ([root, ...wallets].some((wallet) => wallet.chainType !== "ethereum")) {
      throw { error: { type: "unsupported_wallet_type", message: "Only Ethereum wallets can be delegated" } };
    }
    entropyOf({ entropyId: root.address, entropyIdVerifier: "ethereum-address-verifier" });
    if (!unlocked.has(root.address.toLowerCase())) {
      throw { error: { type: "embedded_wallet_request_error", message: "Wallet is not connected" } };
    }
    for (const { address, walletIndex } of wallets) {
      if (account(walletIndex).address.toLowerCase() !== address.toLowerCase()) {
        throw {
          error: { type: "invalid_input", message: `${address} is not the wallet at index ${walletIndex}` },
        };
      }
    }
    const post = async (path: string, body: unknown) => {
      const response = await internals(client).fetch()(`${client.options.apiUrl}/api/v1${path}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${String(data.accessToken)}`,
          "content-type": "application/json",
          "privy-app-id": client.options.appId,
        },
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as Record<string, unknown>;
      if (!response.ok)
        throw { error: { type: "embedded_wallet_request_error", message: String(answer.error) } };
      return answer;
    };
    const signers = (data.signers as { signerId: string; policyIds: string[] }[] | undefined)?.map(
      ({ signerId, policyIds }) => ({ signer_id: signerId, policy_ids: policyIds }),
    );
    const delegated: string[] = [];
    for (const { address } of wallets) {
      const terms = await post("/embedded_wallets/delegation/terms", {
        address,
        ...(signers ? { signers } : {}),
      });
      await post("/delegated_actions", {
        address,
        chain_type: "ethereum",
        consent_id: terms.consent_id,
        encapsulated_key: "ZmFrZQ==",
        ciphertext: "ZmFrZQ==",
      });
      delegated.push(address);
    }
    return { delegated };
  };

  const rpc = async (signer: HDAccount, request: { method: string; params: unknown[] }) => {
    const [first, second] = request.params;
    switch (request.method) {
      case "personal_sign": {
        const message = String(first);
        const data = isHex(message)
          ? await signer.signMessage({ message: { raw: message } })
          : await signer.signMessage({ message });
        return { method: request.method, data };
      }
      case "eth_signTypedData_v4":
        return { method: request.method, data: await signer.signTypedData(JSON.parse(String(second))) };
      case "eth_signTransaction": {
        const tx = first as Record<string, `0x${string}` | undefined>;
        const common = {
          chainId: hexToNumber(tx.chainId ?? "0x1"),
          nonce: hexToNumber(tx.nonce ?? "0x0"),
          gas: hexToBigInt(tx.gas ?? "0x0"),
          value: hexToBigInt(tx.value ?? "0x0"),
          ...(tx.to ? { to: tx.to } : {}),
          ...(tx.data ? { data: tx.data } : {}),
        };
        const signed =
          tx.type === "0x0"
            ? await signer.signTransaction({
                ...common,
                type: "legacy",
                gasPrice: hexToBigInt(tx.gasPrice ?? "0x0"),
              })
            : await signer.signTransaction({
                ...common,
                type: "eip1559",
                maxFeePerGas: hexToBigInt(tx.maxFeePerGas ?? "0x0"),
                maxPriorityFeePerGas: hexToBigInt(tx.maxPriorityFeePerGas ?? "0x0"),
              });
        return { method: request.method, data: signed };
      }
      default:
        throw { error: { type: "invalid_input", message: `Unsupported method ${request.method}` } };
    }
  };

  const received: FrameRequest[] = [];
  const mounts: FakeMount[] = [];
  const deliver = (message: FrameMessage) => {
    for (const listener of [...listeners]) listener(message);
  };

  return {
    mnemonic,
    mfa,
    mounts,
    received,
    events: () => received.map((r) => r.event).filter((e) => e !== "privy:iframe:ready"),
    fail: (event, type, message) => failures.set(event, { error: { type, message } }),
    succeed: (event) => failures.delete(event),
    mute: (event) => muted.add(event),
    account,
    deliver,
    mount(src, mountOptions) {
      const origin = new URL(src).origin;
      const mount: FakeMount = {
        src,
        options: mountOptions,
        removed: false,
        window: {
          postMessage(message, targetOrigin) {
            // Like a browser: a message for another origin is dropped.
            if (mount.removed || targetOrigin !== origin) return;
            const request = message as FrameRequest;
            received.push(request);
            if (request.event === "privy:iframe:ready" && ++pings < needed) return;
            if (muted.has(request.event)) return;
            setTimeout(() => {
              answer(request).then(
                (data) =>
                  !mount.removed &&
                  deliver({
                    data: { id: request.id, event: request.event, data },
                    origin,
                    source: mount.window,
                  }),
                (failure: FrameErrorAnswer) =>
                  !mount.removed &&
                  deliver({
                    data: {
                      id: request.id,
                      event: request.event,
                      error: failure.error ?? { type: "unknown", message: String(failure) },
                    },
                    origin,
                    source: mount.window,
                  }),
              );
            }, 0);
          },
        },
      };
      mounts.push(mount);
      return {
        contentWindow: mount.window,
        remove: () => {
          mount.removed = true;
        },
      };
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function missingToken(): FrameErrorAnswer {
  return { error: { type: "attempted_rpc_call_before_logged_in", message: "Missing access token" } };
}

/** The linked account of an embedded wallet, as the server stores it (docs/wallet.md). */
export function embeddedWalletAccount(address: string, index: number): { type: "wallet" } & WalletAccount {
  const now = Math.floor(Date.now() / 1000);
  return {
    type: "wallet",
    id: `wallet-${index}`,
    address,
    chain_type: "ethereum",
    wallet_client_type: "privy",
    connector_type: "embedded",
    wallet_index: index,
    recovery_method: "privy",
    imported: false,
    delegated: false,
    verified_at: now,
    first_verified_at: now,
    latest_verified_at: now,
  };
}
