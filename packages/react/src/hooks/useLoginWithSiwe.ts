import type { LoginResult } from "@symbolon/core";
import { toLoginComplete } from "./toLoginComplete";
import { type UseLoginWithWalletOptions, useSignInWithWallet } from "./useSignInWithWallet";

/**
 * Headless Sign-In With Ethereum (spec client `useLoginWithSiwe`): `generateSiweMessage({address,
 * chainId})` gives the EIP-4361 message for the app's own wallet to `personal_sign`, then
 * `loginWithSiwe({message, signature})` logs in. `state` follows the spec §4 SIWE flow.
 */
export function useLoginWithSiwe(options: UseLoginWithWalletOptions = {}) {
  const { generateMessage, submit, state } = useSignInWithWallet<LoginResult>(
    "useLoginWithSiwe",
    "ethereum",
    "login",
    (result) => options.onComplete?.(toLoginComplete(result, addressOf(result), "siwe")),
    options.onError,
  );
  return { generateSiweMessage: generateMessage, loginWithSiwe: submit, state };
}

/** The wallet account the login used: the most recently verified one. */
export function addressOf(result: LoginResult): string | null {
  const wallets = result.user.linked_accounts.filter(
    (a): a is Extract<typeof a, { type: "wallet" }> => a.type === "wallet" && a.connector_type !== "embedded",
  );
  wallets.sort((a, b) => (b.latest_verified_at ?? 0) - (a.latest_verified_at ?? 0));
  return wallets[0]?.address ?? null;
}
