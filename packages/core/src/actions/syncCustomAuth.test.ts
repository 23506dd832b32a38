import { describe, expect, it } from "vitest";
import { makeClient, useScriptedApp } from "../test/harness.ts";
import { initialize } from "./initialize.ts";
import { syncCustomAuth } from "./syncCustomAuth.ts";

const scripted = useScriptedApp();

function scriptCustom(refuseFirst = false) {
  let calls = 0;
  scripted.server.on("POST /api/v1/custom_jwt_account/authenticate", () => {
    calls++;
    if (refuseFirst && calls === 1)
      return { status: 400, json: { error: "Linked to another user.", code: "linked_to_another_user" } };
    return { json: scripted.app.issue() };
  });
}

describe("syncCustomAuth (spec §4 custom token sync)", () => {
  it("is not-enabled when the app has custom_jwt_auth off", async () => {
    await scripted.restart({ config: { custom_jwt_auth: false } });
    const client = makeClient(scripted.server);
    await initialize(client);
    const status = await syncCustomAuth(client, {
      getCustomAccessToken: async () => "jwt",
      isLoading: false,
    });
    expect(status).toBe("not-enabled");
    expect(client.store.getState().customAuthSync.status).toBe("not-enabled");
  });

  it("signs in with the token, ignores an unchanged one, logs out on an empty one", async () => {
    await scripted.restart({ config: { custom_jwt_auth: true } });
    scriptCustom();
    const client = makeClient(scripted.server);
    await initialize(client);
    let token: string | null = "jwt-1";
    const params = { getCustomAccessToken: async () => token, isLoading: false };
    expect(await syncCustomAuth(client, { ...params, isLoading: true })).toBe("initial");
    expect(await syncCustomAuth(client, params)).toBe("done");
    expect(scripted.server.hitsOf("POST /api/v1/custom_jwt_account/authenticate")[0]?.body).toEqual({
      token: "jwt-1",
    });
    expect(client.store.getState().authenticated).toBe(true);
    await syncCustomAuth(client, params);
    expect(scripted.server.hitsOf("POST /api/v1/custom_jwt_account/authenticate")).toHaveLength(1);
    token = null;
    expect(await syncCustomAuth(client, params)).toBe("initial");
    expect(client.store.getState().authenticated).toBe(false);
  });

  it("a second sync of the token being signed in joins it (React StrictMode runs effects twice)", async () => {
    await scripted.restart({ config: { custom_jwt_auth: true } });
    scriptCustom();
    const client = makeClient(scripted.server);
    await initialize(client);
    const params = { getCustomAccessToken: async () => "jwt-strict", isLoading: false };
    const [first, second] = await Promise.all([
      syncCustomAuth(client, params),
      syncCustomAuth(client, params),
    ]);
    expect([first, second]).toEqual(["done", "done"]);
    expect(scripted.server.hitsOf("POST /api/v1/custom_jwt_account/authenticate")).toHaveLength(1);
    expect(client.store.getState().authenticated).toBe(true);
  });

  it("a linked_to_another_user refusal resets to initial and retries once", async () => {
    await scripted.restart({ config: { custom_jwt_auth: true } });
    scriptCustom(true);
    const client = makeClient(scripted.server);
    await initialize(client);
    const seen: string[] = [];
    client.store.subscribe((s, p) => {
      if (s.customAuthSync.status !== p.customAuthSync.status) seen.push(s.customAuthSync.status);
    });
    expect(await syncCustomAuth(client, { getCustomAccessToken: async () => "jwt", isLoading: false })).toBe(
      "done",
    );
    expect(seen).toEqual(["loading", "initial", "loading", "done"]);
    expect(scripted.server.hitsOf("POST /api/v1/custom_jwt_account/authenticate")).toHaveLength(2);
  });
});
