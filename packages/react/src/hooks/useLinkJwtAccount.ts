import { formatUser, linkCustomJwt } from "@symbolon/core";
import { useCallback, useRef } from "react";
import type { PrivyErrorCodeValue } from "../errors/PrivyErrorCode";
import { toAccountErrorCode } from "../errors/toAccountErrorCode";
import { usePrivyContext } from "../provider/usePrivyContext";
import { requireClient } from "./requireClient";

/** Callbacks of {@link useLinkJwtAccount}. */
export interface UseLinkJwtAccountOptions {
  onSuccess?: (user: ReturnType<typeof formatUser>) => void;
  onError?: (code: PrivyErrorCodeValue) => void;
}

/** Links the host app's account (its JWT) to the signed-in user: `linkJwtAccount(token)`. */
export function useLinkJwtAccount(options: UseLinkJwtAccountOptions = {}) {
  const { client } = usePrivyContext("useLinkJwtAccount");
  const callbacks = useRef(options);
  callbacks.current = options;
  const linkJwtAccount = useCallback(
    async (token: string) => {
      try {
        const user = formatUser(
          (await linkCustomJwt(requireClient(client, "useLinkJwtAccount"), token)).user,
        );
        callbacks.current.onSuccess?.(user);
        return user;
      } catch (e) {
        callbacks.current.onError?.(toAccountErrorCode(e, "link"));
        throw e;
      }
    },
    [client],
  );
  return { linkJwtAccount };
}
