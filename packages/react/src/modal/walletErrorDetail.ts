import {
  EMBEDDED_LOGIN_MESSAGE,
  UNABLE_TO_CONNECT_MESSAGE,
  WALLET_NOT_CONNECTED_MESSAGE,
} from "@symbolon/core";

/**
 * The line a wallet screen shows for a failed connection (`stage` connect) or sign-in (`sign`), never the
 * raw error: a 4001 rejection says the person declined, the other EIP-1193 codes (spec §8) say what
 * the wallet could not do, the spec §8 sentences where there is one, else a generic line.
 */
export function walletErrorDetail(error: unknown, wallet: string, stage: "connect" | "sign"): string {
  const { code, message } = fieldsOf(error);
  if (isUserRejection(error))
    return stage === "sign"
      ? "You declined the signature request. Try again to sign in."
      : "You declined the connection request. Try again to connect.";
  // Spec §8: the server (invalid_data) and core say this one in the spec's words.
  if (message === EMBEDDED_LOGIN_MESSAGE) return EMBEDDED_LOGIN_MESSAGE;
  switch (code) {
    case "unauthorized":
      return `${wallet} did not share an account. Unlock it and try again.`;
    case "unrecognized_chain":
      return `${wallet} could not switch to this app's network.`;
    case "unsupported_method":
      return `${wallet} does not support this request.`;
    case "wallet_not_connected":
      return WALLET_NOT_CONNECTED_MESSAGE;
    case "invalid_credentials":
      return "The signature could not be verified. Try again.";
    case "too_many_requests":
      return "Too many requests. Please wait before trying again.";
    case "disallowed_login_method":
      return "This app does not allow signing in with a wallet.";
    case "cannot_link_more_of_type":
      return "You cannot authorize more than one account for this user.";
  }
  return stage === "connect" ? UNABLE_TO_CONNECT_MESSAGE : "Something went wrong. Try again.";
}

/** Whether the failure was the person saying no in the wallet (EIP-1193 4001). */
export function isUserRejection(error: unknown): boolean {
  const { code, rpcCode } = fieldsOf(error);
  return code === "user_rejected_request" || rpcCode === 4001 || code === 4001;
}

function fieldsOf(error: unknown): { code?: unknown; rpcCode?: unknown; message?: unknown } {
  return typeof error === "object" && error !== null ? error : {};
}
