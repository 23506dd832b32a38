import {
  formatUser,
  getAccessToken,
  logout,
  unlinkEmail,
  unlinkFarcaster,
  unlinkPhone,
  unlinkTelegram,
} from "@symbolon/core";
import { useCallback, useMemo } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";
import { loadExternalWallets } from "./loadExternalWallets";
import {
  type OAuthLinkCalls,
  type OAuthUnlinkCalls,
  oauthLinkCalls,
  oauthUnlinkCalls,
  openOAuthLink,
} from "./oauthAccountCalls";
import { openAccountFlow } from "./openAccountFlow";
import { requireClient } from "./requireClient";
import { useClientState } from "./useClientState";
import { useFormattedUser } from "./useFormattedUser";

type FormattedUser = ReturnType<typeof formatUser>;

/**
 * What {@link usePrivy} returns. Also `linkGoogle()`, `linkGithub()`, … (the modal's OAuth link flow;
 * outcomes through `useLinkAccount` callbacks) and `unlinkGoogle(subject)`, … for every built-in provider.
 */
export interface UsePrivyReturn extends OAuthLinkCalls, OAuthUnlinkCalls {
  /** False until the session was restored (always false on the server and first render). */
  ready: boolean;
  authenticated: boolean;
  user: ReturnType<typeof useFormattedUser>;
  /** Opens the login modal. */
  login: () => void;
  logout: () => Promise<void>;
  /** A valid access token, refreshed when needed, or null when signed out. */
  getAccessToken: () => Promise<string | null>;
  /**
   * Opens the modal's link flow for an email / a phone (outcomes: `useLinkAccount` callbacks).
   * Throws the spec §5 message when signed out or when one is already linked.
   */
  linkEmail: () => void;
  linkPhone: () => void;
  /**
   * Opens the modal's update flow for the user's email / phone (outcomes: `useUpdateAccount`).
   * Throws 'User is required to have an email address to update it.' (or the phone one) without one.
   */
  updateEmail: () => void;
  updatePhone: () => void;
  /** Removes an email / phone; resolves with the user as it is now, rejects with the server's refusal. */
  unlinkEmail: (address: string) => Promise<FormattedUser>;
  unlinkPhone: (phoneNumber: string) => Promise<FormattedUser>;
  /** Removes the Telegram account with this user id. */
  unlinkTelegram: (telegramUserId: string) => Promise<FormattedUser>;
  /** Removes the Farcaster account with this fid. */
  unlinkFarcaster: (fid: number) => Promise<FormattedUser>;
  /** Opens the modal's wallet list to connect an external wallet without signing in with it. */
  connectWallet: () => void;
  /** Opens the modal's wallet list to link an external wallet (SIWE/SIWS); needs a signed-in user. */
  linkWallet: () => void;
  /** Unlinks an external wallet (Ethereum or Solana); embedded wallets cannot be unlinked. */
  unlinkWallet: (address: string) => Promise<FormattedUser>;
}

/** Login state and actions, like the spec client's `usePrivy`. */
export function usePrivy(): UsePrivyReturn {
  const { client, controller } = usePrivyContext("usePrivy");
  const ready = useClientState("usePrivy", (state) => state.ready, false);
  const authenticated = useClientState("usePrivy", (state) => state.authenticated, false);
  const user = useFormattedUser("usePrivy");
  const login = useCallback(() => controller?.login(), [controller]);
  const doLogout = useCallback(async () => {
    if (client) await logout(client);
  }, [client]);
  const token = useCallback(async () => (client ? getAccessToken(client) : null), [client]);
  const accountCalls = useMemo(
    () => ({
      linkEmail: () => openAccountFlow(client, controller, "link", "email"),
      linkPhone: () => openAccountFlow(client, controller, "link", "phone"),
      updateEmail: () => openAccountFlow(client, controller, "update", "email"),
      updatePhone: () => openAccountFlow(client, controller, "update", "phone"),
      unlinkEmail: async (address: string) =>
        formatUser((await unlinkEmail(requireClient(client, "usePrivy"), address)).user),
      unlinkPhone: async (phoneNumber: string) =>
        formatUser((await unlinkPhone(requireClient(client, "usePrivy"), phoneNumber)).user),
      ...oauthLinkCalls((provider) => openOAuthLink(client, controller, provider)),
      ...oauthUnlinkCalls(client, "usePrivy"),
      unlinkTelegram: async (telegramUserId: string) =>
        formatUser((await unlinkTelegram(requireClient(client, "usePrivy"), telegramUserId)).user),
      unlinkFarcaster: async (fid: number) =>
        formatUser((await unlinkFarcaster(requireClient(client, "usePrivy"), fid)).user),
      connectWallet: () => controller?.openConnectWallet(),
      linkWallet: () => controller?.openLinkWallet(),
      unlinkWallet: async (address: string) => {
        const ready = requireClient(client, "usePrivy");
        return formatUser((await (await loadExternalWallets()).unlinkWallet(ready, address)).user);
      },
    }),
    [client, controller],
  );
  return useMemo(
    () => ({ ready, authenticated, user, login, logout: doLogout, getAccessToken: token, ...accountCalls }),
    [ready, authenticated, user, login, doLogout, token, accountCalls],
  );
}
