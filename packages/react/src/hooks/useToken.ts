import { getAccessToken } from "@symbolon/core";
import { useCallback } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";

/** The access token (refreshed when needed) and the identity token, or null when signed out. */
export function useToken() {
  const { client } = usePrivyContext("useToken");
  const access = useCallback(async () => (client ? getAccessToken(client) : null), [client]);
  const identity = useCallback(async () => {
    if (!client) return null;
    await getAccessToken(client);
    return client.store.getState().identityToken;
  }, [client]);
  return { getAccessToken: access, getIdentityToken: identity };
}
