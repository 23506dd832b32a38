import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import type {
  EmailTransferRequest,
  ExternalWalletMetadata,
  FarcasterTransferRequest,
  OAuthTransferRequest,
  OAuthUserInfo,
  SiweTransferRequest,
  SmsTransferRequest,
} from "../generated/protocol.ts";
import { type AccountChangeResult, accountRequest, requireUser } from "../session/accountRequest.ts";

/** Parameters of {@link transferAccount}. */
export interface TransferAccountParameters {
  /**
   * `email`, `phone`, `farcaster`, or an OAuth account's type (`google_oauth`, …, `custom:<name>`,
   * `cross_app`). Spec §5: custom, guest and passkey accounts cannot be transferred.
   */
  accountType: string;
  /** The nonce of the `account_transfer_required` refusal (`transferData(error).nonce`). */
  nonce: string;
  /** The address, number or fid being moved (OAuth: the provider's subject). */
  subject: string;
  /** OAuth accounts: the refusal's `oauth_user_info` (`transferData(error).oauth_user_info`). */
  userInfo?: OAuthUserInfo;
  /** Wallets: how the wallet is connected now (the refused link's `walletClientType`, `connectorType`). */
  metadata?: ExternalWalletMetadata;
}

/**
 * Moves an email, phone or Farcaster account that belongs to another user to the signed-in one (spec §7 "Account
 * transfer POST by type"): `POST /passwordless/transfer {nonce, email}` or
 * `POST /passwordless_sms/transfer {nonce, phoneNumber}`, `POST /farcaster/transfer {nonce, farcaster_id}`,
 * `POST /oauth/transfer {nonce, userInfo}`, or for wallets `POST /siwe/transfer` / `/siws/transfer
 * {nonce, address, metadata}`.
 */
export async function transferAccount(
  client: Client,
  parameters: TransferAccountParameters,
): Promise<AccountChangeResult> {
  requireUser(client);
  const { accountType, nonce } = parameters;
  const subject = parameters.subject.trim();
  if (accountType === "email") {
    const body: EmailTransferRequest = { nonce, email: subject };
    return accountRequest(client, "/passwordless/transfer", body);
  }
  if (accountType === "phone") {
    const body: SmsTransferRequest = { nonce, phoneNumber: subject };
    return accountRequest(client, "/passwordless_sms/transfer", body);
  }
  if (parameters.userInfo) {
    const body: OAuthTransferRequest = { nonce, userInfo: parameters.userInfo };
    return accountRequest(client, "/oauth/transfer", body);
  }
  if (accountType === "wallet") {
    const body: SiweTransferRequest = { nonce, address: subject };
    if (parameters.metadata) body.metadata = parameters.metadata;
    return accountRequest(client, subject.startsWith("0x") ? "/siwe/transfer" : "/siws/transfer", body);
  }
  if (accountType === "farcaster" && /^\d+$/.test(subject)) {
    const body: FarcasterTransferRequest = { nonce, farcaster_id: Number(subject) };
    return accountRequest(client, "/farcaster/transfer", body);
  }
  throw new ClientError("invalid_input", `Accounts of type ${String(accountType)} cannot be transferred.`);
}
