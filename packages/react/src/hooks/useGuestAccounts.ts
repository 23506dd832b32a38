import { formatUser, loginAsGuest } from "@symbolon/core";
import { useCallback } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";
import { requireClient } from "./requireClient";

/**
 * Guest accounts (spec §6): `createGuestAccount()` signs in as a guest made from a random credential
 * kept in storage (the same guest again after a reload; a new one after logout). Resolves with the
 * user in client form (`isGuest: true`).
 */
export function useGuestAccounts() {
  const { client } = usePrivyContext("useGuestAccounts");
  const createGuestAccount = useCallback(async () => {
    const result = await loginAsGuest(requireClient(client, "useGuestAccounts"));
    return formatUser(result.user);
  }, [client]);
  return { createGuestAccount };
}
