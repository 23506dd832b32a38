import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SDK_VERSION_TAG } from "../generated/protocol.ts";
import { storageKey } from "../session/storageKey.ts";
import { createMemoryStorage } from "../storage/createMemoryStorage.ts";
import { APP_ID, mintToken } from "../test/fixtures.ts";
import { destroyClients, makeClient } from "../test/harness.ts";
import { type ScriptedServer, startScriptedServer } from "../test/scriptedServer.ts";
import { apiRequest } from "./apiRequest.ts";

let server: ScriptedServer;
beforeEach(async () => {
  server = await startScriptedServer();
  server.on("GET /api/v1/thing", () => ({ json: { ok: true } }));
});
afterEach(async () => {
  destroyClients();
  await server.close();
});

describe("apiRequest", () => {
  it("sends the spec headers under /api/v1, and no bearer when signed out", async () => {
    const client = makeClient(server, { clientId: "client-1", apiUrl: `${server.url}/` });
    await apiRequest(client, "GET", "/thing");
    const headers = server.hitsOf("GET /api/v1/thing")[0]?.headers ?? {};
    expect(headers["privy-app-id"]).toBe(APP_ID);
    expect(headers["privy-client"]).toBe(SDK_VERSION_TAG);
    expect(headers["privy-client-id"]).toBe("client-1");
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["privy-ca-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(headers.authorization).toBeUndefined();
  });

  it("omits privy-client-id when the host set none", async () => {
    await apiRequest(makeClient(server), "GET", "/thing");
    expect(server.hitsOf("GET /api/v1/thing")[0]?.headers["privy-client-id"]).toBeUndefined();
  });

  it("keeps one analytics id in storage across calls and clients", async () => {
    const storage = createMemoryStorage();
    await apiRequest(makeClient(server, { storage }), "GET", "/thing");
    await apiRequest(makeClient(server, { storage }), "GET", "/thing");
    const [a, b] = server.hitsOf("GET /api/v1/thing").map((h) => h.headers["privy-ca-id"]);
    expect(a).toBe(b);
    expect(storage.getItem("privy:caid")).toBe(a);
  });

  it("sends the stored access token as bearer", async () => {
    const storage = createMemoryStorage();
    const token = mintToken();
    storage.setItem(storageKey(APP_ID, "token"), token);
    await apiRequest(makeClient(server, { storage }), "GET", "/thing");
    expect(server.hitsOf("GET /api/v1/thing")[0]?.headers.authorization).toBe(`Bearer ${token}`);
  });
});
