import { describe, expect, it } from "vitest";
import { isClientError } from "../errors/ClientError.ts";
import { APP_ID } from "../test/fixtures.ts";
import { createClient } from "./createClient.ts";

describe("createClient", () => {
  it("starts not ready, signed out, with the email flow at initial", () => {
    const client = createClient({ appId: APP_ID, apiUrl: "http://127.0.0.1:1" });
    expect(client.store.getState()).toEqual({
      ready: false,
      authenticated: false,
      user: null,
      identityToken: null,
      appConfig: null,
      emailFlow: { status: "initial", email: null, error: null },
      error: null,
    });
    client.destroy();
  });

  it.each(["", "short", `${APP_ID}x`])("refuses the app id %j (must be 25 characters)", (appId) => {
    let error: unknown;
    try {
      createClient({ appId, apiUrl: "http://127.0.0.1:1" });
    } catch (e) {
      error = e;
    }
    expect(isClientError(error) && error.code).toBe("invalid_input");
    expect(isClientError(error) && error.message).toBe("App ID must be a string of exactly 25 characters.");
  });

  it("notifies subscribers of changes until they unsubscribe", () => {
    const client = createClient({ appId: APP_ID, apiUrl: "http://127.0.0.1:1" });
    const seen: boolean[] = [];
    const unsubscribe = client.store.subscribe((s) => seen.push(s.ready));
    client.store.setState({ ready: true });
    client.store.setState({ ready: true });
    unsubscribe();
    client.store.setState({ ready: false });
    expect(seen).toEqual([true]);
  });
});
