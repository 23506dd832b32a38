import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ClientError } from "../errors/ClientError.ts";
import type { FrameHost, FrameMessage, FrameMountOptions, FrameWindow } from "./FrameHost.ts";
import { createFrameConnection } from "./frameConnection.ts";
import type { FrameRequest } from "./types.ts";

const SRC = "https://wallet.example/apps/x/embedded-wallets?caid=c1";
const ORIGIN = "https://wallet.example";

/** A hand-driven frame: records what the page posts; the test decides what comes back and from where. */
function manualFrame() {
  const posted: Array<{ message: FrameRequest; targetOrigin: string }> = [];
  const listeners = new Set<(message: FrameMessage) => void>();
  const frameWindow: FrameWindow = {
    postMessage: (message, targetOrigin) => posted.push({ message: message as FrameRequest, targetOrigin }),
  };
  let mountOptions: FrameMountOptions | null = null;
  let removed = 0;
  const host: FrameHost = {
    mount(_src, options) {
      mountOptions = options;
      return { contentWindow: frameWindow, remove: () => removed++ };
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const send = (data: unknown, origin = ORIGIN, source: unknown = frameWindow) => {
    for (const listener of [...listeners]) listener({ data, origin, source });
  };
  const last = (event: string) => posted.filter((p) => p.message.event === event).at(-1)?.message;
  const answerReady = () =>
    send({ id: last("privy:iframe:ready")?.id, event: "privy:iframe:ready", data: {} });
  return {
    host,
    posted,
    send,
    last,
    answerReady,
    pings: () => posted.filter((p) => p.message.event === "privy:iframe:ready").length,
    failLoad: () => mountOptions?.onError(),
    removed: () => removed,
    listeners: () => listeners.size,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("wallet frame connection", () => {
  it("polls privy:iframe:ready every 150 ms, to the frame's origin only, until the frame answers", async () => {
    const frame = manualFrame();
    const connection = createFrameConnection({ host: frame.host, src: SRC, title: "t", visible: false });
    const ready = connection.ready();
    expect(frame.pings()).toBe(1);
    await vi.advanceTimersByTimeAsync(149);
    expect(frame.pings()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(frame.pings()).toBe(2);
    await vi.advanceTimersByTimeAsync(300);
    expect(frame.pings()).toBe(4);
    expect(new Set(frame.posted.map((p) => p.targetOrigin))).toEqual(new Set([ORIGIN]));
    frame.answerReady();
    await expect(ready).resolves.toBeUndefined();
    expect(connection.isReady()).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(frame.pings()).toBe(4);
  });

  it("fails with 'Wallet proxy not initialized.' (logged) when the frame is not ready within 15 s", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const frame = manualFrame();
    const connection = createFrameConnection({ host: frame.host, src: SRC, title: "t", visible: false });
    const request = connection.request("privy:wallets:connect", {});
    const outcome = request.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(14_999);
    expect(frame.removed()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({
      code: "embedded_wallet_request_error",
      message: "Wallet proxy not initialized.",
    });
    expect(logged).toHaveBeenCalledOnce();
    expect(frame.removed()).toBe(1);
    expect(frame.listeners()).toBe(0);
    // The request itself was never posted: only ready pings.
    expect(frame.posted.every((p) => p.message.event === "privy:iframe:ready")).toBe(true);
  });

  it("fails at once, logged, when the iframe fires error, and mounts a new frame on the next request", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const frame = manualFrame();
    const connection = createFrameConnection({ host: frame.host, src: SRC, title: "t", visible: false });
    const ready = connection.ready().catch((e: unknown) => e);
    frame.failLoad();
    expect(await ready).toMatchObject({ message: "Wallet proxy not initialized." });
    expect(logged).toHaveBeenCalledOnce();
    const again = connection.ready();
    frame.answerReady();
    await expect(again).resolves.toBeUndefined();
  });

  it("ignores answers from another origin or another window, and takes the frame's own", async () => {
    const frame = manualFrame();
    const connection = createFrameConnection({ host: frame.host, src: SRC, title: "t", visible: false });
    const ready = connection.ready();
    const pingId = frame.last("privy:iframe:ready")?.id;
    frame.send({ id: pingId, event: "privy:iframe:ready", data: {} }, "https://evil.example");
    frame.send({ id: pingId, event: "privy:iframe:ready", data: {} }, ORIGIN, { postMessage() {} });
    await vi.advanceTimersByTimeAsync(0);
    expect(connection.isReady()).toBe(false);
    frame.answerReady();
    await ready;

    const request = connection.request<{ address: string }>("privy:wallets:connect", { address: "0x1" });
    await vi.advanceTimersByTimeAsync(0);
    const id = frame.last("privy:wallets:connect")?.id;
    frame.send({ id, event: "privy:wallets:connect", data: { address: "forged" } }, "https://evil.example");
    frame.send({ id, event: "privy:wallets:connect", data: { address: "forged" } }, ORIGIN, null);
    frame.send({ id: "other", event: "privy:wallets:connect", data: { address: "wrong id" } });
    frame.send({ id, event: "privy:wallets:connect", data: { address: "0x1" } });
    await expect(request).resolves.toEqual({ address: "0x1" });
  });

  it("passes on the frame's own events (no id), from the frame's origin and window only", async () => {
    const frame = manualFrame();
    const events: string[] = [];
    const connection = createFrameConnection({
      host: frame.host,
      src: SRC,
      title: "t",
      visible: true,
      onEvent: (event) => events.push(event),
    });
    const ready = connection.ready();
    frame.answerReady();
    await ready;
    frame.send({ event: "privy:export:escape", data: {} }, "https://evil.example");
    frame.send({ event: "privy:export:escape", data: {} }, ORIGIN, { postMessage() {} });
    expect(events).toEqual([]);
    frame.send({ event: "privy:export:escape", data: {} });
    expect(events).toEqual(["privy:export:escape"]);
  });

  it("turns an error answer into a ClientError with the frame's type and message", async () => {
    const frame = manualFrame();
    const connection = createFrameConnection({ host: frame.host, src: SRC, title: "t", visible: false });
    const ready = connection.ready();
    frame.answerReady();
    await ready;
    const request = connection.request("privy:wallets:recover", {}).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    const id = frame.last("privy:wallets:recover")?.id;
    frame.send({
      id,
      event: "privy:wallets:recover",
      error: { type: "embedded_wallet_recovery_error", message: "Share mismatch" },
    });
    const error = await request;
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ code: "embedded_wallet_recovery_error", message: "Share mismatch" });
    expect((error as ClientError).retryAfterSeconds).toBeUndefined();
  });

  it("keeps the seconds an MFA lock-out has left (the server's Retry-After, passed on by the frame)", async () => {
    const frame = manualFrame();
    const connection = createFrameConnection({ host: frame.host, src: SRC, title: "t", visible: false });
    const ready = connection.ready();
    frame.answerReady();
    await ready;
    const request = connection.request("privy:mfa:verify", {}).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    const id = frame.last("privy:mfa:verify")?.id;
    frame.send({
      id,
      event: "privy:mfa:verify",
      error: {
        type: "mfa_verification_max_attempts_reached",
        message: "Max MFA verification attempts reached",
        retryAfterSeconds: 30,
      },
    });
    const error = await request;
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ code: "mfa_verification_max_attempts_reached", retryAfterSeconds: 30 });
  });

  it("gives up on an operation after its timeout (15 s by default)", async () => {
    const frame = manualFrame();
    const connection = createFrameConnection({ host: frame.host, src: SRC, title: "t", visible: false });
    const ready = connection.ready();
    frame.answerReady();
    await ready;
    const quick = connection.request("privy:wallets:connect", {}).catch((e: unknown) => e);
    const slow = connection
      .request("privy:wallet:create", {}, { timeoutMs: 60_000 })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(await quick).toMatchObject({
      code: "embedded_wallet_request_error",
      message: "The wallet did not answer privy:wallets:connect within 15 s.",
    });
    await vi.advanceTimersByTimeAsync(45_000);
    expect(await slow).toMatchObject({
      message: "The wallet did not answer privy:wallet:create within 60 s.",
    });
  });

  it("fails requests in flight and removes the frame when destroyed", async () => {
    const frame = manualFrame();
    const connection = createFrameConnection({ host: frame.host, src: SRC, title: "t", visible: false });
    const ready = connection.ready();
    frame.answerReady();
    await ready;
    const request = connection.request("privy:wallets:connect", {}).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    connection.destroy();
    expect(await request).toMatchObject({ message: "Wallet proxy not initialized." });
    expect(frame.removed()).toBe(1);
    await expect(connection.ready()).rejects.toThrow("Wallet proxy not initialized.");
  });
});
