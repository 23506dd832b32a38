import { describe, expect, it } from "vitest";
import { storageKey } from "../session/storageKey.ts";
import { createMemoryStorage } from "../storage/createMemoryStorage.ts";
import { APP_ID, makeUser } from "../test/fixtures.ts";
import { makeClient, useScriptedApp } from "../test/harness.ts";
import { loginAsGuest } from "./loginAsGuest.ts";
import { loginWithEmailCode } from "./loginWithEmailCode.ts";
import { logout } from "./logout.ts";

const scripted = useScriptedApp();

describe("loginAsGuest", () => {
  it("makes a 32-byte base64url credential once, stores it, reuses it, and logout forgets it", async () => {
    scripted.app.user = makeUser({ is_guest: true, linked_accounts: [] });
    scripted.server.on("POST /api/v1/guest/authenticate", () => ({ json: scripted.app.issue() }));
    const storage = createMemoryStorage();
    const client = makeClient(scripted.server, { storage });
    const result = await loginAsGuest(client);
    expect(result.user.is_guest).toBe(true);
    const credential = storage.getItem(storageKey(APP_ID, "guest_credential"));
    expect(credential).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(scripted.server.hitsOf("POST /api/v1/guest/authenticate")[0]?.body).toEqual({
      guest_credential: credential,
    });
    // A second client over the same storage (a reload) signs the same guest in.
    const reloaded = makeClient(scripted.server, { storage });
    await loginAsGuest(reloaded);
    expect(scripted.server.hitsOf("POST /api/v1/guest/authenticate")[1]?.body).toEqual({
      guest_credential: credential,
    });
    await logout(reloaded);
    expect(storage.getItem(storageKey(APP_ID, "guest_credential"))).toBeNull();
  });

  it("a guest may then log in with a real method (the login is not ignored) and forgets the credential", async () => {
    scripted.app.user = makeUser({ is_guest: true, linked_accounts: [] });
    scripted.server.on("POST /api/v1/guest/authenticate", () => ({ json: scripted.app.issue() }));
    const storage = createMemoryStorage();
    const client = makeClient(scripted.server, { storage });
    await loginAsGuest(client);
    expect(storage.getItem(storageKey(APP_ID, "guest_credential"))).not.toBeNull();
    scripted.app.user = makeUser({ is_guest: false });
    const result = await loginWithEmailCode(client, { email: "ada@example.com", code: "123456" });
    expect(result.wasAlreadyAuthenticated).toBe(false);
    // The upgraded guest's credential is no way in any more: nothing of it stays in the page's storage.
    expect(storage.getItem(storageKey(APP_ID, "guest_credential"))).toBeNull();
  });
});
