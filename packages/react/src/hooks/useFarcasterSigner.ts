import { deviceSignerKey, type FarcasterSignerResponse, fetchUser, formatUser } from "@symbolon/core";
import { useCallback, useMemo } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";
import { requireClient } from "./requireClient";

/**
 * Farcaster signers (spec §3, §4): `getFarcasterSignerPublicKey()` is this device's Ed25519 key;
 * `requestFarcasterSignerFromWarpcast()` shows the approval QR code / link and resolves once the
 * user approved it (status polled every 2 s; 'Request rejected', or 'Connect failed' after 300 s);
 * `signFarcasterMessage(bytes)` signs with the key. Spec §5: needs a signed-in user with an embedded
 * wallet and a Farcaster account.
 */
export function useFarcasterSigner() {
  const { client, controller } = usePrivyContext("useFarcasterSigner");
  const key = useCallback(() => {
    const ready = requireClient(client, "useFarcasterSigner");
    const { user, authenticated } = ready.store.getState();
    const formatted = user && authenticated ? formatUser(user) : null;
    if (!formatted) throw new Error("Farcaster signers need a signed-in user.");
    if (formatted.wallet?.connectorType !== "embedded")
      throw new Error("Farcaster signers need an embedded wallet.");
    if (!formatted.farcaster) throw new Error("Farcaster signers need a linked Farcaster account (fid).");
    return deviceSignerKey(ready.options.appId);
  }, [client]);
  const getFarcasterSignerPublicKey = useCallback(async () => (await key()).publicKey, [key]);
  const requestFarcasterSignerFromWarpcast = useCallback(async (): Promise<FarcasterSignerResponse> => {
    const { publicKey } = await key();
    if (!controller) throw new Error("useFarcasterSigner: the provider is not ready yet.");
    const signer = await controller.requestFarcasterSigner(publicKey);
    // The approved key is now the Farcaster account's signerPublicKey.
    await fetchUser(requireClient(client, "useFarcasterSigner")).catch(() => null);
    return signer;
  }, [key, controller, client]);
  const signFarcasterMessage = useCallback(async (message: Uint8Array) => (await key()).sign(message), [key]);
  return useMemo(
    () => ({ getFarcasterSignerPublicKey, requestFarcasterSignerFromWarpcast, signFarcasterMessage }),
    [getFarcasterSignerPublicKey, requestFarcasterSignerFromWarpcast, signFarcasterMessage],
  );
}
