// The export page (`/apps/{appId}/embedded-wallets/export?entropy_id=…&entropy_id_verifier=…&hd_wallet_index=…`):
// it unlocks the wallet itself, and the key goes only to its own page, never to the host. The
// published client hands the token in the fragment (`#token=…`) and the page starts at once; our
// client posts `privy:wallet:export {accessToken}`, which it can post again after MFA.
import { FrameError, toFrameError } from "../frameError.ts";
import type { Handler } from "../messages.ts";
import { requireChain, requireHdWalletIndex, requireSession, requireWallet } from "../requestData.ts";
import type { WalletRef, WalletService } from "../wallets.ts";
import type { ExportView } from "./exportView.ts";

/** Which key the page exports, from its URL. */
export interface ExportTarget {
  wallet: WalletRef;
  hdWalletIndex: number;
}

/** The target named by the page's query; a FrameError when it names none (the page says so). */
export function exportTargetOf(params: URLSearchParams): ExportTarget {
  const chainType = params.get("chain_type");
  requireChain(chainType);
  const index = params.get("hd_wallet_index") ?? "0";
  const data = {
    chainType,
    entropyId: params.get("entropy_id"),
    entropyIdVerifier: params.get("entropy_id_verifier"),
    hdWalletIndex: /^\d{1,10}$/.test(index) ? Number(index) : Number.NaN,
  };
  return { wallet: requireWallet(data), hdWalletIndex: requireHdWalletIndex(data) };
}

/**
 * Unlocks the page's wallet with `accessToken` and lets the user reveal its key. `retried`: the
 * caller verifies MFA and calls again on `missing_or_invalid_mfa` (our client's message), so the
 * page keeps saying it is unlocking; a fragment token gets no second call, so the page says why.
 */
export async function runExport(
  wallets: WalletService,
  target: ExportTarget,
  view: ExportView,
  accessToken: unknown,
  { retried = true }: { retried?: boolean } = {},
): Promise<void> {
  let userId: string;
  try {
    const current = requireSession({ accessToken });
    userId = current.userId;
    wallets.enter(current.session);
    // `export` key material: with MFA, the token `privy:mfa:verify` left in sessionStorage.
    await wallets.unlock(current.token, userId, target.wallet, "export");
  } catch (error) {
    const failure = toFrameError(error, "embedded_wallet_request_error");
    if (failure.type !== "missing_or_invalid_mfa") view.showError(failure.message);
    else if (!retried) view.showError("Verify your identity (2-step verification), then export again.");
    throw failure;
  }
  const address = wallets.heldAddress(userId, target.wallet, target.hdWalletIndex);
  if (address === null) throw new FrameError("embedded_wallet_request_error", "Unable to connect to wallet.");
  view.enableReveal(() => wallets.exportPrivateKey(userId, target.wallet, target.hdWalletIndex), address);
}

export function exportHandlers(
  wallets: WalletService,
  target: ExportTarget,
  view: ExportView,
): Record<string, Handler> {
  return {
    "privy:iframe:ready": () => ({}),
    "privy:wallet:export": async (data) => {
      await runExport(wallets, target, view, data.accessToken);
      return {};
    },
  };
}
