import { fetchUser, formatUser, unlinkEmail, unlinkPhone } from "@symbolon/core";
import { useCallback, useMemo } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";
import { oauthUnlinkCalls } from "./oauthAccountCalls";
import { requireClient } from "./requireClient";
import { useFormattedUser } from "./useFormattedUser";

/**
 * The signed-in user (client form) and the calls that change it (spec client `useUser`):
 * `refreshUser()` fetches it again; `unlinkEmail(address)` / `unlinkPhone(number)` remove an
 * account and resolve with the user as it is now; so do `unlinkGoogle(subject)`, `unlinkGithub(subject)`, …. Refusals (e.g. `cannot_unlink_sole_account`)
 * reject with core's `ApiError` carrying the server's message.
 */
export function useUser() {
  const { client } = usePrivyContext("useUser");
  const user = useFormattedUser("useUser");
  const refreshUser = useCallback(async () => {
    const fetched = await fetchUser(requireClient(client, "useUser"));
    return fetched ? formatUser(fetched) : null;
  }, [client]);
  const unlinkEmailAddress = useCallback(
    async (address: string) =>
      formatUser((await unlinkEmail(requireClient(client, "useUser"), address)).user),
    [client],
  );
  const unlinkPhoneNumber = useCallback(
    async (phoneNumber: string) =>
      formatUser((await unlinkPhone(requireClient(client, "useUser"), phoneNumber)).user),
    [client],
  );
  const oauth = useMemo(() => oauthUnlinkCalls(client, "useUser"), [client]);
  return useMemo(
    () => ({ user, refreshUser, unlinkEmail: unlinkEmailAddress, unlinkPhone: unlinkPhoneNumber, ...oauth }),
    [user, refreshUser, unlinkEmailAddress, unlinkPhoneNumber, oauth],
  );
}
