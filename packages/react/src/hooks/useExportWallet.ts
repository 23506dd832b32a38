import { ClientError, getEmbeddedWallets } from "@symbolon/core";
import { useCallback } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";
import { requireClient } from "./requireClient";

/**
 * Opens the key export screen for an embedded wallet (default: the first). The key is shown by the
 * wallet frame inside the modal, never handed to this page.
 */
export function useExportWallet() {
  const { client, controller } = usePrivyContext("useExportWallet");
  const exportWallet = useCallback(
    async ({ address }: { address?: string } = {}) => {
      const ready = requireClient(client, "useExportWallet");
      const { authenticated, user } = ready.store.getState();
      if (!authenticated) throw new ClientError("attempted_rpc_call_before_logged_in");
      const wallets = getEmbeddedWallets(user);
      const wallet = address
        ? wallets.find((candidate) => candidate.address.toLowerCase() === address.toLowerCase())
        : wallets[0];
      if (!wallet) {
        throw new ClientError(
          "invalid_input",
          address
            ? `${address} is not an embedded wallet of the user.`
            : "The user has no embedded wallet to export.",
        );
      }
      controller?.openExport(wallet.address);
    },
    [client, controller],
  );
  return { exportWallet };
}
