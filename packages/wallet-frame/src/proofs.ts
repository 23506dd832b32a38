// The signed messages of the frame's wallet calls; the server builds the same text
// (crates/server/src/wallets/proofs.rs) and both pin it with the same vector.

const HEADER = "Symbolon wallet proof";

/** The message the device key signs to get the auth share of `address`. */
export function unlockMessage(appId: string, userId: string, address: string, nonce: string): string {
  return [
    HEADER,
    "purpose: key_material",
    `app: ${appId}`,
    `user: ${userId}`,
    `address: ${address.toLowerCase()}`,
    `nonce: ${nonce}`,
  ].join("\n");
}

export interface WalletProof {
  purpose: "create" | "replace_shares";
  appId: string;
  userId: string;
  address: string;
  walletIndex: number;
  /** SHA-256 hex of the shares being registered ({@link sharesDigest}), or null. */
  shares: string | null;
  devicePublicKey: string | null;
  nonce: string;
}

/** The message the wallet key signs (`personal_sign`) to register a wallet or new shares. */
export function walletProofMessage(proof: WalletProof): string {
  return [
    HEADER,
    `purpose: ${proof.purpose}`,
    `app: ${proof.appId}`,
    `user: ${proof.userId}`,
    `address: ${proof.address.toLowerCase()}`,
    `wallet index: ${proof.walletIndex}`,
    `shares: ${proof.shares ?? "none"}`,
    `device key: ${proof.devicePublicKey ?? "none"}`,
    `nonce: ${proof.nonce}`,
  ].join("\n");
}

/** SHA-256 (hex) of the auth share's bytes followed by the recovery share's. */
export async function sharesDigest(auth: Uint8Array, recovery: Uint8Array): Promise<string> {
  const both = new Uint8Array(auth.length + recovery.length);
  both.set(auth);
  both.set(recovery, auth.length);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", both));
  both.fill(0);
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}
