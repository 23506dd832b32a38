import { type FarcasterChannel, type LoginWithFarcasterParameters, loginWithFarcaster } from "@symbolon/core";
import { useMemo, useState } from "react";
import { type LoginActionOptions, type LoginActionState, useLoginAction } from "./useLoginAction";

/** Callbacks of {@link useLoginWithFarcaster}. */
export type UseLoginWithFarcasterOptions = LoginActionOptions;

/** State of the relay flow: while `loading`, `url` is the channel to show (QR code or link). */
export interface LoginWithFarcasterState extends LoginActionState {
  url?: string;
}

/**
 * Headless Sign In With Farcaster through the relay: `login()` opens a channel (`state.url`, for a
 * QR code on desktop or a link on mobile), polls every 2 s until the user approves in the Farcaster
 * app and signs in; after 300 s it fails with 'Connect failed' / 'The request timed out. Try again.'.
 */
export function useLoginWithFarcaster(options: UseLoginWithFarcasterOptions = {}) {
  const [channel, setChannel] = useState<FarcasterChannel | null>(null);
  const { login, state } = useLoginAction<LoginWithFarcasterParameters | undefined>(
    "useLoginWithFarcaster",
    "farcaster",
    (client, parameters) => {
      setChannel(null);
      return loginWithFarcaster(client, {
        ...parameters,
        onChannel: (opened) => {
          setChannel(opened);
          parameters?.onChannel?.(opened);
        },
      });
    },
    options,
  );
  const withUrl = useMemo<LoginWithFarcasterState>(
    () => (state.status === "loading" && channel ? { ...state, url: channel.url } : state),
    [state, channel],
  );
  return { login: (parameters?: LoginWithFarcasterParameters) => login(parameters), state: withUrl };
}
