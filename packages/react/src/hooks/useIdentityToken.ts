import { useClientState } from "./useClientState";

/** The current identity token (a JWT with the user's linked accounts), or null. */
export function useIdentityToken(): { identityToken: string | null } {
  const identityToken = useClientState("useIdentityToken", (state) => state.identityToken, null);
  return { identityToken };
}
