/** Names of what the client keeps in storage. */
export type StoredItem =
  | "token"
  | "refresh_token"
  | "id_token"
  | "privy_access_token"
  | "user"
  | "refresh_lease"
  | "guest_credential"
  | "oauth_pending"
  | "oauth_response"
  | "wallet_connections";

/**
 * The storage key of `item`. Secrets and the cached user are namespaced per app id
 * (`privy:token:<appId>`), so two apps on one origin never read each other's session.
 */
export function storageKey(appId: string, item: StoredItem): string {
  return `privy:${item}:${appId}`;
}
