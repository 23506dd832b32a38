import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isApiError } from "../errors/ApiError.ts";
import { isClientError } from "../errors/ClientError.ts";
import { RETRYABLE_STATUSES } from "../generated/protocol.ts";
import { type ScriptedServer, startScriptedServer } from "../test/scriptedServer.ts";
import { type RequestOptions, request } from "./request.ts";

let server: ScriptedServer;
let sleeps: number[];

beforeEach(async () => {
  server = await startScriptedServer();
  sleeps = [];
});
afterEach(() => server.close());

function call(path: string, extra: Partial<RequestOptions> = {}) {
  return request<unknown>({
    url: `${server.url}${path}`,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: { hello: "world" },
    fetch: globalThis.fetch,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...extra,
  });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e,
  );
}

describe("request", () => {
  it("sends the JSON body with credentials included and resolves with the JSON answer", async () => {
    const inits: RequestInit[] = [];
    server.on("POST /x", () => ({ json: { ok: 1 } }));
    const fetchSpy: typeof fetch = (url, init) => {
      if (init) inits.push(init);
      return globalThis.fetch(url, init);
    };
    await expect(call("/x", { fetch: fetchSpy })).resolves.toEqual({ ok: 1 });
    expect(server.hitsOf("POST /x")[0]?.body).toEqual({ hello: "world" });
    expect(inits[0]?.credentials).toBe("include");
  });

  it("retries 503 three times with 500 ms x 3^n delays, then succeeds", async () => {
    server.on("POST /x", (_hit, i) =>
      i < 3 ? { status: 503, json: { error: "busy", code: "internal_error" } } : { json: { ok: true } },
    );
    await expect(call("/x")).resolves.toEqual({ ok: true });
    expect(server.hitsOf("POST /x")).toHaveLength(4);
    expect(sleeps).toEqual([500, 1500, 4500]);
  });

  it.each(RETRYABLE_STATUSES.map((s) => [s]))("retries HTTP %i", async (status) => {
    server.on("POST /x", (_hit, i) =>
      i === 0 ? { status, json: { error: "again", code: "resource_conflict" } } : { json: {} },
    );
    await call("/x");
    expect(server.hitsOf("POST /x")).toHaveLength(2);
  });

  it("gives up after 3 retries with the server error as ApiError", async () => {
    server.on("POST /x", () => ({ status: 500, json: { error: "Boom", code: "internal_error" } }));
    const e = await rejection(call("/x"));
    expect(isApiError(e) && e.code).toBe("internal_error");
    expect(isApiError(e) && e.status).toBe(500);
    expect(isApiError(e) && e.message).toBe("Boom");
    expect(server.hitsOf("POST /x")).toHaveLength(4);
  });

  it("never retries 429 and reports Retry-After", async () => {
    server.on("POST /x", () => ({
      status: 429,
      headers: { "retry-after": "7" },
      json: { error: "Slow down", code: "too_many_requests" },
    }));
    const e = await rejection(call("/x"));
    expect(isApiError(e) && e.code).toBe("too_many_requests");
    expect(isApiError(e) && e.retryAfterSeconds).toBe(7);
    expect(server.hitsOf("POST /x")).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("does not retry a permanent refusal (400)", async () => {
    server.on("POST /x", () => ({ status: 400, json: { error: "Bad code", code: "invalid_credentials" } }));
    const e = await rejection(call("/x"));
    expect(isApiError(e) && e.code).toBe("invalid_credentials");
    expect(server.hitsOf("POST /x")).toHaveLength(1);
  });

  it("retries network failures and then fails with network_error keeping the cause", async () => {
    server.on("POST /x", () => ({ drop: true }));
    const e = await rejection(call("/x"));
    expect(isClientError(e) && e.code).toBe("network_error");
    expect(isClientError(e) && e.cause).toBeInstanceOf(Error);
    expect(server.hitsOf("POST /x")).toHaveLength(4);
  });

  it("recovers when the network comes back during retries", async () => {
    server.on("POST /x", (_hit, i) => (i < 2 ? { drop: true } : { json: { ok: "back" } }));
    await expect(call("/x")).resolves.toEqual({ ok: "back" });
    expect(sleeps).toEqual([500, 1500]);
  });

  it("aborts a request that takes longer than the timeout", async () => {
    server.on("POST /x", () => ({ hang: true }));
    const started = Date.now();
    const e = await rejection(call("/x", { timeoutMs: 150, retries: 1 }));
    expect(isClientError(e) && e.code).toBe("network_error");
    expect(isClientError(e) && e.message).toMatch(/timed out after 150 ms/);
    expect(server.hitsOf("POST /x")).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("turns a non-JSON success into network_error", async () => {
    server.on("POST /x", () => ({ text: "<html>proxy</html>", headers: { "content-type": "text/html" } }));
    const e = await rejection(call("/x"));
    expect(isClientError(e) && e.code).toBe("network_error");
    expect(isClientError(e) && e.message).toMatch(/not JSON/);
    expect(server.hitsOf("POST /x")).toHaveLength(1);
  });

  it("retries a non-JSON 502 from a proxy, then reports network_error", async () => {
    server.on("POST /x", () => ({
      status: 502,
      text: "Bad Gateway",
      headers: { "content-type": "text/plain" },
    }));
    const e = await rejection(call("/x"));
    expect(isClientError(e) && e.code).toBe("network_error");
    expect(server.hitsOf("POST /x")).toHaveLength(4);
  });

  it("reports an error without a code as network_error, not as a server code", async () => {
    server.on("POST /x", () => ({ status: 403, json: { message: "nope" } }));
    const e = await rejection(call("/x"));
    expect(isClientError(e) && e.code).toBe("network_error");
  });
});
