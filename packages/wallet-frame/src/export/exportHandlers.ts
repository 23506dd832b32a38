// Event name → handler for the export page (`?mode=export&address=0x…`): it unlocks the wallet
// itself and answers `{}`; the key goes only to its own page, never to the host.
import { FrameError, toFrameError } from "../frameError.ts";
import type { Handler } from "../messages.ts";
import { requireAddress, requireSession } from "../requestData.ts";
import type { WalletService } from "../wallets.ts";
import type { ExportView } from "./exportView.ts";

export function exportHandlers(
  wallets: WalletService,
  pageAddress: string | null,
  view: ExportView,
): Record<string, Handler> {
  return {
    "privy:iframe:ready": () => ({}),
    "privy:wallet:export": async (data) => {
      const { token, userId, session } = requireSession(data);
      wallets.enter(session);
      const address = requireAddress(data);
      if (pageAddress?.toLowerCase() !== address.toLowerCase()) {
        throw new FrameError("invalid_input", "This export page is for another address");
      }
      try {
        // `export` key material: with MFA, the token `privy:mfa:verify` left in sessionStorage.
        await wallets.unlock(token, userId, address, "export");
      } catch (error) {
        const failure = toFrameError(error, "embedded_wallet_request_error");
        // The host asks for MFA and posts again: the page keeps saying it is unlocking.
        if (failure.type !== "missing_or_invalid_mfa") view.showError(failure.message);
        throw failure;
      }
      view.enableReveal(() => wallets.exportPrivateKey(userId, address));
      return {};
    },
  };
}
