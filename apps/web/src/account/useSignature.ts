import { useState } from "react";
import { errorMessage } from "./errorMessage";
import { isUserRejection } from "./isUserRejection";

/**
 * The state of a "sign and show the signature" control: whether it is signing, the last signature,
 * and the error to show inline (a failed call's message, or one the form sets itself).
 */
export function useSignature() {
  const [signing, setSigning] = useState(false);
  const [signature, setSignature] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  /** Runs `sign`, replacing the previous signature or error with its outcome. */
  const run = async (sign: () => Promise<{ signature: string }>) => {
    setSigning(true);
    setSignature(null);
    setError(null);
    try {
      setSignature((await sign()).signature);
    } catch (failure) {
      // Cancelling in the confirmation is the person's choice, not an error: back to the form.
      if (!isUserRejection(failure)) setError(errorMessage(failure));
    } finally {
      setSigning(false);
    }
  };

  /** Shows `message` instead of a signature, without signing (input refused before the call). */
  const refuse = (message: string) => {
    setSignature(null);
    setError(message);
  };

  return { signing, signature, error, run, refuse, clearError: () => setError(null) };
}
