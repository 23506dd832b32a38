import { useEffect, useState } from "react";

/** How long "Copied" stays. */
const COPIED_MS = 2_000;

/** Props of {@link CopyButton}. */
export interface CopyButtonProps {
  /** What is copied. */
  text: string;
  /** The button's name, e.g. "Copy address", "Copy signature". */
  label: string;
}

/** Writes `text` to the clipboard and announces "Copied" to screen readers. */
export function CopyButton({ text, label }: CopyButtonProps) {
  const [note, setNote] = useState("");
  useEffect(() => {
    if (!note) return;
    const timer = setTimeout(() => setNote(""), COPIED_MS);
    return () => clearTimeout(timer);
  }, [note]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setNote("Copied");
    } catch {
      setNote("Could not copy; select the text instead");
    }
  };

  return (
    <>
      <button type="button" className="button button--small button--ghost" onClick={() => void copy()}>
        {label}
      </button>
      <span className="wallet-note" aria-live="polite">
        {note}
      </span>
    </>
  );
}
