import {
  type Client,
  CROSS_APP_TIMEOUT_MS,
  getCrossAppConnections,
  type OAuthFlowStatus,
} from "@symbolon/core";
import { useEffect, useState } from "react";
import { ConnectionFailed, ConnectionProgress } from "./ConnectionStatus";

/** Props of {@link CrossAppStatusScreen}. */
export interface CrossAppStatusScreenProps {
  client: Client;
  /** `privy:{appId}`. */
  provider: string;
  status: OAuthFlowStatus;
  /** Starts the same connection again. */
  onRetry: () => void;
  titleId?: string | undefined;
}

/** Spec §8: the failure line of a cross-app connection. */
export function crossAppFailure(app: string): string {
  return `There was an issue connecting your ${app} account. Please try again.`;
}

/** Spec §8: no answer from the provider app's consent page within 2 minutes. */
export const CROSS_APP_AUTH_TIMEOUT_MESSAGE = "Authorization request timed out after 2 minutes.";

/** The provider app's name from the app's connections, "another app" until known. */
function useProviderName(client: Client, provider: string): string {
  const [name, setName] = useState("another app");
  useEffect(() => {
    const appId = provider.slice("privy:".length);
    let live = true;
    getCrossAppConnections(client).then(
      (connections) => {
        const found = connections.find((c) => c.provider_app_id === appId);
        if (live && found) setName(found.provider_app_name);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [client, provider]);
  return name;
}

/**
 * The cross-app connection status (spec §2): connecting (the provider app's consent page is open
 * in a popup), success, or failure with the spec §8 line and Retry; after 2 minutes without an
 * answer it says so. Status changes are announced. Loaded lazily.
 */
export default function CrossAppStatusScreen({
  client,
  provider,
  status,
  onRetry,
  titleId,
}: CrossAppStatusScreenProps) {
  const app = useProviderName(client, provider);
  const [timedOut, setTimedOut] = useState(false);
  const waiting = status !== "done" && status !== "error";
  useEffect(() => {
    setTimedOut(false);
    if (!waiting) return;
    const timer = setTimeout(() => setTimedOut(true), CROSS_APP_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [waiting]);

  if (status === "error" || timedOut) {
    return (
      <ConnectionFailed
        title={`Could not connect to ${app}`}
        detail={timedOut ? CROSS_APP_AUTH_TIMEOUT_MESSAGE : crossAppFailure(app)}
        onRetry={onRetry}
        titleId={titleId}
      />
    );
  }
  const done = status === "done";
  return (
    <ConnectionProgress
      done={done}
      title={done ? `Connected to ${app}` : `Connecting to ${app}`}
      subtitle={done ? "You're good to go!" : `Allow the connection in the ${app} window`}
      titleId={titleId}
    />
  );
}
