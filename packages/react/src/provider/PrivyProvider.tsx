import {
  type Client,
  createClient,
  initialize,
  isOAuthPopupReturn,
  seamlessTelegramLogin,
  setWalletConfirmation,
} from "@symbolon/core";
import { type ReactNode, useContext, useEffect, useMemo, useRef, useState } from "react";
import { useCustomAuth } from "../hooks/useCustomAuth";
import { assertAppId } from "./assertAppId";
import { assertSecureOrigin } from "./assertSecureOrigin";
import { claimProviderSlot, ONLY_ONE_PROVIDER_MESSAGE } from "./claimProviderSlot";
import { createModalController } from "./createModalController";
import { ModalHost } from "./ModalHost";
import type { PrivyConfig } from "./PrivyConfig";
import { PrivyContext, type PrivyContextValue } from "./PrivyContext";
import { toChainConfig } from "./toChainConfig";

/** Props of {@link PrivyProvider}. */
export interface PrivyProviderProps {
  /** The app id: exactly 25 characters. */
  appId: string;
  /** Optional client id, sent as `privy-client-id`. */
  clientId?: string;
  /** Base URL of the Symbolon server, e.g. `http://localhost:8787`. */
  apiUrl: string;
  config?: PrivyConfig;
  children?: ReactNode;
}

type Session = Pick<PrivyContextValue, "client" | "controller">;
const NO_SESSION: Session = { client: null, controller: null };
const NO_CONFIG: PrivyConfig = {};

/**
 * Provides login state and the login modal to its children. The client is created after mount,
 * so server rendering and the first client render agree (`ready` is false in both).
 */
export function PrivyProvider({ appId, clientId, apiUrl, config = NO_CONFIG, children }: PrivyProviderProps) {
  assertAppId(appId);
  if (useContext(PrivyContext)) throw new Error(ONLY_ONE_PROVIDER_MESSAGE);

  const [session, setSession] = useState<Session>(NO_SESSION);
  const [failure, setFailure] = useState<Error | null>(null);
  // Rethrown during render so error boundaries see it like any render error.
  if (failure) throw failure;
  // Read when the client is created; a new config object on every render does not recreate it.
  const configRef = useRef(config);
  configRef.current = config;

  useEffect(() => {
    let release: () => void;
    try {
      assertSecureOrigin(window.location);
      release = claimProviderSlot();
    } catch (error) {
      setFailure(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    let client: Client;
    try {
      client = createClient({ appId, clientId, apiUrl, ...walletOptions(configRef.current) });
    } catch (error) {
      release();
      setFailure(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    const controller = createModalController(client);
    // The confirmation screen asks before each signature, unless the app signs headlessly.
    if (configRef.current.embeddedWallets?.showWalletUIs !== false) {
      setWalletConfirmation(client, controller.confirm);
    }
    setSession({ client, controller });
    // The OAuth popup's page only hands the provider's answer to its opener and closes: no session
    // restore (refreshes, wallet frame) there.
    if (!isOAuthPopupReturn(client)) {
      initialize(client)
        .then(() =>
          // Inside a Telegram Mini App of an app that enables it, sign in without a click.
          seamlessTelegramLogin(client).catch((error: unknown) =>
            console.warn("Symbolon: seamless Telegram login failed", error),
          ),
        )
        .catch((error: unknown) => console.error("Symbolon: initialisation failed", error));
    }
    // An OAuth return in the address: hand it to the opener (popup) or complete it (redirect).
    // A task later, so only a client that stays mounted takes it (StrictMode mounts twice, and the
    // parameters are removed from the address by the first read).
    const oauthReturn = setTimeout(() => controller.handleOAuthReturn(), 0);
    return () => {
      clearTimeout(oauthReturn);
      controller.destroy();
      client.destroy();
      release();
      setSession(NO_SESSION);
    };
  }, [appId, clientId, apiUrl]);

  const value = useMemo<PrivyContextValue>(() => ({ ...session, config }), [session, config]);
  return (
    <PrivyContext.Provider value={value}>
      {children}
      {config.customAuth && <CustomAuthSync />}
      <ModalHost />
    </PrivyContext.Provider>
  );
}

/** The wallet, MFA and passkey part of the client options, from the provider's config. */
function walletOptions(config: PrivyConfig) {
  const {
    embeddedWallets,
    supportedChains,
    defaultChain,
    walletConnectCloudProjectId,
    externalWallets,
    mfa,
    passkeys,
  } = config;
  const chains = (supportedChains ?? (defaultChain ? [defaultChain] : [])).map(toChainConfig);
  const relayUrl = externalWallets?.walletConnect?.relayUrl;
  return {
    ...(embeddedWallets ? { embeddedWallets } : {}),
    ...(walletConnectCloudProjectId ? { walletConnectCloudProjectId } : {}),
    ...(relayUrl ? { walletConnectRelayUrl: relayUrl } : {}),
    ...(externalWallets?.walletConnect?.verify === false ? { walletConnectVerify: false } : {}),
    ...(externalWallets?.explorerUrl ? { walletExplorerUrl: externalWallets.explorerUrl } : {}),
    ...(chains.length > 0 ? { chains } : {}),
    ...(defaultChain ? { defaultChainId: defaultChain.id } : {}),
    ...(mfa ? { mfa } : {}),
    ...(passkeys ? { passkeys } : {}),
  };
}

/** Keeps the session in step with the host's JWT (spec §4 custom token sync). */
function CustomAuthSync() {
  useCustomAuth();
  return null;
}
