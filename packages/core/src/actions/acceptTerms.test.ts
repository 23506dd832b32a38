import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isClientError } from "../errors/ClientError.ts";
import { storageKey } from "../session/storageKey.ts";
import { createMemoryStorage } from "../storage/createMemoryStorage.ts";
import { APP_ID, makeUser } from "../test/fixtures.ts";
import { destroyClients, makeClient, storeSession } from "../test/harness.ts";
import { type ScriptedApp, scriptApp } from "../test/scriptApp.ts";
import { type ScriptedServer, startScriptedServer } from "../test/scriptedServer.ts";
import { acceptTerms } from "./acceptTerms.ts";
import { initialize } from "./initialize.ts";

let server: ScriptedServer;
let app: ScriptedApp;

beforeEach(async () => {
  server = await startScriptedServer();
  app = scriptApp(server, { user: makeUser({ has_accepted_terms: false }) });
});
afterEach(async () => {
  destroyClients();
  await server.close();
});

describe("acceptTerms", () => {
  it.each([
    ["{user}", (user: unknown) => ({ user })],
    ["a bare user", (user: unknown) => user],
  ])("records acceptance and updates the user (server answers %s)", async (_name, shape) => {
    const accepted = makeUser({ has_accepted_terms: true });
    server.on("POST /api/v1/users/me/accept_terms", () => ({ json: shape(accepted) }));
    const storage = createMemoryStorage();
    const session = app.issue();
    storeSession(storage, session);
    const client = makeClient(server, { storage });
    await initialize(client);
    await expect(acceptTerms(client)).resolves.toEqual(accepted);
    expect(server.hitsOf("POST /api/v1/users/me/accept_terms")[0]?.headers.authorization).toBe(
      `Bearer ${session.token}`,
    );
    expect(client.store.getState().user?.has_accepted_terms).toBe(true);
    expect(JSON.parse(storage.getItem(storageKey(APP_ID, "user")) ?? "null")).toEqual(accepted);
  });

  it("needs a signed-in user", async () => {
    const e = await acceptTerms(makeClient(server)).catch((err: unknown) => err);
    expect(isClientError(e) && e.message).toBe("Missing access token");
    expect(server.hitsOf("POST /api/v1/users/me/accept_terms")).toHaveLength(0);
  });
});
