import { describe, expect, it } from "vitest";
import { createMessageListener, type IncomingMessage } from "./messages.ts";
import { readAllowedOrigins } from "./origins.ts";
import { createFakeServer } from "./test/fakeServer.ts";
import { createFrame, HOST } from "./test/frameHarness.ts";

describe("frame messages", () => {
  it("ignores messages from origins that are not allowed: no answer, no handler run", async () => {
    let ran = false;
    const frame = createFrame(createFakeServer(), {
      handlers: () => ({
        "privy:iframe:ready": () => {
          ran = true;
          return {};
        },
      }),
    });
    const answers = await frame.post(
      { id: "1", event: "privy:iframe:ready", data: {} },
      "https://attacker.example",
      20,
    );
    expect(answers).toEqual([]);
    expect(ran).toBe(false);
    expect(frame.posted).toEqual([]);
  });

  it("ignores malformed messages without answering", async () => {
    const frame = createFrame(createFakeServer());
    for (const data of [
      null,
      "privy:iframe:ready",
      42,
      { event: "privy:iframe:ready", data: {} },
      { id: 7, event: "privy:iframe:ready", data: {} },
      { id: "1", event: "iframe:ready", data: {} },
      { id: "1", event: "privy:iframe:ready" },
      { id: "1", event: "privy:iframe:ready", data: null },
      { id: "1", event: "privy:iframe:ready", data: [] },
    ]) {
      expect(await frame.post(data, HOST, 5)).toEqual([]);
    }
  });

  it("answers {id, event, data} to the sender's origin only", async () => {
    const frame = createFrame(createFakeServer());
    await frame.request("privy:iframe:ready", {});
    expect(frame.posted).toEqual([
      { message: { id: "req-1", event: "privy:iframe:ready", data: {} }, targetOrigin: HOST },
    ]);
  });

  it("answers ready only once the wasm is loaded", async () => {
    let loaded: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => {
      loaded = resolve;
    });
    const frame = createFrame(createFakeServer(), { ready });
    expect(await frame.post({ id: "early", event: "privy:iframe:ready", data: {} }, HOST, 20)).toEqual([]);
    loaded();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(frame.posted.map((p) => p.message)).toEqual([
      { id: "early", event: "privy:iframe:ready", data: {} },
    ]);
  });

  it("answers nothing when the wasm never loads (the host times out)", async () => {
    const frame = createFrame(createFakeServer(), { ready: Promise.reject(new Error("no wasm")) });
    expect(await frame.post({ id: "1", event: "privy:iframe:ready", data: {} }, HOST, 20)).toEqual([]);
  });

  it("answers errors as {id, event, error: {type, message}} without data", async () => {
    const frame = createFrame(createFakeServer());
    const answer = await frame.request("privy:solana-wallet:create", {});
    expect(answer).toEqual({
      id: answer.id,
      event: "privy:solana-wallet:create",
      error: {
        type: "embedded_wallet_request_error",
        message: "Unsupported event: privy:solana-wallet:create",
      },
    });
  });

  it("does not treat inherited object keys as events", async () => {
    const frame = createFrame(createFakeServer());
    const answer = await frame.request("privy:constructor", {});
    expect(answer.error?.message).toBe("Unsupported event: privy:constructor");
  });

  it("ignores a message without a source window", async () => {
    let ran = false;
    const listen = createMessageListener({
      allowedOrigins: new Set([HOST]),
      handlers: {
        "privy:iframe:ready": () => {
          ran = true;
        },
      },
      ready: Promise.resolve(),
    });
    const message: IncomingMessage = {
      origin: HOST,
      data: { id: "1", event: "privy:iframe:ready", data: {} },
      source: null,
    };
    listen(message);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(ran).toBe(false);
  });
});

describe("readAllowedOrigins", () => {
  const page = (content: string | null) => ({
    querySelector: (selector: string) =>
      selector === 'meta[name="symbolon-allowed-origins"]' && content !== null
        ? ({ getAttribute: (name: string) => (name === "content" ? content : null) } as unknown as Element)
        : null,
  });

  it("reads the space-separated origins the server wrote into the page", () => {
    expect([...readAllowedOrigins(page("  http://localhost:5173 https://app.example\n"))]).toEqual([
      "http://localhost:5173",
      "https://app.example",
    ]);
  });

  it("allows nobody without the meta tag", () => {
    expect(readAllowedOrigins(page(null)).size).toBe(0);
    expect(readAllowedOrigins(page("")).size).toBe(0);
  });
});
