import { type AccountChangeResult, formatUser, linkWithPasskey, unlinkPasskey } from "@symbolon/core";
import { useCallback, useMemo, useRef } from "react";
import { PrivyErrorCode, type PrivyErrorCodeValue } from "../errors/PrivyErrorCode";
import { toAccountErrorCode } from "../errors/toAccountErrorCode";
import { usePrivyContext } from "../provider/usePrivyContext";
import { requireClient } from "./requireClient";
import { usePasskeyFlowState } from "./usePasskeyFlow";

/** Callbacks of {@link useLinkWithPasskey}. */
export interface UseLinkWithPasskeyOptions {
  onSuccess?: (user: ReturnType<typeof formatUser>) => void;
  onError?: (code: PrivyErrorCodeValue) => void;
}

/** The callback code of a failed passkey link (the local limit included). */
function linkErrorCode(error: unknown): PrivyErrorCodeValue {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "cannot_link_more_of_type"
    ? PrivyErrorCode.CANNOT_LINK_MORE_OF_TYPE
    : toAccountErrorCode(error, "link");
}

/**
 * Headless passkey link (spec client `useLinkWithPasskey`): `linkWithPasskey()` adds a new passkey to
 * the signed-in user (at most 5: 'Cannot link more passkeys to account.'); `unlinkPasskey(credentialId)`
 * removes one (one enrolled in MFA is unenrolled first after verification, unless
 * `passkeys.shouldUnenrollMfaOnUnlink` is false). Both resolve with the user as it is now.
 */
export function useLinkWithPasskey(options: UseLinkWithPasskeyOptions = {}) {
  const { client } = usePrivyContext("useLinkWithPasskey");
  const callbacks = useRef(options);
  callbacks.current = options;
  const state = usePasskeyFlowState("useLinkWithPasskey", "link");
  const report = useCallback(async (change: () => Promise<AccountChangeResult>) => {
    try {
      const user = formatUser((await change()).user);
      callbacks.current.onSuccess?.(user);
      return user;
    } catch (cause) {
      callbacks.current.onError?.(linkErrorCode(cause));
      throw cause;
    }
  }, []);
  const link = useCallback(
    () => report(() => linkWithPasskey(requireClient(client, "useLinkWithPasskey"))),
    [client, report],
  );
  const unlink = useCallback(
    (credentialId: string) =>
      report(() => unlinkPasskey(requireClient(client, "useLinkWithPasskey"), credentialId)),
    [client, report],
  );
  return useMemo(() => ({ state, linkWithPasskey: link, unlinkPasskey: unlink }), [state, link, unlink]);
}
