import type { ChainType, RecoveryMethod } from "../generated/protocol.ts";

/** Verification times of a linked account, client form. */
export interface PrivyVerification {
  /** First verification. */
  verifiedAt: Date;
  firstVerifiedAt: Date | null;
  latestVerifiedAt: Date | null;
}

/** An email account, client form. */
export interface PrivyEmailAccount extends PrivyVerification {
  type: "email";
  address: string;
}

/** A phone account, client form (`number` in E.164, like the spec client's `user.phone.number`). */
export interface PrivyPhoneAccount extends PrivyVerification {
  type: "phone";
  number: string;
}

/** A custom auth account, client form: the host app's user id (spec client `customUserId`). */
export interface PrivyCustomAuthAccount extends PrivyVerification {
  type: "custom_auth";
  customUserId: string;
}

/** A wallet account, client form (spec §3 "Wallet"). */
export interface PrivyWalletAccount extends PrivyVerification {
  type: "wallet";
  id: string | null;
  address: string;
  chainType: ChainType;
  walletClientType: string;
  /** `embedded` for embedded wallets. */
  connectorType: string;
  walletIndex: number | null;
  recoveryMethod: RecoveryMethod | null;
  imported: boolean;
  delegated: boolean;
}

/** The client form's key of each OAuth provider's account (`user.google`, `user.linkedin`, …). */
export type PrivyOAuthKey =
  | "google"
  | "twitter"
  | "twitch"
  | "discord"
  | "github"
  | "spotify"
  | "instagram"
  | "tiktok"
  | "line"
  | "linkedin"
  | "apple";

/**
 * An OAuth provider account (`google_oauth`, …, or an operator's `custom:<name>`), client form: what
 * the provider said of the user.
 */
export interface PrivyOAuthAccount extends PrivyVerification {
  type: `${PrivyOAuthKey}_oauth` | `custom:${string}`;
  /** The provider's stable id of the user. */
  subject: string;
  email: string | null;
  name: string | null;
  username: string | null;
}

/** An account of another app (spec §3 "Cross-app"), client form. */
export interface PrivyCrossAppAccount extends PrivyVerification {
  type: "cross_app";
  /** The user's id in the provider app. */
  subject: string;
  providerApp: { id: string };
  embeddedWallets: Array<{ address: string }>;
  smartWallets: Array<{ address: string }>;
}

/** A Farcaster account, client form (spec §3: the user's `farcaster` has fid and signerPublicKey). */
export interface PrivyFarcasterAccount extends PrivyVerification {
  type: "farcaster";
  fid: number;
  /** The fid's custody address. */
  ownerAddress: string;
  username: string | null;
  displayName: string | null;
  bio: string | null;
  pfp: string | null;
  /** Ed25519 key of the approved Farcaster signer; null until one exists. */
  signerPublicKey: string | null;
}

/** A Telegram account, client form. */
export interface PrivyTelegramAccount extends PrivyVerification {
  type: "telegram";
  telegramUserId: string;
  firstName: string | null;
  lastName: string | null;
  username: string | null;
  photoUrl: string | null;
}

/** A passkey, client form (spec §3 "Passkey"). */
export interface PrivyPasskeyAccount extends PrivyVerification {
  type: "passkey";
  credentialId: string;
  authenticatorName: string | null;
  createdWithBrowser: string | null;
  createdWithOs: string | null;
  createdWithDevice: string | null;
  enrolledInMfa: boolean;
}

/** Any linked account, client form. */
export type PrivyLinkedAccount =
  | PrivyEmailAccount
  | PrivyPhoneAccount
  | PrivyCustomAuthAccount
  | PrivyWalletAccount
  | PrivyOAuthAccount
  | PrivyCrossAppAccount
  | PrivyFarcasterAccount
  | PrivyTelegramAccount
  | PrivyPasskeyAccount;

/** The user as apps see it (spec §3 "User"), camelCase with dates. */
export interface PrivyUser {
  id: string;
  createdAt: Date;
  email?: { address: string };
  phone?: { number: string };
  /** The host app's account when signed in with a custom JWT. */
  customAuth?: { customUserId: string };
  google?: PrivyOAuthAccount;
  twitter?: PrivyOAuthAccount;
  twitch?: PrivyOAuthAccount;
  discord?: PrivyOAuthAccount;
  github?: PrivyOAuthAccount;
  spotify?: PrivyOAuthAccount;
  instagram?: PrivyOAuthAccount;
  tiktok?: PrivyOAuthAccount;
  line?: PrivyOAuthAccount;
  linkedin?: PrivyOAuthAccount;
  apple?: PrivyOAuthAccount;
  /** The linked Farcaster account. */
  farcaster?: PrivyFarcasterAccount;
  /** The linked Telegram account. */
  telegram?: PrivyTelegramAccount;
  /** The first embedded Ethereum wallet, else the first wallet. */
  wallet?: PrivyWalletAccount;
  linkedAccounts: PrivyLinkedAccount[];
  mfaMethods: Array<"totp" | "sms" | "passkey">;
  hasAcceptedTerms: boolean;
  isGuest: boolean;
  /** What the host app's back end stored about the user (`/v1/users/{id}/custom_metadata`); absent until it did. */
  customMetadata?: Record<string, string | number | boolean>;
}
