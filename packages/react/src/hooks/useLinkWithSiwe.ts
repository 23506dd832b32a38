import { type AccountChangeResult, formatUser } from "@symbolon/core";
import { type UseLinkWithWalletOptions, useSignInWithWallet } from "./useSignInWithWallet";

/** Headless SIWE link: `generateSiweMessage({address, chainId})`, then `linkWithSiwe({message, signature})`. */
export function useLinkWithSiwe(options: UseLinkWithWalletOptions = {}) {
  const { generateMessage, submit, state } = useSignInWithWallet<AccountChangeResult>(
    "useLinkWithSiwe",
    "ethereum",
    "link",
    (result) => options.onSuccess?.(formatUser(result.user)),
    options.onError,
  );
  return { generateSiweMessage: generateMessage, linkWithSiwe: submit, state };
}
