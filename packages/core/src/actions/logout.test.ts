import { describe, expect, it } from "vitest";
import { storageKey } from "../session/storageKey.ts";
import { createMemoryStorage } from "../storage/createMemoryStorage.ts";
import { APP_ID } from "../test/fixtures.ts";
import { makeClient, storeSession, useScriptedApp } from "../test/harness.ts";
import { getAccessToken } from "./getAccessToken.ts";
import { initialize } from "./initialize.ts";
import { logout } from "./logout.ts";

const scripted = useScriptedApp();

async function signedIn() {
  const storage = createMemoryStorage();
  const session = scripted.app.issue();
  storeSession(storage, session);
  const client = makeClient(scripted.server, { storage });
  await initialize(client);
  return { client, storage, session };
}

describe("logout", () => {
  it("revokes the session on the server and forgets it locally", async () => {
    const { client, storage, session } = await signedIn();
    await logout(client);
    const [hit] = scripted.server.hitsOf("POST /api/v1/sessions/logout");
    expect(hit?.body).toEqual({ refresh_token: session.refresh_token });
    expect(hit?.headers.authorization).toBe(`Bearer ${session.token}`);
    expect(client.store.getState()).toMatchObject({ authenticated: false, user: null, identityToken: null });
    for (const item of ["token", "refresh_token", "id_token", "user"] as const) {
      expect(storage.getItem(storageKey(APP_ID, item))).toBeNull();
    }
    await expect(getAccessToken(client)).resolves.toBeNull();
  });

  it("signs out locally even when the server cannot be reached", async () => {
    const { client } = await signedIn();
    scripted.server.on("POST /api/v1/sessions/logout", () => ({ drop: true }));
    await logout(client);
    expect(client.store.getState().authenticated).toBe(false);
    expect(scripted.server.hitsOf("POST /api/v1/sessions/logout")).toHaveLength(1);
  });
});
