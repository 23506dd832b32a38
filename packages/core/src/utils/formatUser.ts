import type { LinkedAccount, User, Verification } from "../generated/protocol.ts";
import type {
  PrivyLinkedAccount,
  PrivyOAuthAccount,
  PrivyOAuthKey,
  PrivyUser,
  PrivyVerification,
  PrivyWalletAccount,
} from "./PrivyUser.ts";

/** Turns the server form of a user (snake_case, unix seconds) into the client form of spec §3. */
export function formatUser(user: User): PrivyUser {
  const linkedAccounts = user.linked_accounts.map(formatAccount);
  const wallets = linkedAccounts.filter((a): a is PrivyWalletAccount => a.type === "wallet");
  const email = linkedAccounts.find((a) => a.type === "email");
  const phone = linkedAccounts.find((a) => a.type === "phone");
  const custom = linkedAccounts.find((a) => a.type === "custom_auth");
  const farcaster = linkedAccounts.find((a) => a.type === "farcaster");
  const telegram = linkedAccounts.find((a) => a.type === "telegram");
  const wallet =
    wallets.find((w) => w.connectorType === "embedded" && w.chainType === "ethereum") ??
    wallets.find((w) => w.connectorType === "embedded") ??
    wallets[0];
  return {
    id: user.id,
    createdAt: fromSeconds(user.created_at),
    ...(email ? { email: { address: email.address } } : {}),
    ...(phone ? { phone: { number: phone.number } } : {}),
    ...(custom ? { customAuth: { customUserId: custom.customUserId } } : {}),
    ...(farcaster ? { farcaster } : {}),
    ...(telegram ? { telegram } : {}),
    ...(wallet ? { wallet } : {}),
    ...oauthAccounts(linkedAccounts),
    linkedAccounts,
    mfaMethods: user.mfa_methods.map((m) => m.type),
    hasAcceptedTerms: user.has_accepted_terms,
    isGuest: user.is_guest,
    ...(user.custom_metadata ? { customMetadata: user.custom_metadata } : {}),
  };
}

/** `user.google`, `user.github`, …: the first account of each provider. */
function oauthAccounts(accounts: PrivyLinkedAccount[]): Partial<Record<PrivyOAuthKey, PrivyOAuthAccount>> {
  const found: Partial<Record<PrivyOAuthKey, PrivyOAuthAccount>> = {};
  for (const account of accounts) {
    if (!account.type.endsWith("_oauth")) continue;
    const oauth = account as PrivyOAuthAccount;
    const key = oauth.type.slice(0, -"_oauth".length) as PrivyOAuthKey;
    found[key] ??= oauth;
  }
  return found;
}

function formatAccount(account: LinkedAccount): PrivyLinkedAccount {
  switch (account.type) {
    case "email":
      return { type: "email", address: account.address, ...verification(account) };
    case "phone":
      return { type: "phone", number: account.phoneNumber, ...verification(account) };
    case "custom_auth":
      return { type: "custom_auth", customUserId: account.custom_user_id, ...verification(account) };
    case "wallet":
      return {
        type: "wallet",
        id: account.id,
        address: account.address,
        chainType: account.chain_type,
        walletClientType: account.wallet_client_type,
        connectorType: account.connector_type,
        walletIndex: account.wallet_index,
        recoveryMethod: account.recovery_method,
        imported: account.imported,
        delegated: account.delegated,
        ...verification(account),
      };
    case "farcaster":
      return {
        type: "farcaster",
        fid: account.fid,
        ownerAddress: account.owner_address,
        username: account.username,
        displayName: account.display_name,
        bio: account.bio,
        pfp: account.profile_picture_url,
        signerPublicKey: account.signer_public_key,
        ...verification(account),
      };
    case "telegram":
      return {
        type: "telegram",
        telegramUserId: account.telegram_user_id,
        firstName: account.first_name,
        lastName: account.last_name,
        username: account.username,
        photoUrl: account.photo_url,
        ...verification(account),
      };
    case "passkey":
      return {
        type: "passkey",
        credentialId: account.credential_id,
        authenticatorName: account.authenticator_name,
        createdWithBrowser: account.created_with_browser,
        createdWithOs: account.created_with_os,
        createdWithDevice: account.created_with_device,
        enrolledInMfa: account.enrolled_in_mfa,
        ...verification(account),
      };
    case "cross_app":
      return {
        type: "cross_app",
        subject: account.subject,
        providerApp: { id: account.provider_app_id },
        embeddedWallets: account.embedded_wallets.map(({ address }) => ({ address })),
        smartWallets: account.smart_wallets.map(({ address }) => ({ address })),
        ...verification(account),
      };
    default:
      // `google_oauth`, … and the operator's `custom:<name>` providers share one shape.
      return {
        type: account.type,
        subject: account.subject,
        email: account.email,
        name: account.name,
        username: account.username,
        ...verification(account),
      };
  }
}

function verification(v: Verification): PrivyVerification {
  return {
    verifiedAt: fromSeconds(v.verified_at),
    firstVerifiedAt: v.first_verified_at === null ? null : fromSeconds(v.first_verified_at),
    latestVerifiedAt: v.latest_verified_at === null ? null : fromSeconds(v.latest_verified_at),
  };
}

function fromSeconds(seconds: number): Date {
  return new Date(seconds * 1000);
}
