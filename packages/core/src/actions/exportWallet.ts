import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import { WALLET_CREATION_TIMEOUT_MS, type WalletExportData } from "../generated/protocol.ts";
import { analyticsId } from "../http/apiRequest.ts";
import { withMfaRetry } from "../mfa/withMfaRetry.ts";
import { findEmbeddedWallet, walletEntropy } from "../wallet/embeddedWallets.ts";
import { frameHost, walletFrameUrl } from "../wallet/frameBridge.ts";
import { createFrameConnection } from "../wallet/frameConnection.ts";
import { assertSecurePage, requireAccessToken } from "../wallet/walletPreconditions.ts";

/** Options of {@link exportWallet}. */
export interface ExportWalletOptions {
  /** One of the user's embedded wallets. */
  address: string;
  /** Where the visible export frame goes (e.g. the modal's body). */
  container: HTMLElement;
  /** Escape was pressed inside the export frame (the host closes its export screen). */
  onEscape?: () => void;
}

/** A mounted export frame. */
export interface ExportWalletHandle {
  /** Removes the frame (the key it may show goes with it). */
  close(): void;
  /** Resolves once the frame took the export request; rejects when it could not (frame, login). */
  ready: Promise<void>;
}

/**
 * Key export (docs/wallet.md): mounts the export page (`/apps/{appId}/embedded-wallets/export?
 * entropy_id=…&entropy_id_verifier=…&hd_wallet_index=…&chain_type=ethereum&caid=…`, the path the
 * published client opens) visibly in `container` and hands it `privy:wallet:export {accessToken}`,
 * again after MFA when it asks for it. The page unlocks the wallet and shows the key only after the
 * user asks for it; the key never reaches this page.
 */
export function exportWallet(
  client: Client,
  { address, container, onEscape }: ExportWalletOptions,
): ExportWalletHandle {
  assertSecurePage();
  const { authenticated, user } = client.store.getState();
  if (!authenticated) throw new ClientError("attempted_rpc_call_before_logged_in");
  const wallet = findEmbeddedWallet(user, address);
  if (wallet === undefined) {
    throw new ClientError("invalid_input", `${address} is not an embedded wallet of the signed-in user.`);
  }
  const { entropyId, entropyIdVerifier, hdWalletIndex } = walletEntropy(user, wallet);
  const { clientId } = client.options;
  const frame = createFrameConnection({
    host: frameHost(client),
    src: walletFrameUrl(
      client,
      {
        entropy_id: entropyId,
        entropy_id_verifier: entropyIdVerifier,
        hd_wallet_index: String(hdWalletIndex),
        chain_type: "ethereum",
        caid: analyticsId(client),
        ...(clientId ? { client_id: clientId } : {}),
      },
      "/export",
    ),
    title: "Export wallet",
    visible: true,
    container,
    onEvent: (event) => {
      if (event === "privy:export:escape") onEscape?.();
    },
  });
  const ready = (async () => {
    const accessToken = await requireAccessToken(client);
    // Unlocking may include recovery on a new device, so this gets the creation/recovery timeout.
    // Export always needs MFA when the user has it; the export frame reads the token the hidden
    // wallet frame keeps after `privy:mfa:verify` (same origin).
    await withMfaRetry(client, () =>
      frame.request("privy:wallet:export", { accessToken } satisfies WalletExportData, {
        timeoutMs: WALLET_CREATION_TIMEOUT_MS,
      }),
    );
  })();
  // Callers that only close() must not see an unhandled rejection.
  ready.catch(() => {});
  return { close: () => frame.destroy(), ready };
}
