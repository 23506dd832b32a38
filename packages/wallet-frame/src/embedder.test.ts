import { beforeAll, describe, expect, it } from "vitest";
import type { memoryDeviceKeys } from "./deviceKeys.ts";
import { createEmbedderGate, type EmbeddingContext, embeddingContextOf, storageScope } from "./embedder.ts";
import { createFakeServer } from "./test/fakeServer.ts";
import { createFrame, entropy, HOST, memoryStorage, NOT_ON_DEVICE } from "./test/frameHarness.ts";
import { loadWasm } from "./test/loadWasm.ts";
import { accessToken } from "./test/tokens.ts";

beforeAll(loadWasm);

const OTHER = "http://localhost:5174";
const EVIL = "https://evil.example";
const allowed = new Set([HOST, OTHER]);
const parent = { name: "parent" };
const framed = (ctx: Partial<EmbeddingContext>): EmbeddingContext => ({
  parent,
  ancestorOrigins: null,
  referrer: "",
  ...ctx,
});

describe("the embedder gate", () => {
  it("takes the parent's origin from ancestorOrigins and refuses one the app does not allow", () => {
    const refused = createEmbedderGate(framed({ ancestorOrigins: [EVIL, HOST] }), allowed);
    expect(refused.refusedOrigin).toBe(EVIL);
    // Not even an allowed origin speaking as the parent gets through, and storage stays shut.
    expect(refused.admit({ origin: HOST, source: parent })).toBe(false);
    expect(() => refused.origin()).toThrow("Unable to access storage");

    const ok = createEmbedderGate(framed({ ancestorOrigins: [HOST, EVIL] }), allowed);
    expect(ok.refusedOrigin).toBeNull();
    expect(ok.origin()).toBe(HOST);
    expect(ok.admit({ origin: HOST, source: parent })).toBe(true);
  });

  it("ancestorOrigins wins over a referrer", () => {
    expect(
      createEmbedderGate(framed({ ancestorOrigins: [EVIL], referrer: `${HOST}/page` }), allowed)
        .refusedOrigin,
    ).toBe(EVIL);
  });

  it("a masked or opaque parent ('null') falls back to the referrer, then to its messages' origin", () => {
    expect(
      createEmbedderGate(framed({ ancestorOrigins: ["null"], referrer: `${EVIL}/` }), allowed).refusedOrigin,
    ).toBe(EVIL);
    const masked = createEmbedderGate(framed({ ancestorOrigins: ["null"] }), allowed);
    expect(masked.refusedOrigin).toBeNull();
    // An opaque parent's messages come from origin "null", never an allowed one.
    expect(masked.admit({ origin: "null", source: parent })).toBe(false);
    expect(() => masked.origin()).toThrow();
    expect(masked.admit({ origin: HOST, source: parent })).toBe(true);
    expect(masked.origin()).toBe(HOST);
  });

  it("without ancestorOrigins, reads the referrer's origin", () => {
    expect(createEmbedderGate(framed({ referrer: `${EVIL}/steal?x=1` }), allowed).refusedOrigin).toBe(EVIL);
    const ok = createEmbedderGate(framed({ referrer: `${OTHER}/account` }), allowed);
    expect(ok.origin()).toBe(OTHER);
    // Bound to that origin: the app's other origin does not speak for this embedder.
    expect(ok.admit({ origin: HOST, source: parent })).toBe(false);
    expect(ok.admit({ origin: OTHER, source: parent })).toBe(true);
  });

  it("seeing nothing, binds to the first allowed message from the parent, and only then opens storage", () => {
    const gate = createEmbedderGate(framed({}), allowed);
    expect(gate.refusedOrigin).toBeNull();
    expect(() => gate.origin()).toThrow("Unable to access storage");
    expect(gate.admit({ origin: EVIL, source: parent })).toBe(false);
    expect(gate.admit({ origin: HOST, source: { name: "another frame" } })).toBe(false);
    expect(() => gate.origin()).toThrow();
    expect(gate.admit({ origin: OTHER, source: parent })).toBe(true);
    expect(gate.origin()).toBe(OTHER);
    expect(gate.admit({ origin: HOST, source: parent })).toBe(false);
  });

  it("framed: a message from another window of an allowed origin is not admitted", () => {
    const gate = createEmbedderGate(framed({ ancestorOrigins: [HOST] }), allowed);
    expect(gate.admit({ origin: HOST, source: { name: "sibling" } })).toBe(false);
    expect(gate.admit({ origin: HOST, source: null })).toBe(false);
  });

  it("as a top-level window: refused when the referrer is foreign, else bound to the opener's origin", () => {
    expect(
      createEmbedderGate({ parent: null, ancestorOrigins: [], referrer: `${EVIL}/` }, allowed).refusedOrigin,
    ).toBe(EVIL);
    const opened = createEmbedderGate({ parent: null, ancestorOrigins: [], referrer: "" }, allowed);
    expect(opened.admit({ origin: HOST, source: { name: "opener" } })).toBe(true);
    expect(opened.origin()).toBe(HOST);
    expect(opened.admit({ origin: OTHER, source: { name: "opener" } })).toBe(false);
  });

  it("scopes storage by app id and embedder origin", () => {
    expect(storageScope("app", HOST)).toBe(`symbolon[app ${HOST}]:`);
    expect(storageScope("app", HOST)).not.toBe(storageScope("app", OTHER));
    expect(storageScope("app", HOST)).not.toBe(storageScope("app2", HOST));
  });
});

describe("a frame embedded by a page the app does not allow", () => {
  const alice = accessToken("did:privy:alice");

  it("answers nothing, calls no server and reads no storage, even when asked from an allowed origin", async () => {
    const server = createFakeServer();
    // The victim's device share and key, written by the frame under the app's own page.
    const storage = memoryStorage();
    const session = memoryStorage();
    const home = createFrame(server, { storage, session, embedding: { ancestorOrigins: [HOST] } });
    const { address } = await home.call<{ address: string }>("privy:wallet:create", {
      accessToken: alice,
      chainType: "ethereum",
    });
    const callsBefore = server.calls.length;

    const reads: string[] = [];
    const watched = {
      ...storage,
      getItem: (key: string) => {
        reads.push(key);
        return storage.getItem(key);
      },
      setItem: (key: string, value: string) => {
        reads.push(key);
        storage.setItem(key, value);
      },
    };
    const evil = createFrame(server, { storage: watched, session, embedding: { ancestorOrigins: [EVIL] } });
    expect(evil.gate?.refusedOrigin).toBe(EVIL);
    for (const [event, data] of [
      ["privy:iframe:ready", {}],
      ["privy:wallets:connect", { accessToken: alice, ...entropy(address) }],
      [
        "privy:wallets:rpc",
        {
          accessToken: alice,
          ...entropy(address),
          hdWalletIndex: 0,
          request: { method: "personal_sign", params: ["0x68", address] },
        },
      ],
      ["privy:wallets:recover", { accessToken: alice, ...entropy(address) }],
    ] as const) {
      for (const origin of [HOST, EVIL]) {
        expect(await evil.post({ id: `${event}@${origin}`, event, data }, origin, 30)).toEqual([]);
      }
    }
    expect(evil.posted).toEqual([]);
    expect(reads).toEqual([]);
    expect(server.calls.length).toBe(callsBefore);
  });
});

describe("storage scoped by embedder origin", () => {
  const alice = accessToken("did:privy:alice");

  it("a frame under another allowed origin does not find the first origin's device share: it recovers", async () => {
    const server = createFakeServer();
    const storage = memoryStorage();
    const home = createFrame(server, { storage, embedding: { ancestorOrigins: [HOST] } });
    const { address } = await home.call<{ address: string }>("privy:wallet:create", {
      accessToken: alice,
      chainType: "ethereum",
    });
    const keys = [...storage.items.keys()];
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key.startsWith(storageScope("app", HOST))).toBe(true);

    // Same browser storage (an unpartitioned browser), the app's other origin as embedder.
    const other = createFrame(server, {
      storage,
      embedding: { ancestorOrigins: [OTHER] },
      allowedOrigins: [HOST, OTHER],
      origin: OTHER,
    });
    expect(
      (await other.request("privy:wallets:connect", { accessToken: alice, ...entropy(address) })).error,
    ).toEqual(NOT_ON_DEVICE);
    // The first origin's frame still unlocks from its own entries after a reload.
    const reloaded = createFrame(server, { storage, embedding: { ancestorOrigins: [HOST] } });
    expect(await reloaded.call("privy:wallets:connect", { accessToken: alice, ...entropy(address) })).toEqual(
      {
        entropyId: address,
      },
    );
  });
});

describe("embeddingContextOf", () => {
  it("reads parent, ancestorOrigins and referrer; a top-level window has no parent", () => {
    const top = {
      location: { ancestorOrigins: [] },
      document: { referrer: `${HOST}/` },
    } as unknown as Window & { parent: unknown };
    top.parent = top;
    expect(embeddingContextOf(top)).toEqual({ parent: null, ancestorOrigins: [], referrer: `${HOST}/` });
    const framedWindow = {
      parent: parent,
      location: {},
      document: { referrer: "" },
    } as unknown as Window;
    expect(embeddingContextOf(framedWindow)).toEqual({ parent, ancestorOrigins: null, referrer: "" });
  });
});

describe("entries from before the embedder scope", () => {
  const alice = accessToken("did:privy:alice");

  it("move into the first verified scope, which unlocks without recovery; a refused frame moves nothing", async () => {
    const server = createFakeServer();
    const storage = memoryStorage();
    // A frame of the previous build: unscoped entries.
    const before = createFrame(server, { storage });
    const { address } = await before.call<{ address: string }>("privy:wallet:create", {
      accessToken: alice,
      chainType: "ethereum",
    });
    const unscoped = [...storage.items.keys()].sort();
    expect(unscoped).toEqual(["symbolon:wallet:device-key", "symbolon:wallet:device-share:did:privy:alice"]);

    const evil = createFrame(server, { storage, embedding: { ancestorOrigins: [EVIL] } });
    expect(
      await evil.post(
        { id: "1", event: "privy:wallets:connect", data: { accessToken: alice, ...entropy(address) } },
        HOST,
        30,
      ),
    ).toEqual([]);
    expect([...storage.items.keys()].sort()).toEqual(unscoped);

    const calls = server.calls.length;
    const scoped = createFrame(server, { storage, embedding: { ancestorOrigins: [HOST] } });
    expect(await scoped.call("privy:wallets:connect", { accessToken: alice, ...entropy(address) })).toEqual({
      entropyId: address,
    });
    // A plain unlock (key_material with the device key), no recovery.
    expect(server.calls.slice(calls).some((c) => c.path.endsWith("/shares"))).toBe(false);
    const scope = storageScope("app", HOST);
    expect([...storage.items.keys()].sort()).toEqual([
      "symbolon:wallet:device-key",
      `${scope}symbolon:wallet:device-key`,
      `${scope}symbolon:wallet:device-share:did:privy:alice`,
    ]);
    expect([...(scoped.keys as ReturnType<typeof memoryDeviceKeys>).keys.keys()]).toEqual([
      `${scope}did:privy:alice`,
    ]);
  });
});
