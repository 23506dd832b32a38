import { afterEach, describe, expect, it, vi } from "vitest";
import { loginToMiniApp } from "../actions/loginToMiniApp.ts";
import { loginWithEmailCode } from "../actions/loginWithEmailCode.ts";
import { loginWithFarcaster } from "../actions/loginWithFarcaster.ts";
import { requestFarcasterSigner } from "../actions/requestFarcasterSigner.ts";
import { FARCASTER_POLL_MS, FARCASTER_TIMEOUT_MS } from "../generated/protocol.ts";
import { makeUser } from "../test/fixtures.ts";
import { makeClient, useScriptedApp } from "../test/harness.ts";
import { FARCASTER_TIMED_OUT_DETAIL, FarcasterError } from "./FarcasterError.ts";
import { fidOfMessage } from "./fidOfMessage.ts";
import { pollFarcaster } from "./pollFarcaster.ts";

describe("pollFarcaster", () => {
  afterEach(() => vi.useRealTimers());

  it("checks every 2 s until there is an answer", async () => {
    vi.useFakeTimers();
    const at: number[] = [];
    const start = Date.now();
    const check = vi.fn(async () => {
      at.push(Date.now() - start);
      return at.length === 3 ? "approved" : null;
    });
    const result = pollFarcaster(check);
    await vi.advanceTimersByTimeAsync(2 * FARCASTER_POLL_MS);
    await expect(result).resolves.toBe("approved");
    expect(at).toEqual([0, FARCASTER_POLL_MS, 2 * FARCASTER_POLL_MS]);
  });

  it("fails with 'Connect failed' / 'The request timed out. Try again.' after 300 s", async () => {
    vi.useFakeTimers();
    const check = vi.fn(async () => null);
    const result = pollFarcaster(check);
    const outcome = result.then(
      () => null,
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(FARCASTER_TIMEOUT_MS - FARCASTER_POLL_MS);
    // Still polling just before the limit.
    expect(check).toHaveBeenCalledTimes(FARCASTER_TIMEOUT_MS / FARCASTER_POLL_MS);
    await vi.advanceTimersByTimeAsync(FARCASTER_POLL_MS);
    const error = (await outcome) as FarcasterError;
    expect(error).toBeInstanceOf(FarcasterError);
    expect(error.message).toBe("Connect failed");
    expect(error.detail).toBe(FARCASTER_TIMED_OUT_DETAIL);
    expect(check.mock.calls.length).toBeLessThanOrEqual(FARCASTER_TIMEOUT_MS / FARCASTER_POLL_MS + 1);
  });

  it("stops when aborted, and a failing check fails the poll", async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const stopped = pollFarcaster(async () => null, { signal: controller.signal }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(FARCASTER_POLL_MS / 2);
    controller.abort(new Error("closed"));
    expect(((await stopped) as Error).message).toBe("closed");
    await expect(
      pollFarcaster(async () => {
        throw new Error("relay down");
      }),
    ).rejects.toThrow("relay down");
  });
});

const scripted = useScriptedApp();

describe("Farcaster login", () => {
  it("opens a channel, shows its URL, polls the status with the channel token, then authenticates", async () => {
    scripted.app.user = makeUser({ linked_accounts: [] });
    let polls = 0;
    scripted.server.on("POST /api/v1/farcaster/init", () => ({
      json: { channel_token: "chan-1", connect_uri: "farcaster://connect?channelToken=chan-1", nonce: "n1" },
    }));
    scripted.server.on("GET /api/v1/farcaster/status", () => {
      polls += 1;
      return polls < 3
        ? { json: { state: "pending" } }
        : {
            json: { state: "completed", message: "siwf farcaster://fid/1001", signature: "0xsig", fid: 1001 },
          };
    });
    scripted.server.on("POST /api/v1/farcaster/authenticate", () => ({
      json: scripted.app.issue({ is_new_user: true }),
    }));
    const client = makeClient(scripted.server);
    const urls: string[] = [];
    const result = await loginWithFarcaster(client, { intervalMs: 5, onChannel: (c) => urls.push(c.url) });
    expect(result.isNewUser).toBe(true);
    expect(urls).toEqual(["farcaster://connect?channelToken=chan-1"]);
    const statusHits = scripted.server.hitsOf("GET /api/v1/farcaster/status");
    expect(statusHits).toHaveLength(3);
    expect(statusHits[0]?.headers["farcaster-channel-token"]).toBe("chan-1");
    expect(scripted.server.hitsOf("POST /api/v1/farcaster/authenticate")[0]?.body).toEqual({
      channel_token: "chan-1",
      message: "siwf farcaster://fid/1001",
      signature: "0xsig",
      fid: 1001,
    });
  });

  it("a Mini App login sends the message, signature and the message's fid to the v2 call", async () => {
    scripted.app.user = makeUser({ linked_accounts: [] });
    scripted.server.on("POST /api/v2/farcaster/authenticate", () => ({ json: scripted.app.issue() }));
    const client = makeClient(scripted.server);
    const message = "example.com wants you to sign in…\nResources:\n- farcaster://fid/1002";
    await loginToMiniApp(client, { message, signature: "0xabc" });
    expect(scripted.server.hitsOf("POST /api/v2/farcaster/authenticate")[0]?.body).toEqual({
      message,
      signature: "0xabc",
      fid: 1002,
    });
    expect(fidOfMessage("no resource")).toBeNull();
  });
});

describe("Farcaster signer request", () => {
  const key = `0x${"ab".repeat(32)}`;
  const signer = (status: string) => ({
    json: { public_key: key, status, signer_approval_url: "farcaster://signed-key-request?token=t1" },
  });

  it("shows the approval link and polls the status until approved", async () => {
    scripted.app.user = makeUser();
    let polls = 0;
    scripted.server.on("POST /api/v1/farcaster/signer/init", () => signer("pending_approval"));
    scripted.server.on("POST /api/v1/farcaster/signer/status", () => {
      polls += 1;
      return signer(polls < 2 ? "pending_approval" : "approved");
    });
    const client = makeClient(scripted.server);
    await loginWithEmailCode(client, { email: "ada@example.com", code: "123456" });
    const urls: string[] = [];
    const approved = await requestFarcasterSigner(client, {
      publicKey: key,
      intervalMs: 5,
      onApprovalUrl: (url) => urls.push(url),
    });
    expect(approved.status).toBe("approved");
    expect(urls).toEqual(["farcaster://signed-key-request?token=t1"]);
    expect(scripted.server.hitsOf("POST /api/v1/farcaster/signer/status")[0]?.body).toEqual({
      ed25519_public_key: key,
    });
  });

  it("a revoked request is 'Request rejected'; no public key is 'Connect failed'", async () => {
    scripted.app.user = makeUser();
    scripted.server.on("POST /api/v1/farcaster/signer/init", () => signer("pending_approval"));
    scripted.server.on("POST /api/v1/farcaster/signer/status", () => signer("revoked"));
    const client = makeClient(scripted.server);
    await loginWithEmailCode(client, { email: "ada@example.com", code: "123456" });
    await expect(requestFarcasterSigner(client, { publicKey: key, intervalMs: 5 })).rejects.toThrow(
      "Request rejected",
    );
    await expect(requestFarcasterSigner(client, { publicKey: "" })).rejects.toThrow("Connect failed");
  });
});
