import {
  type AccountChangeResult,
  type Client,
  formatUser,
  linkTelegram,
  requireLinkable,
  type TelegramProofOptions,
} from "@symbolon/core";
import { useMemo, useRef } from "react";
import { toAccountErrorCode } from "../errors/toAccountErrorCode";
import { usePrivyContext } from "../provider/usePrivyContext";
import { oauthLinkCalls, openOAuthLink } from "./oauthAccountCalls";
import { requireClient } from "./requireClient";
import { type AccountFlowCallbacks, useAccountFlow } from "./useAccountFlow";

/**
 * Links accounts (spec client `useLinkAccount`): email and phone through the modal (it asks for the
 * address or number, sends a code and links it; callbacks report the outcome when it closes);
 * an OAuth provider (`linkGoogle()`, `linkGithub()`, …: the provider's popup, then the status
 * screen); Telegram directly — `linkTelegram()` from a click opens the Login Widget popup; inside a
 * Mini App, or with `launchParams` (whose `initDataRaw` is required, spec §5), it links from
 * `initData`; Farcaster through the modal's QR code screen.
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
  const callbacks = useRef(options);
  callbacks.current = options;
  /** Runs a link that needs no modal and reports it like the modal's links. */
  const direct = <P>(
    link: (client: Client, parameters: P) => Promise<AccountChangeResult>,
    parameters: P,
  ) => {
    const reportFailure = (e: unknown): never => {
      // A transfer offer (or another refusal with a screen) goes to the modal, which reports
      // the outcome when it closes.
      if (!controller?.offerRefusal(e)) callbacks.current.onError?.(toAccountErrorCode(e, "link"));
      throw e;
    };
    let pending: Promise<AccountChangeResult>;
    try {
      // Synchronous up to the popup: called from a click, the popup keeps its user activation.
      pending = link(requireClient(client, "useLinkAccount"), parameters);
    } catch (e) {
      return Promise.reject(e).catch(reportFailure);
    }
    return pending.then(({ user }) => {
      const formatted = formatUser(user);
      callbacks.current.onSuccess?.({ user: formatted });
      return formatted;
    }, reportFailure);
  };
  return {
    linkEmail: () => open("email"),
    linkPhone: () => open("phone"),
    ...oauth,
    linkTelegram: (parameters: TelegramProofOptions = {}) => direct(linkTelegram, parameters),
    /** Opens the modal's Farcaster screen (QR code or link) and links the approved account. */
    linkFarcaster: () => {
      try {
        if (client) requireLinkable(client, "farcaster");
      } catch (e) {
        callbacks.current.onError?.(toAccountErrorCode(e, "link"));
        throw e;
      }
      controller?.openLinkFarcaster();
    },
  };
}
