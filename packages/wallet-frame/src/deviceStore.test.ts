import { describe, expect, it } from "vitest";
import { createDeviceStore } from "./deviceStore.ts";
import { brokenStorage, memoryStorage } from "./test/frameHarness.ts";

describe("device store", () => {
  it("creates a random 32-byte device key once and keeps it", () => {
    const storage = memoryStorage();
    const key = createDeviceStore(() => storage).deviceKey();
    expect(key).toHaveLength(32);
    expect(createDeviceStore(() => storage).deviceKey()).toEqual(key);
    expect(createDeviceStore(() => memoryStorage()).deviceKey()).not.toEqual(key);
  });

  it("replaces an unreadable device key", () => {
    const storage = memoryStorage();
    storage.setItem("symbolon:wallet:device-key", "!!not base64!!");
    const key = createDeviceStore(() => storage).deviceKey();
    expect(key).toHaveLength(32);
    expect(createDeviceStore(() => storage).deviceKey()).toEqual(key);
  });

  it("keeps the device share per user with its root address", () => {
    const storage = memoryStorage();
    const store = createDeviceStore(() => storage);
    const record = {
      address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      envelope: new Uint8Array([1, 2, 3]),
    };
    store.write("did:privy:alice", record);
    expect(store.read("did:privy:alice")).toEqual(record);
    expect(store.read("did:privy:bob")).toBeNull();
  });

  it("treats a corrupt record as no device share", () => {
    const storage = memoryStorage();
    storage.setItem("symbolon:wallet:device-share:u1", "{not json");
    storage.setItem("symbolon:wallet:device-share:u2", JSON.stringify({ address: 5 }));
    const store = createDeviceStore(() => storage);
    expect(store.read("u1")).toBeNull();
    expect(store.read("u2")).toBeNull();
  });

  it("reports storage that cannot be used as storage_error", () => {
    const store = createDeviceStore(() => brokenStorage());
    for (const use of [
      () => store.deviceKey(),
      () => store.read("u"),
      () => store.write("u", { address: "0x", envelope: new Uint8Array() }),
    ]) {
      expect(use).toThrow(
        expect.objectContaining({ type: "storage_error", message: "Unable to access storage" }),
      );
    }
    // Touching `localStorage` itself can throw (blocked third-party storage): same error.
    const blocked = createDeviceStore(() => {
      throw new DOMException("denied", "SecurityError");
    });
    expect(() => blocked.read("u")).toThrow("Unable to access storage");
  });

  it("adopts the unscoped device key and moves a user's unscoped share only when it is under that key", () => {
    const raw = memoryStorage();
    const legacy = createDeviceStore(() => raw);
    const oldKey = legacy.deviceKey();
    const record = { address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", envelope: new Uint8Array([7]) };
    legacy.write("did:privy:alice", record);
    legacy.write("did:privy:bob", record);

    const scopedRaw = memoryStorage();
    const scoped = createDeviceStore(
      () => scopedRaw,
      () => raw,
    );
    expect(scoped.deviceKey()).toEqual(oldKey);
    expect(scoped.read("did:privy:alice")).toEqual(record);
    expect(raw.getItem("symbolon:wallet:device-share:did:privy:alice")).toBeNull();
    expect(scopedRaw.getItem("symbolon:wallet:device-share:did:privy:alice")).not.toBeNull();

    // A scope that made its own key meanwhile cannot open the old share: it stays where it is.
    const otherRaw = memoryStorage();
    const other = createDeviceStore(() => otherRaw);
    other.deviceKey();
    const late = createDeviceStore(
      () => otherRaw,
      () => raw,
    );
    expect(late.read("did:privy:bob")).toBeNull();
    expect(raw.getItem("symbolon:wallet:device-share:did:privy:bob")).not.toBeNull();
    // Unreadable legacy storage is no legacy.
    expect(
      createDeviceStore(
        () => memoryStorage(),
        () => brokenStorage() as unknown as Storage,
      ).read("did:privy:bob"),
    ).toBeNull();
  });
});
