import { type AccountChangeResult, formatUser } from "@symbolon/core";
import { type UseLinkWithWalletOptions, useSignInWithWallet } from "./useSignInWithWallet";

/** Headless SIWS link: `generateSiwsMessage({address})`, then `linkWithSiws({message, signature})`. */
export function useLinkWithSiws(options: UseLinkWithWalletOptions = {}) {
  const { generateMessage, submit, state } = useSignInWithWallet<AccountChangeResult>(
    "useLinkWithSiws",
    "solana",
    "link",
    (result) => options.onSuccess?.(formatUser(result.user)),
    options.onError,
  );
  return { generateSiwsMessage: generateMessage, linkWithSiws: submit, state };
}
