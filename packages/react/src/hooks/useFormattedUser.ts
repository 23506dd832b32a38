import { formatUser } from "@symbolon/core";
import { useMemo } from "react";
import { useClientState } from "./useClientState";

/** The signed-in user in client form (camelCase, dates), or null. Stable while the user is. */
export function useFormattedUser(hookName: string): ReturnType<typeof formatUser> | null {
  const user = useClientState(hookName, (state) => state.user, null);
  return useMemo(() => (user ? formatUser(user) : null), [user]);
}
