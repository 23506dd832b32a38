import { useEffect, useState } from "react";

/** How long "Copied" stays. */
const COPIED_MS = 2_000;

/** "Copy address": writes the address to the clipboard and announces "Copied" to screen readers. */
export function CopyAddress({ address }: { address: string }) {
  const [note, setNote] = useState("");
  useEffect(() => {
    if (!note) return;
    const timer = setTimeout(() => setNote(""), COPIED_MS);
    return () => clearTimeout(timer);
  }, [note]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(address);
      setNote("Copied");
    } catch {
      setNote("Could not copy; select the address instead");
    }
  };

  return (
    <>
      <button type="button" className="button button--small button--ghost" onClick={() => void copy()}>
        Copy address
      </button>
      <span className="wallet-note" aria-live="polite">
        {note}
      </span>
    </>
  );
}
