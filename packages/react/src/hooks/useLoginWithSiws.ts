import type { LoginResult } from "@symbolon/core";
import { toLoginComplete } from "./toLoginComplete";
import { addressOf } from "./useLoginWithSiwe";
import { type UseLoginWithWalletOptions, useSignInWithWallet } from "./useSignInWithWallet";

/**
 * Headless Sign-In With Solana: `generateSiwsMessage({address})` gives the message for the app's own
 * Solana wallet to sign (`solana:signMessage`), then `loginWithSiws({message, signature})` (base64).
 */
export function useLoginWithSiws(options: UseLoginWithWalletOptions = {}) {
  const { generateMessage, submit, state } = useSignInWithWallet<LoginResult>(
    "useLoginWithSiws",
    "solana",
    "login",
    (result) => options.onComplete?.(toLoginComplete(result, addressOf(result), "siws")),
    options.onError,
  );
  return { generateSiwsMessage: generateMessage, loginWithSiws: submit, state };
}
