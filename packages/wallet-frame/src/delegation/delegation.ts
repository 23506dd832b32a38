// `privy:delegated-actions:consent` (delegated actions, docs/delegation.md): the user lets the app's
// back end sign with some of their embedded wallets while they are away, within the app's policies.
// For each wallet the frame asks the server for the terms (who may sign, under which policies, and the
// signer's HPKE key), seals the wallet's key together with those terms to the signer's key, and hands
// the server only that ciphertext. The key never leaves this page unsealed, and a wallet whose address
// is not the one derived at its index is never sealed.
//
// This module and HPKE are a chunk of their own, which `handlers.ts` imports on the first consent: the
// frame's first load does not carry them.
import {
  DELEGATION_CONSENT_VERSION,
  DELEGATION_HPKE_SUITE,
  type DelegatedActionsConsentAnswer,
  type DelegateWalletRequest,
  type DelegateWalletResponse,
  type DelegationConsent,
  type DelegationTerms,
  type DelegationTermsRequest,
  type SessionSignerInput,
} from "../../../core/src/generated/protocol.ts";
import type { Post } from "../api.ts";
import { ethereum } from "../chains/ethereum.ts";
import { FrameError, toFrameError } from "../frameError.ts";
import type { WalletRef, WalletService } from "../wallets.ts";
import { sealConsent } from "./sealConsent.ts";

/** What the consent needs besides the wallets: the frame's same-origin POST and the app of a token. */
export interface DelegationDeps {
  wallets: WalletService;
  post: Post;
  /** `POST /delegated_actions` with the held MFA token (the server asks for one when the user has MFA). */
  postConsent(body: DelegateWalletRequest): Promise<DelegateWalletResponse>;
  appId(token: string): string;
}

/** One wallet to delegate: its address and its HD index under the root wallet's entropy. */
export interface DelegatedWallet {
  address: string;
  walletIndex: number;
}

/** The checked `data` of a consent message. */
export interface DelegationRequest {
  /** The root wallet (index 0), whose entropy the delegated ones derive from. */
  root: WalletRef;
  wallets: DelegatedWallet[];
  /** The signers the host asked for (snake_case, for the terms); absent: the app's default delegation. */
  signers?: SessionSignerInput[];
}

/** The only chain delegated actions serve for now. */
const DELEGATION_CHAIN = ethereum;

/** `chainType` of a wallet in the message: Ethereum, or `unsupported_wallet_type`. */
function requireEthereum(chainType: unknown, what: string): void {
  if (chainType !== DELEGATION_CHAIN.chainType) {
    throw new FrameError(
      "unsupported_wallet_type",
      `Only Ethereum embedded wallets can be delegated; the ${what} is ${String(chainType)}.`,
    );
  }
}

function requireAddress(address: unknown, what: string): string {
  if (typeof address !== "string" || !DELEGATION_CHAIN.isAddress(address)) {
    throw new FrameError("invalid_input", `Invalid ${what} address: ${String(address)}`);
  }
  return address;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Checks the message's `rootWallet`, `delegatedWallets` and `signers` (the published client's
 * camelCase): Ethereum wallets only, addresses, indices, signer ids and policy ids.
 */
export function parseDelegationRequest(data: Record<string, unknown>): DelegationRequest {
  const { rootWallet, delegatedWallets, signers } = data;
  if (!isRecord(rootWallet)) throw new FrameError("invalid_input", "rootWallet must be a wallet");
  requireEthereum(rootWallet.chainType, "root wallet");
  if (rootWallet.imported === true) {
    throw new FrameError("unsupported_wallet_type", "Imported wallets cannot be delegated.");
  }
  const root: WalletRef = {
    chain: DELEGATION_CHAIN,
    entropyId: requireAddress(rootWallet.address, "root wallet"),
  };
  if (!Array.isArray(delegatedWallets) || delegatedWallets.length === 0) {
    throw new FrameError("invalid_input", "delegatedWallets must be a non-empty list of wallets");
  }
  const wallets = delegatedWallets.map((wallet): DelegatedWallet => {
    if (!isRecord(wallet))
      throw new FrameError("invalid_input", "delegatedWallets must be a list of wallets");
    requireEthereum(wallet.chainType, "wallet to delegate");
    const address = requireAddress(wallet.address, "delegated wallet");
    const index = wallet.walletIndex;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index > 0x7fffffff) {
      throw new FrameError("invalid_input", `walletIndex of ${address} must be an integer ≥ 0`);
    }
    return { address, walletIndex: index };
  });
  return signers == null ? { root, wallets } : { root, wallets, signers: parseSigners(signers) };
}

/** `[{signerId, policyIds}]` → the terms' `[{signer_id, policy_ids}]`. */
function parseSigners(signers: unknown): SessionSignerInput[] {
  if (!Array.isArray(signers)) throw new FrameError("invalid_input", "signers must be a list");
  return signers.map((signer) => {
    const { signerId, policyIds = [] } = isRecord(signer) ? signer : {};
    if (typeof signerId !== "string" || signerId === "") {
      throw new FrameError("invalid_input", "Each signer needs a signerId");
    }
    if (!Array.isArray(policyIds) || !policyIds.every((id) => typeof id === "string" && id !== "")) {
      throw new FrameError("invalid_input", `policyIds of signer ${signerId} must be a list of policy ids`);
    }
    return { signer_id: signerId, policy_ids: policyIds as string[] };
  });
}

/**
 * Delegates `request.wallets`: the root wallet must be unlocked on this device (the host connects or
 * recovers it first), and every wallet's address must be the one derived at its index, all checked
 * before any call. Then, wallet by wallet: its terms (a fresh consent id and its wallet id each), the
 * consent sealed to the signer's key, and `POST /delegated_actions`. Answers the addresses now delegated.
 */
export async function delegateWallets(
  deps: DelegationDeps,
  token: string,
  userId: string,
  request: DelegationRequest,
): Promise<DelegatedActionsConsentAnswer> {
  const { wallets, post } = deps;
  const { root } = request;
  try {
    if (wallets.heldAddress(userId, root, 0) === null) {
      throw new FrameError("embedded_wallet_request_error", "Wallet is not connected");
    }
    // The canonical (derived) address of each wallet; a mismatch refuses the whole message.
    const targets = request.wallets.map(({ address, walletIndex }) => {
      const derived = wallets.heldAddress(userId, root, walletIndex);
      if (derived === null || DELEGATION_CHAIN.addressKey(derived) !== DELEGATION_CHAIN.addressKey(address)) {
        throw new FrameError(
          "invalid_input",
          `${address} is not the wallet at index ${walletIndex} of ${root.entropyId}`,
        );
      }
      return { address: derived, walletIndex };
    });
    const appId = deps.appId(token);
    const delegated: string[] = [];
    for (const { address, walletIndex } of targets) {
      // The terms of this wallet: a fresh consent id, its id in the wallet API, the signers.
      const termsRequest: DelegationTermsRequest = {
        address,
        ...(request.signers ? { signers: request.signers } : {}),
      };
      const terms = await post<DelegationTerms>(token, "/embedded_wallets/delegation/terms", termsRequest);
      if (terms.hpke_suite !== DELEGATION_HPKE_SUITE) {
        throw new FrameError(
          "embedded_wallet_request_error",
          `The server asks for HPKE suite "${terms.hpke_suite}"; this wallet seals with "${DELEGATION_HPKE_SUITE}"`,
        );
      }
      if (typeof terms.wallet_id !== "string" || terms.wallet_id === "") {
        throw new FrameError("embedded_wallet_request_error", `The server's terms do not name ${address}`);
      }
      const sealed = await sealConsent(terms.signer_public_key, appId, {
        version: DELEGATION_CONSENT_VERSION,
        consent_id: terms.consent_id,
        app_id: appId,
        user_id: userId,
        address,
        wallet_id: terms.wallet_id,
        chain_type: DELEGATION_CHAIN.chainType,
        wallet_index: walletIndex,
        // Read at the last moment; it goes into the sealed plaintext only.
        private_key: wallets.exportPrivateKey(userId, root, walletIndex),
        signers: terms.signers,
        consented_at: Date.now(),
      } satisfies DelegationConsent);
      const body: DelegateWalletRequest = {
        address,
        chain_type: DELEGATION_CHAIN.chainType,
        consent_id: terms.consent_id,
        encapsulated_key: sealed.encapsulatedKey,
        ciphertext: sealed.ciphertext,
      };
      await deps.postConsent(body);
      delegated.push(address);
    }
    return { delegated };
  } catch (error) {
    throw toFrameError(error, "embedded_wallet_request_error");
  }
}
