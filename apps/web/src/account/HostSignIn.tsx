import { useId, useState } from "react";

/**
 * Custom auth, as a host app does it: the user signs in to the host's own login (here the local
 * host-auth stand-in, which issues JWTs), and the provider's `customAuth` turns that token into a
 * session. Shown only when the environment names the stand-in.
 */
export function HostSignIn({
  hostAuthUrl,
  onToken,
}: {
  hostAuthUrl: string;
  onToken: (token: string) => void;
}) {
  const inputId = useId();
  const [userId, setUserId] = useState("host-user-1");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const signIn = async () => {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(`${hostAuthUrl.replace(/\/$/, "")}/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ sub: userId.trim() }),
      });
      const body = (await res.json()) as { token?: string; error?: string };
      if (!res.ok || !body.token) throw new Error(body.error ?? `The host's login answered ${res.status}.`);
      onToken(body.token);
    } catch (e) {
      setError(e instanceof Error ? e.message : "The host's login could not be reached.");
      setBusy(false);
    }
  };

  return (
    <form
      className="card host-sign-in"
      aria-labelledby={`${inputId}-title`}
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy && userId.trim()) void signIn();
      }}
    >
      <h2 className="card__title" id={`${inputId}-title`}>
        Host app sign-in
      </h2>
      <p className="card__label">Custom auth: the host's own login issues a JWT; Symbolon trusts its keys.</p>
      <label className="card__label" htmlFor={inputId}>
        Host user id
      </label>
      <input
        id={inputId}
        className="field__input"
        value={userId}
        maxLength={128}
        onChange={(event) => setUserId(event.target.value)}
      />
      <button type="submit" className="button button--ghost" disabled={busy || !userId.trim()}>
        {busy ? "Signing in…" : "Sign in with the host app"}
      </button>
      {error && (
        <p role="alert" className="field__error">
          {error}
        </p>
      )}
    </form>
  );
}
