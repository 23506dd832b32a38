import { describe, expect, it } from "vitest";
import { memoryStorage } from "../test/frameHarness.ts";
import { createMfaTokens, type TokenStorage } from "./mfaTokens.ts";

const alice = { userId: "did:privy:alice", sessionId: "session-1" };

function tokensAt(time: { now: number }, storage = memoryStorage()) {
  return {
    storage,
    tokens: createMfaTokens(
      () => storage,
      () => time.now,
    ),
  };
}

describe("MFA token store", () => {
  it("keeps {token, expiresAt} under symbolon:mfa:{appId}:{userId} for that session", () => {
    const time = { now: 1000 };
    const { storage, tokens } = tokensAt(time);
    tokens.keep("app", alice, "tok", 1300);
    expect(JSON.parse(storage.getItem("symbolon:mfa:app:did:privy:alice") ?? "null")).toEqual({
      token: "tok",
      expiresAt: 1300,
      sessionId: "session-1",
    });
    expect(tokens.current("app", alice)).toBe("tok");
    // Another app, user or session has none.
    expect(tokens.current("other-app", alice)).toBeNull();
    expect(tokens.current("app", { userId: "did:privy:bob", sessionId: "session-1" })).toBeNull();
  });

  it("drops a token that expired or belongs to another session", () => {
    const time = { now: 1000 };
    const { storage, tokens } = tokensAt(time);
    tokens.keep("app", alice, "tok", 1300);
    expect(tokens.current("app", { ...alice, sessionId: "session-2" })).toBeNull();
    expect(storage.items.size).toBe(0);

    tokens.keep("app", alice, "tok", 1300);
    time.now = 1300;
    expect(tokens.current("app", alice)).toBeNull();
    expect(storage.items.size).toBe(0);
  });

  it("drops an unreadable entry", () => {
    const { storage, tokens } = tokensAt({ now: 1000 });
    storage.setItem("symbolon:mfa:app:did:privy:alice", "{not json");
    expect(tokens.current("app", alice)).toBeNull();
    expect(storage.items.size).toBe(0);
  });

  it("forgets one user's token, or every MFA token and nothing else", () => {
    const { storage, tokens } = tokensAt({ now: 1000 });
    storage.setItem("symbolon:wallet:device-key", "kept");
    tokens.keep("app", alice, "a", 2000);
    tokens.keep("app", { userId: "did:privy:bob", sessionId: null }, "b", 2000);
    tokens.forget("app", "did:privy:alice");
    expect([...storage.items.keys()]).toEqual([
      "symbolon:wallet:device-key",
      "symbolon:mfa:app:did:privy:bob",
    ]);
    tokens.keep("app", alice, "a", 2000);
    tokens.forgetAll();
    expect([...storage.items.keys()]).toEqual(["symbolon:wallet:device-key"]);
  });

  it("reads no token from unreachable storage and refuses to keep one with storage_error", () => {
    const broken: TokenStorage = {
      getItem: () => {
        throw new DOMException("The operation is insecure.", "SecurityError");
      },
      setItem: () => {
        throw new DOMException("The operation is insecure.", "SecurityError");
      },
      removeItem: () => {
        throw new DOMException("The operation is insecure.", "SecurityError");
      },
      key: () => null,
      get length(): number {
        throw new DOMException("The operation is insecure.", "SecurityError");
      },
    };
    const tokens = createMfaTokens(() => broken);
    expect(tokens.current("app", alice)).toBeNull();
    expect(() => tokens.keep("app", alice, "tok", 2000)).toThrow(
      expect.objectContaining({ type: "storage_error", message: "Unable to access storage" }),
    );
    expect(() => tokens.forget("app", alice.userId)).not.toThrow();
    expect(() => tokens.forgetAll()).not.toThrow();
  });
});
