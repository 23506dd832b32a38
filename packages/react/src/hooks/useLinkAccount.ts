import { useMemo } from "react";
import { toAccountErrorCode } from "../errors/toAccountErrorCode";
import { usePrivyContext } from "../provider/usePrivyContext";
import { oauthLinkCalls, openOAuthLink } from "./oauthAccountCalls";
import { type AccountFlowCallbacks, useAccountFlow } from "./useAccountFlow";

/**
 * Links an account through the modal (spec client `useLinkAccount`): an email or phone (the modal
 * asks for it, sends a code and links it), or an OAuth provider (`linkGoogle()`, `linkGithub()`, …:
 * the provider's popup, then the status screen). Callbacks report the outcome when it closes.
 */
export function useLinkAccount(options: AccountFlowCallbacks = {}) {
  const { client, controller } = usePrivyContext("useLinkAccount");
  const open = useAccountFlow("useLinkAccount", "link", options);
  const onError = options.onError;
  const oauth = useMemo(
    () =>
      oauthLinkCalls((provider) => {
        try {
          openOAuthLink(client, controller, provider);
        } catch (e) {
          onError?.(toAccountErrorCode(e, "link"));
          throw e;
        }
      }),
    [client, controller, onError],
  );
  return { linkEmail: () => open("email"), linkPhone: () => open("phone"), ...oauth };
}
