// The MFA token from `POST /mfa/verify`, kept in the frame origin's sessionStorage (host pages
// cannot read it; the export page frame of the same tab can) under `symbolon:mfa:{appId}:{userId}`
// until it is used, expires, or the user logs out (docs/wallet.md "MFA frame messages").
import { FrameError } from "../frameError.ts";

/** The subset of `Storage` the token store uses. */
export type TokenStorage = Pick<Storage, "getItem" | "setItem" | "removeItem" | "key" | "length">;

/** Whose token: the user (`sub`) and the session (`sid`) the server bound it to. */
export interface MfaTokenOwner {
  userId: string;
  sessionId: string | null;
}

export interface MfaTokens {
  /** The live token of this user and session, or null (an expired or other session's one is dropped). */
  current(appId: string, owner: MfaTokenOwner): string | null;
  /** Keeps `token` (unix seconds `expiresAt`) in place of any earlier one. */
  keep(appId: string, owner: MfaTokenOwner, token: string, expiresAt: number): void;
  /** Forgets the user's token (used up, or refused by the server). */
  forget(appId: string, userId: string): void;
  /** Forgets every token (logout, `privy:mfa:clear`). */
  forgetAll(): void;
}

const PREFIX = "symbolon:mfa:";

/**
 * A store over `storage()` (resolved per call: touching `sessionStorage` itself can throw).
 * Reads and forgets never fail (no token is the safe answer); keeping one throws `storage_error`.
 */
export function createMfaTokens(
  storage: () => TokenStorage,
  now: () => number = () => Math.floor(Date.now() / 1000),
): MfaTokens {
  const keyOf = (appId: string, userId: string) => `${PREFIX}${appId}:${userId}`;
  const remove = (key: string) => {
    try {
      storage().removeItem(key);
    } catch {
      // Unreachable storage holds nothing we could send either.
    }
  };

  return {
    current(appId, owner) {
      const key = keyOf(appId, owner.userId);
      let stored: string | null;
      try {
        stored = storage().getItem(key);
      } catch {
        return null;
      }
      if (stored === null) return null;
      try {
        const { token, expiresAt, sessionId } = JSON.parse(stored) as Record<string, unknown>;
        if (
          typeof token === "string" &&
          token !== "" &&
          typeof expiresAt === "number" &&
          expiresAt > now() &&
          (sessionId ?? null) === owner.sessionId
        ) {
          return token;
        }
      } catch {
        // Unreadable: dropped below.
      }
      // Expired or of another session: the server would refuse it (expired_or_invalid_mfa_token).
      remove(key);
      return null;
    },
    keep(appId, owner, token, expiresAt) {
      try {
        storage().setItem(
          keyOf(appId, owner.userId),
          JSON.stringify({ token, expiresAt, sessionId: owner.sessionId }),
        );
      } catch {
        throw new FrameError("storage_error", "Unable to access storage");
      }
    },
    forget(appId, userId) {
      remove(keyOf(appId, userId));
    },
    forgetAll() {
      let keys: string[] = [];
      try {
        const store = storage();
        for (let i = 0; i < store.length; i += 1) {
          const key = store.key(i);
          if (key?.startsWith(PREFIX)) keys.push(key);
        }
      } catch {
        keys = [];
      }
      for (const key of keys) remove(key);
    },
  };
}
