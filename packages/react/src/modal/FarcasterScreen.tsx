import {
  type Client,
  type FarcasterChannel,
  isFarcasterError,
  type LoginResult,
  linkFarcaster,
  loginWithFarcaster,
  MOBILE_BREAKPOINT_PX,
} from "@symbolon/core";
import { useEffect, useState } from "react";
import type { FarcasterActions } from "./flows/createFarcasterFlow";
import { QrCode } from "./QrCode";
import { ScreenTitle } from "./ScreenTitle";
import { useMediaQuery } from "./useMediaQuery";

/** Props of {@link FarcasterScreen}. */
export interface FarcasterScreenProps {
  client: Client;
  actions: FarcasterActions;
  /** Log in, or link to the signed-in user. */
  flow: "login" | "link";
  titleId: string;
  onBack?: (() => void) | undefined;
}

/** A failed attempt: the spec §8 title ('Connect failed', …) and its detail line. */
interface Failure {
  title: string;
  detail: string | null;
}

/**
 * Sign In With Farcaster: opens a relay channel and shows it as a QR code (desktop) or a link that
 * opens the Farcaster app (mobile), polls until the user approves (every 2 s, 300 s at most), then
 * signs in or links. Closing the modal stops the poll.
 */
export default function FarcasterScreen({ client, actions, flow, titleId, onBack }: FarcasterScreenProps) {
  const mobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`);
  const [channel, setChannel] = useState<FarcasterChannel | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    void attempt;
    const abort = new AbortController();
    const start = () => {
      const options = { onChannel: setChannel, signal: abort.signal };
      const done =
        flow === "link"
          ? linkFarcaster(client, options).then(({ user }) => actions.accountSaved(user))
          : loginWithFarcaster(client, options).then((result: LoginResult) => actions.succeed(result));
      done.catch((error: unknown) => {
        if (abort.signal.aborted || actions.refuse(error)) return;
        setFailure(
          isFarcasterError(error)
            ? { title: error.message, detail: error.detail }
            : { title: "Connect failed", detail: error instanceof Error ? error.message : null },
        );
      });
    };
    // Started on the next task: an effect that is set up and torn down at once (React's StrictMode
    // in development) then opens no relay channel, so one screen opens exactly one.
    const timer = setTimeout(start, 0);
    return () => {
      clearTimeout(timer);
      abort.abort(new Error("The Farcaster screen was closed."));
    };
  }, [client, actions, flow, attempt]);

  const retry = () => {
    setFailure(null);
    setChannel(null);
    setAttempt((n) => n + 1);
  };

  return (
    <>
      <ScreenTitle id={titleId}>{failure ? failure.title : "Sign in with Farcaster"}</ScreenTitle>
      {failure ? (
        <p className="symbolon-alert" role="alert">
          {failure.detail ?? "Something went wrong. Try again."}
        </p>
      ) : (
        <p className="symbolon-subtitle" aria-live="polite">
          {mobile
            ? "Open the Farcaster app to approve the sign-in."
            : "Scan with your phone's camera, then approve the sign-in in the Farcaster app."}
        </p>
      )}
      {!failure && channel && !mobile && (
        <div className="symbolon-qr">
          <QrCode value={channel.url} label="Farcaster sign-in QR code" />
        </div>
      )}
      <div className="symbolon-methods">
        {!failure && channel && (
          <a className={mobile ? "symbolon-button" : "symbolon-link"} href={channel.url}>
            Open the Farcaster app
          </a>
        )}
        {failure && (
          <button type="button" className="symbolon-button" onClick={retry}>
            Try again
          </button>
        )}
        {onBack && (
          <button type="button" className="symbolon-secondary" onClick={onBack}>
            Back
          </button>
        )}
      </div>
    </>
  );
}
